import CanvasCore
import CanvasStyle
import CanvasUI
import MicroAppProtocol
import Testing
import Widgets

@MainActor
@Suite("Micro-app views drawn as text, at odd sizes")
struct ViewRenderingTests {
    @Test func textWrapsAtWordsAndIsClipped() throws {
        #expect(try drawn(.text("the quick brown fox", role: nil, wrap: true), 9, 3) == ["the quick", "brown fox", "         "])
        #expect(try drawn(.text("the quick brown fox", role: nil, wrap: false), 7, 2) == ["the qui", "       "])
        #expect(try drawn(.text("abcdefghij", role: nil, wrap: true), 4, 4) == ["abcd", "efgh", "ij  ", "    "])
        #expect(try drawn(.text("a\nb\nc\nd", role: nil, wrap: true), 3, 2) == ["a  ", "b  "])
    }

    @Test func wideCharactersAreNeverCutInHalf() throws {
        #expect(try drawn(.text("日本語テキスト", role: nil, wrap: false), 5, 1) == ["日本 "])
        #expect(try drawn(.text("日本語 テキスト", role: nil, wrap: true), 7, 2) == ["日本語 ", "テキス "])
    }

    @Test func aListKeepsItsSelectionInView() throws {
        let items = (1...10).map { ViewNode.Span("item \($0)") }
        #expect(try drawn(.list(items: items, selected: 7), 7, 3) == ["item 6 ", "item 7 ", "item 8 "])
        #expect(try drawn(.list(items: items, selected: 0), 7, 2) == ["item 1 ", "item 2 "])
        let widget = try appWidget(showing: .list(items: items, selected: 1))
        let buffer = render(widget, size: Size(width: 7, height: 3))
        #expect(buffer[6, 1].style == Theme.dark[.selection])
        #expect(render(widget, size: Size(width: 7, height: 3), focused: false)[6, 1].style == Theme.dark[.selectionUnfocused])
    }

    @Test func aTableSharesItsWidthAndAlignsNumbers() throws {
        let table = ViewNode.table(columns: [.init("pid", width: 5, alignRight: true), .init("name"), .init("cpu", alignRight: true)],
                                   rows: [["1", "init", "0.1"], ["4242", "python3", "97.5"]], selected: nil)
        // The widest column takes what the others leave.
        #expect(try drawn(table, 22, 3) == ["  pid name         cpu", "    1 init         0.1", " 4242 python3     97.5"])
        #expect(try drawn(table, 9, 2) == ["  pid n c", "    1 i 0"])
    }

    @Test func keysAndValuesLineUp() throws {
        #expect(try drawn(.keyValues([.init("load", "0.42"), .init("uptime", "3 days")]), 16, 2)
            == ["load   0.42     ", "uptime 3 days   "])
    }

    @Test func aGaugeFillsInProportion() throws {
        #expect(try drawn(.gauge(label: "cpu", value: 0.5, text: "50%", role: nil), 16, 1) == ["cpu ████░░░░ 50%"])
        #expect(try drawn(.gauge(label: "", value: 1, text: nil, role: nil), 4, 1) == ["████"])
        // The label gives way to the bar, down to a third of the width.
        #expect(try drawn(.gauge(label: "a long label", value: 0.25, text: "25%", role: nil), 12, 1) == ["a l █░░░ 25%"])
    }

    @Test func aSparklineShowsTheLatestValuesThatFit() throws {
        #expect(try drawn(.sparkline(label: "", values: [0, 1, 2, 3, 4, 5, 6, 7], min: nil, max: nil), 8, 1) == ["▁▂▃▄▅▆▇█"])
        #expect(try drawn(.sparkline(label: "load", values: [0, 7, 7, 0], min: 0, max: 7), 7, 1) == ["load █▁"])
        #expect(try drawn(.sparkline(label: "", values: [3, 3], min: nil, max: nil), 3, 1) == ["▁▁ "])
    }

    @Test func stacksShareTheirLength() throws {
        let stack = ViewNode.stack(direction: .rows, children: [
            .init(.text("head", role: nil, wrap: false), size: 1),
            .init(.text("a\na\na", role: nil, wrap: false), grow: 1),
            .init(.text("b\nb\nb", role: nil, wrap: false), grow: 2),
        ])
        #expect(try drawn(stack, 4, 4) == ["head", "a   ", "b   ", "b   "])
        let columns = ViewNode.stack(direction: .columns, children: [
            .init(.text("left", role: nil, wrap: false)), .init(.text("right", role: nil, wrap: false)),
        ])
        #expect(try drawn(columns, 7, 1) == ["lefrigh"])
        #expect(try drawn(stack, 2, 1) == ["he"])
    }

    @Test func linesOfSpansTakeTheirRoles() throws {
        let widget = try appWidget(showing: .lines([[.init("ok ", role: "success"), .init("bad", role: "error"), .init("?", role: "blink")]]))
        let buffer = render(widget, size: Size(width: 8, height: 1))
        #expect(buffer.lines == ["ok bad? "])
        #expect(buffer[0, 0].style == Theme.dark[.success])
        #expect(buffer[3, 0].style == Theme.dark[.error])
        #expect(buffer[6, 0].style == Theme.dark[.text])  // an unknown role is plain text
    }

    @Test func unknownNodesDrawNothing() throws {
        #expect(try drawn(.stack(direction: .rows, children: [.init(.unknown(type: "chart")), .init(.text("after", role: nil, wrap: false))]), 5, 2)
            == ["     ", "after"])
    }

    @Test func everyKindSurvivesEveryTinySize() throws {
        let kinds: [ViewNode] = [
            .text("日本 x", role: nil, wrap: true), .list(items: [.init("a"), .init("日")], selected: 1),
            .table(columns: [.init("a"), .init("日本")], rows: [["1", "2"]], selected: 0), .keyValues([.init("日本", "x")]),
            .gauge(label: "日本", value: 0.5, text: "50%", role: nil), .sparkline(label: "x", values: [1, 2], min: nil, max: nil),
            .input(id: "q", value: "日本", placeholder: "", label: "?"), .lines([[.init("日本語")]]),
        ]
        for node in kinds {
            for width in 0...4 {
                for height in 0...2 {
                    let lines = try drawn(.stack(direction: .columns, children: [.init(node), .init(node, size: 1)]), width, height)
                    #expect(lines.count == height)
                    #expect(lines.allSatisfy { DisplayWidth.of($0) == width })
                }
            }
        }
    }
}
