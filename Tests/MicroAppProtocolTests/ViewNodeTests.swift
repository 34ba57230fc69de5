import Foundation
import MicroAppProtocol
import Testing

@Suite("View nodes: read leniently")
struct ViewNodeTests {
    func node(_ json: String) throws -> ViewNode {
        ViewNode(json: try JSONDecoder().decode(JSONValue.self, from: Data(json.utf8)))
    }

    @Test func everyKindIsRead() throws {
        #expect(try node(#"{"type":"text","text":"a\nb","role":"muted","wrap":false}"#) == .text("a\nb", role: "muted", wrap: false))
        #expect(try node(#"{"type":"list","items":["a",{"text":"b","role":"error"}],"selected":1}"#)
            == .list(items: [.init("a"), .init("b", role: "error")], selected: 1))
        #expect(try node(#"{"type":"table","columns":["pid",{"title":"cpu","width":5,"align":"right"}],"rows":[["1","2.5",9],[3,4]]}"#)
            == .table(columns: [.init("pid"), .init("cpu", width: 5, alignRight: true)], rows: [["1", "2.5"], ["3", "4"]], selected: nil))
        #expect(try node(#"{"type":"kv","items":[{"key":"a","value":1},["b","c"]]}"#) == .keyValues([.init("a", "1"), .init("b", "c")]))
        #expect(try node(#"{"type":"gauge","label":"cpu","value":1.7,"text":"170%"}"#) == .gauge(label: "cpu", value: 1, text: "170%", role: nil))
        #expect(try node(#"{"type":"sparkline","values":[1,"x",2.5],"max":10}"#) == .sparkline(label: "", values: [1, 2.5], min: nil, max: 10))
        #expect(try node(#"{"type":"input","id":"q","placeholder":"search"}"#) == .input(id: "q", value: "", placeholder: "search", label: ""))
        #expect(try node(#"{"type":"stack","direction":"columns","children":[{"type":"text","text":"a","size":3},{"type":"text","text":"b","grow":2}]}"#)
            == .stack(direction: .columns, children: [.init(.text("a", role: nil, wrap: true), size: 3), .init(.text("b", role: nil, wrap: true), grow: 2)]))
        #expect(try node(##"{"type":"lines","lines":[["plain",{"text":"red?","role":"error","colour":"#f00"}]]}"##)
            == .lines([[.init("plain"), .init("red?", role: "error")]]))
    }

    @Test func unknownTypesAndFieldsAreIgnored() throws {
        #expect(try node(#"{"type":"hologram","depth":3}"#) == .unknown(type: "hologram"))
        #expect(try node(#"{"text":"no type"}"#) == .unknown(type: ""))
        #expect(try node(#"{"type":"stack","children":[{"type":"chart"},{"type":"text","text":"ok","blink":true}]}"#)
            == .stack(direction: .rows, children: [.init(.unknown(type: "chart")), .init(.text("ok", role: nil, wrap: true))]))
        #expect(try node(#"{"type":"gauge","value":"lots"}"#) == .gauge(label: "", value: 0, text: nil, role: nil))
    }

    @Test func aHugeViewIsCutToItsBudget() throws {
        let items = Array(repeating: #""x""#, count: 50_000).joined(separator: ",")
        guard case .list(let read, _) = try node(#"{"type":"list","items":[\#(items)]}"#) else {
            Issue.record("expected a list")
            return
        }
        #expect(read.count < ViewNode.maximumElements)
    }
}

@Suite("View nodes: numbers read strictly")
struct ViewNodeNumberTests {
    func node(_ json: String) throws -> ViewNode {
        ViewNode(json: try JSONDecoder().decode(JSONValue.self, from: Data(json.utf8)))
    }

    @Test func aNumberOutOfItsRangeRefusesItsNode() throws {
        #expect(try node(#"{"type":"sparkline","values":[1,1e301]}"#) == .refused(type: "sparkline", reason: "values[1] is 1e+301, beyond ±1e300"))
        #expect(try node(#"{"type":"sparkline","values":[1],"min":-1e308}"#) == .refused(type: "sparkline", reason: "min is -1e+308, beyond ±1e300"))
        #expect(try node(#"{"type":"list","items":["a"],"selected":1.5}"#) == .refused(type: "list", reason: "selected is 1.5, not a whole number in -1…20000"))
        #expect(try node(#"{"type":"table","columns":[{"title":"a","width":-3}]}"#)
            == .refused(type: "table", reason: "columns[0].width is -3, not a whole number in 0…10000"))
        #expect(try node(#"{"type":"gauge","value":-1e308}"#) == .refused(type: "gauge", reason: "value is -1e+308, beyond ±1e300"))
    }

    @Test func aChildsOwnSizeRefusesTheChildNotTheStack() throws {
        let stack = try node(#"{"type":"stack","children":[{"type":"text","text":"a","size":9e18},{"type":"text","text":"b","grow":7}]}"#)
        #expect(stack == .stack(direction: .rows, children: [
            .init(.refused(type: "text", reason: "size is 9e+18, not a whole number in 0…10000"), size: 1),
            .init(.text("b", role: nil, wrap: true), grow: 7),
        ]))
        #expect(stack.refusals == ["text: size is 9e+18, not a whole number in 0…10000"])
    }

    @Test func noneSelectedAndMistypedNumbersKeepTheirDefaults() throws {
        #expect(try node(#"{"type":"list","items":["a"],"selected":-1}"#) == .list(items: [.init("a")], selected: nil))
        #expect(try node(#"{"type":"list","items":["a"],"selected":"2"}"#) == .list(items: [.init("a")], selected: nil))
        #expect(try node(#"{"type":"sparkline","values":[1,"x",null]}"#) == .sparkline(label: "", values: [1], min: nil, max: nil))
    }

    @Test func aRevisionOutOfRangeRefusesTheView() throws {
        let json = try JSONDecoder().decode(JSONValue.self, from: Data(#"{"revision":-4,"root":{"type":"text","text":"a"}}"#.utf8))
        let line = try JSONEncoder().encode(JSONValue.object(["jsonrpc": .string("2.0"), "method": .string("view"), "params": json]))
        guard case .view(let view) = try MicroAppCodec.decode([UInt8](line)) else {
            Issue.record("not a view")
            return
        }
        #expect(view.root == .refused(type: "view", reason: "revision is -4, not a whole number in 0…1000000000000000"))
    }
}
