import CanvasCore
@testable import CanvasFiles
import Testing

@Suite("Mistakes in layout files name the file, line and field")
struct LayoutFileErrorTests {
    static let file = "layouts/test.yaml"

    /// A valid layout, one key per line, so every line number below is exact.
    static let base = [
        "name: test", //                       1
        "grid: { columns: 12, rows: 12 }", //  2
        "panes:", //                           3
        "  - id: 1", //                        4
        "    app: calendar", //                5
        "    x: 0", //                         6
        "    y: 0", //                         7
        "    width: 6", //                     8
        "    height: 12", //                   9
        "  - id: 2", //                        10
        "    app: eventlog", //                11
        "    x: 6", //                         12
        "    y: 0", //                         13
        "    width: 6", //                     14
        "    height: 12", //                   15
    ]

    /// Nine lists of nine aliases of the list before, the last used as a mapping key.
    static let billionLaughs = (["a: &a [x, x, x, x, x, x, x, x, x]"]
        + zip("abcdefgh", "bcdefghi").map { previous, name in "\(name): &\(name) [" + Array(repeating: "*\(previous)", count: 9).joined(separator: ", ") + "]" }
        + ["? *i", ": 1", "name: test", "panes: []"]).joined(separator: "\n") + "\n"

    static let paneKeys = "unknown key; expected one of app, config, height, id, state, width, x, y"

