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
