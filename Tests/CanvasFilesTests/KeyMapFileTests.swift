import CanvasCore
import CanvasUI
@testable import CanvasFiles
import Testing

@Suite("Key map files: keys.yaml over the default keys")
struct KeyMapFileTests {
    static let file = "config/termcanvas/keys.yaml"
    static let defaults = CommandTable(CanvasCommands.all)

    static let base = [
        "# My keys.", //                                        1
        "bind:", //                                             2
        "  \"ctrl+j\": canvas.focus.next", //                   3
        "  \"alt+h\": help", //                                 4 (replaced below where a case needs it)
        "unbind:", //                                           5
        "  - tab", //                                           6
        "  - canvas.focus.pane9", //                            7
    ]

    static var valid: [String] { replacing(base, line: 4, with: "  \"alt+h\": canvas.help") }

    static let keyHelp = "write e.g. ctrl+j, alt+1, shift+up, f1, space, ? (termcanvas keys lists the keys in use)"

    static let cases: [ExpectedError] = [
        ExpectedError(label: "unknown command", text: text(base), line: 4, field: "bind.alt+h",
                      message: "no command named help; did you mean canvas.help? (termcanvas keys lists them all)"),
        ExpectedError(label: "unknown key name", text: text(replacing(valid, line: 3, with: "  \"hyper+j\": canvas.focus.next")), line: 3,
                      field: "bind.hyper+j", message: "'hyper+j' is not a key name; \(keyHelp)"),
        ExpectedError(label: "two characters", text: text(replacing(valid, line: 3, with: "  jj: canvas.focus.next")), line: 3,
                      field: "bind.jj", message: "'jj' is not a key name; \(keyHelp)"),
        ExpectedError(label: "unknown key to unbind", text: text(replacing(valid, line: 6, with: "  - tabb")), line: 6,
                      field: "unbind", message: "'tabb' is not a key name; \(keyHelp)"),
        ExpectedError(label: "unknown command to unbind", text: text(replacing(valid, line: 7, with: "  - canvas.focus.pane10")), line: 7,
                      field: "unbind", message: "no command named canvas.focus.pane10; did you mean canvas.focus.pane1? (termcanvas keys lists them all)"),
        ExpectedError(label: "a key in use", text: text(replacing(valid, line: 4, with: "  \"ctrl+s\": canvas.help")), line: 4,
                      field: "bind.ctrl+s", message: "ctrl+s already runs layout.save; add it to unbind first"),
        ExpectedError(label: "unbinding a free key", text: text(replacing(valid, line: 6, with: "  - ctrl+y")), line: 6,
                      field: "unbind", message: "ctrl+y is not bound to anything"),
        ExpectedError(label: "a key with a dot, to unbind", text: text(replacing(valid, line: 6, with: "  - alt+.")), line: 6,
                      field: "unbind", message: "alt+. is not bound to anything"),
        ExpectedError(label: "bind is a list", text: "bind: [ctrl+j]\n", line: 1, field: "bind", message: "expected a mapping of keys to values"),
        ExpectedError(label: "unbind is a mapping", text: "unbind: { tab: x }\n", line: 1, field: "unbind", message: "expected a list"),
        ExpectedError(label: "unknown top-level key", text: text(replacing(valid, line: 5, with: "unbound:")), line: 5,
                      field: "unbound", message: "unknown key; expected one of bind, unbind"),
        ExpectedError(label: "duplicated key", text: text(replacing(valid, line: 4, with: "  \"ctrl+j\": canvas.help")), line: 3,
                      field: "ctrl+j", message: "the key appears twice"),
        ExpectedError(label: "an alias", text: "bind:\n  \"ctrl+j\": &next canvas.focus.next\n  \"ctrl+k\": *next\n", line: 3, field: "",
                      message: "aliases (*name) are not allowed in this file; write the value out"),
        ExpectedError(label: "not YAML", text: "bind: {\n", line: 2, field: "", message: "not valid YAML: did not find expected node content"),
    ]

    /// The file read and applied to the defaults, as the dashboard does.
    static func apply(_ text: String, file: String, to table: CommandTable) throws -> CommandTable {
        let edits = try KeyMapFile.parse(text, file: file)
        do {
            return try table.applying(edits)
        } catch {
            throw KeyMapFile.error(error, file: file)
        }
    }

    @Test func theValidFileChangesTheKeys() throws {
        let table = try Self.apply(text(Self.valid), file: Self.file, to: Self.defaults)
        #expect(table.keys(for: .focusNext) == [.ctrl("j")])
        #expect(table.keys(for: .help) == [.alt(.char("h")), .char("?"), Key(.function(1))])
        #expect(table.keys(for: .focus(pane: 9)) == [])
        #expect(table.keys(for: .focus(pane: 8)) == [.alt(.char("8"))])
    }

    @Test func aFileOfCommentsChangesNothing() throws {
        let table = try Self.apply("# nothing yet\n", file: Self.file, to: Self.defaults)
        #expect(table.keys(for: .focusNext) == [.tab])
    }

    @Test(arguments: cases)
    func aMistakeIsReportedWhereItIs(_ expected: ExpectedError) {
        guard let error = fileError({ _ = try Self.apply(expected.text, file: Self.file, to: Self.defaults) }) else { return }
        expected.check(error, file: Self.file)
    }
}