    static let cases: [ExpectedError] = [
        ExpectedError(label: "not YAML: a tab indents a line", text: "name: test\npanes:\n\t- id: 1\n", line: 3, field: "",
                      message: "not valid YAML: found character that cannot start any token"),
        ExpectedError(label: "not YAML: an unclosed flow mapping", text: text(replacing(base, line: 2, with: "grid: { columns: 12")),
                      line: 2, field: "", message: "not valid YAML: this { is not closed (did not find expected ',' or '}' at line 3)"),
        ExpectedError(label: "empty file", text: "", line: nil, field: "", message: "the file is empty"),
        // Composed, this would expand and hash 9^9 nodes: refused before, at the first alias.
        ExpectedError(label: "aliases: a billion laughs through keys", text: billionLaughs, line: 2, field: "",
                      message: "aliases (*name) are not allowed in this file; write the value out"),
        ExpectedError(label: "aliases: one harmless alias", text: text(base + ["  - &pane { id: 3, app: todo, x: 0, y: 0, width: 1, height: 1 }", "  - *pane"]),
                      line: 17, field: "", message: "aliases (*name) are not allowed in this file; write the value out"),
        ExpectedError(label: "only comments", text: "# nothing here\n\n", line: nil, field: "", message: "the file is empty"),
        ExpectedError(label: "root is a list", text: "- name: test\n- panes: []\n", line: 1, field: "",
                      message: "expected a mapping of keys to values"),
        ExpectedError(label: "root is text", text: "# a layout\njust words\n", line: 2, field: "",
                      message: "expected a mapping of keys to values"),
        ExpectedError(label: "missing name", text: text(removing(base, line: 1)), line: 1, field: "name", message: "is missing"),
        ExpectedError(label: "name is a list", text: text(replacing(base, line: 1, with: "name: [a, b]")), line: 1, field: "name",
                      message: "expected text"),
        ExpectedError(label: "missing panes", text: "name: test\ngrid: { columns: 12 }\n", line: 1, field: "panes",
                      message: "is missing"),
        ExpectedError(label: "panes not a list", text: "name: test\n\npanes: calendar\n", line: 3, field: "panes",
                      message: "expected a list"),
        ExpectedError(label: "pane not a mapping", text: "name: test\npanes:\n  - calendar\n", line: 3, field: "panes[0]",
                      message: "expected a mapping of keys to values"),
        ExpectedError(label: "pane missing width", text: text(removing(base, line: 8)), line: 4, field: "panes[0].width",
                      message: "is missing"),
        ExpectedError(label: "second pane missing app", text: text(removing(base, line: 11)), line: 10, field: "panes[1].app",
                      message: "is missing"),
        ExpectedError(label: "empty app", text: text(replacing(base, line: 11, with: "    app: \"\"")), line: 11,
                      field: "panes[1].app", message: "expected an app kind such as calendar"),
        ExpectedError(label: "width: wide", text: text(replacing(base, line: 8, with: "    width: wide")), line: 8,
                      field: "panes[0].width", message: "expected a whole number from 1 to 12, got 'wide'"),
        ExpectedError(label: "width: 2.5", text: text(replacing(base, line: 8, with: "    width: 2.5")), line: 8,
                      field: "panes[0].width", message: "expected a whole number from 1 to 12, got '2.5'"),
        ExpectedError(label: "height is a list", text: text(replacing(base, line: 15, with: "    height: [12]")), line: 15,
                      field: "panes[1].height", message: "expected a whole number from 1 to 12, got a list"),
        ExpectedError(label: "x: -1", text: text(replacing(base, line: 12, with: "    x: -1")), line: 12,
                      field: "panes[1].x", message: "expected a whole number from 0 to 11, got '-1'"),
        ExpectedError(label: "width 13 on a 12-column grid", text: text(replacing(base, line: 14, with: "    width: 13")), line: 14,
                      field: "panes[1].width", message: "expected a whole number from 1 to 12, got '13'"),
        ExpectedError(label: "id 0", text: text(replacing(base, line: 10, with: "  - id: 0")), line: 10,
                      field: "panes[1].id", message: "expected a whole number from 1 to 2147483647, got '0'"),
        ExpectedError(label: "typo widht", text: text(replacing(base, line: 8, with: "    widht: 6")), line: 8,
                      field: "panes[0].widht", message: paneKeys),
        ExpectedError(label: "unknown top-level key", text: text(inserting(base, "focussed: 1", asLine: 3)), line: 3,
                      field: "focussed", message: "unknown key; expected one of focused, grid, name, panes"),
        ExpectedError(label: "unknown grid key", text: text(replacing(base, line: 2, with: "grid: { columns: 12, colums: 12 }")),
                      line: 2, field: "grid.colums", message: "unknown key; expected one of columns, minHeight, minWidth, rows"),
        ExpectedError(label: "grid not a mapping", text: text(replacing(base, line: 2, with: "grid: 12x12")), line: 2,
                      field: "grid", message: "expected a mapping of keys to values"),
        ExpectedError(label: "grid too large", text: text(replacing(base, line: 2, with: "grid: { columns: 65 }")), line: 2,
                      field: "grid.columns", message: "expected a whole number from 1 to 64, got '65'"),
        ExpectedError(label: "minimum wider than the grid", text: text(replacing(base, line: 2, with: "grid: { columns: 12, minWidth: 13 }")),
                      line: 2, field: "grid.minWidth", message: "expected a whole number from 1 to 12, got '13'"),
        ExpectedError(label: "focused names no pane", text: text(inserting(base, "focused: 9", asLine: 3)), line: 3,
                      field: "focused", message: "no pane has id 9"),
        ExpectedError(label: "config not a mapping", text: text(inserting(base, "    config: monday", asLine: 10)), line: 10,
                      field: "panes[0].config", message: "expected a mapping of keys to values"),
        ExpectedError(label: "config value not text", text: text(inserting(base, "    state: { days: [1, 2] }", asLine: 16)),
                      line: 16, field: "panes[1].state.days", message: "expected text"),
        ExpectedError(label: "overlapping panes", text: text(replacing(base, line: 12, with: "    x: 5")), line: 10,
                      field: "panes[1]", message: "panes #2 and #1 overlap"),
        ExpectedError(label: "pane leaves the grid", text: text(replacing(base, line: 12, with: "    x: 7")), line: 10,
                      field: "panes[1]", message: "pane #2 at 7,0 6×12 lies outside the grid"),
        ExpectedError(label: "duplicate ids", text: text(replacing(base, line: 10, with: "  - id: 1")), line: 10,
                      field: "panes[1]", message: "pane id #1 is used twice"),
        ExpectedError(label: "pane below the minimum size", text: text(replacing(base, line: 8, with: "    width: 1")), line: 4,
                      field: "panes[0]", message: "pane #1 is smaller than the minimum 2×2"),
        ExpectedError(label: "duplicated key in a pane", text: text(inserting(base, "    x: 3", asLine: 10)), line: 6,
                      field: "x", message: "the key appears twice"),
        ExpectedError(label: "duplicated top-level key", text: text(inserting(base, "name: again", asLine: 3)), line: 1,
                      field: "name", message: "the key appears twice"),
    ]

    @Test func theBaseLayoutIsValid() throws {
        let layout = try LayoutFile.parse(text(Self.base), file: Self.file)
        #expect(layout.panes.map(\.frame) == [Rect(x: 0, y: 0, width: 6, height: 12), Rect(x: 6, y: 0, width: 6, height: 12)])
    }

    @Test(arguments: cases)
    func aMistakeIsReportedWhereItIs(_ expected: ExpectedError) {
        guard let error = fileError({ _ = try LayoutFile.parse(expected.text, file: Self.file) }) else { return }
        expected.check(error, file: Self.file)
    }
}
