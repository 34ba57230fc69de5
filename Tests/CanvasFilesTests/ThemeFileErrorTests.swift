import CanvasStyle
import CanvasUI
@testable import CanvasFiles
import Testing

@Suite("Mistakes in theme files name the file, line and field")
struct ThemeFileErrorTests {
    static let file = "themes/test.yaml"

    static let base = [
        "name: test", //                                        1
        "roles:", //                                            2
        "  text: { fg: 252 }", //                               3
        "  accent: { fg: 75, attrs: [bold] }", //               4
        "colors16:", //                                         5
        "  accent: { fg: brightblue }", //                      6
    ]

    static let roleNames = ThemeRole.allCases.map(\.rawValue).joined(separator: ", ")
    static let colour = "expected a colour: 0 to 255, default, or a name such as red or brightblue"

    static let cases: [ExpectedError] = [
        ExpectedError(label: "an alias", text: text(replacing(base, line: 6, with: "  accent: *bright") + ["bright: &bright { fg: brightblue }"]), line: 6,
                      field: "", message: "aliases (*name) are not allowed in this file; write the value out"),
        ExpectedError(label: "unknown role", text: text(replacing(base, line: 4, with: "  acent: { fg: 75 }")), line: 4,
                      field: "roles.acent", message: "unknown role; expected one of \(roleNames)"),
        ExpectedError(label: "unknown role in colors16", text: text(replacing(base, line: 6, with: "  Accent: { fg: red }")), line: 6,
                      field: "colors16.Accent", message: "unknown role; expected one of \(roleNames)"),
        ExpectedError(label: "fg: 300", text: text(replacing(base, line: 3, with: "  text: { fg: 300 }")), line: 3,
                      field: "roles.text.fg", message: "\(colour); got '300'"),
        ExpectedError(label: "fg: -1", text: text(replacing(base, line: 3, with: "  text: { fg: -1 }")), line: 3,
                      field: "roles.text.fg", message: "\(colour); got '-1'"),
        ExpectedError(label: "fg: pink", text: text(replacing(base, line: 3, with: "  text: { fg: pink }")), line: 3,
                      field: "roles.text.fg", message: "\(colour); got 'pink'"),
        ExpectedError(label: "bg: bright", text: text(replacing(base, line: 4, with: "  accent: { bg: bright }")), line: 4,
                      field: "roles.accent.bg", message: "\(colour); got 'bright'"),
        ExpectedError(label: "bg: Red", text: text(replacing(base, line: 6, with: "  accent: { bg: Red }")), line: 6,
                      field: "colors16.accent.bg", message: "\(colour); got 'Red'"),
        ExpectedError(label: "fg is a list", text: text(replacing(base, line: 3, with: "  text: { fg: [1] }")), line: 3,
                      field: "roles.text.fg", message: "expected text"),
        ExpectedError(label: "unknown attribute", text: text(replacing(base, line: 4, with: "  accent: { fg: 75, attrs: [bold, blink] }")),
                      line: 4, field: "roles.accent.attrs",
                      message: "unknown attribute 'blink'; expected bold, dim, italic, reverse, underline"),
        ExpectedError(label: "attrs not a list", text: text(replacing(base, line: 4, with: "  accent: { attrs: bold }")), line: 4,
                      field: "roles.accent.attrs", message: "expected a list"),
        ExpectedError(label: "unknown style key", text: text(replacing(base, line: 3, with: "  text: { fg: 252, fgcolor: 1 }")),
                      line: 3, field: "roles.text.fgcolor", message: "unknown key; expected one of attrs, bg, fg"),
        ExpectedError(label: "style not a mapping", text: text(replacing(base, line: 3, with: "  text: 252")), line: 3,
                      field: "roles.text", message: "expected a mapping of keys to values"),
        ExpectedError(label: "missing roles", text: "name: test\ncolors16: {}\n", line: 1, field: "roles", message: "is missing"),
        ExpectedError(label: "roles not a mapping", text: "name: test\nroles: [text]\n", line: 2, field: "roles",
                      message: "expected a mapping of keys to values"),
        ExpectedError(label: "missing name", text: text(removing(base, line: 1)), line: 1, field: "name", message: "is missing"),
        ExpectedError(label: "unknown top-level key", text: text(inserting(base, "colours16: {}", asLine: 5)), line: 5,
                      field: "colours16", message: "unknown key; expected one of colors16, description, name, roles"),
        ExpectedError(label: "duplicated role", text: text(inserting(base, "  text: { fg: 1 }", asLine: 4)), line: 3,
                      field: "text", message: "the key appears twice"),
        ExpectedError(label: "empty file", text: "\n", line: nil, field: "", message: "the file is empty"),
        ExpectedError(label: "not YAML", text: "name: test\nroles: {\n  text: { fg: 1 }\n", line: 2, field: "",
                      message: "not valid YAML: this { is not closed (did not find expected ',' or '}' at line 4)"),
    ]

    @Test func theBaseThemeIsValid() throws {
        let theme = try ThemeFile.parse(text(Self.base), file: Self.file)
        #expect(theme == Theme(name: "test",
                               styles: [.text: Style(foreground: .palette(252)), .accent: Style(foreground: .palette(75), attributes: .bold)],
                               styles16: [.accent: Style(foreground: .ansi(12))]))
    }

    @Test(arguments: cases)
    func aMistakeIsReportedWhereItIs(_ expected: ExpectedError) {
        guard let error = fileError({ _ = try ThemeFile.parse(expected.text, file: Self.file) }) else { return }
        expected.check(error, file: Self.file)
    }
}
