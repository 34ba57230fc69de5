import CanvasStyle
import CanvasUI
@testable import CanvasFiles
import Testing

@Suite("Reading theme files")
struct ThemeFileTests {
    static let paper = """
        # A light theme.
        name: paper
        description: Dark text on a light background.
        roles:
          text: { fg: 235 }
          muted: { fg: 8 }
          accent: { fg: brightblue, attrs: [bold, underline] }
          border: { fg: default, bg: 7 }
          titleFocused: { fg: black, bg: 75, attrs: [bold] }
          error:
            fg: red
            attrs: [bold, dim, italic, underline, reverse]
          success: {}
        colors16:
          titleFocused: { fg: white, bg: blue, attrs: [reverse] }
          text: { fg: brightwhite }

        """

    static let expected = Theme(
        name: "paper",
        styles: [
            .text: Style(foreground: .palette(235)),
            .muted: Style(foreground: .palette(8)),
            .accent: Style(foreground: .ansi(12), attributes: [.bold, .underline]),
            .border: Style(foreground: .default, background: .palette(7)),
            .titleFocused: Style(foreground: .ansi(0), background: .palette(75), attributes: .bold),
            .error: Style(foreground: .ansi(1), attributes: [.bold, .dim, .italic, .underline, .reverse]),
            .success: Style(),
        ],
        styles16: [
            .titleFocused: Style(foreground: .ansi(7), background: .ansi(4), attributes: .reverse),
            .text: Style(foreground: .ansi(15)),
        ]
    )

    @Test func aThemeWithNumbersNamesDefaultAndAttributes() throws {
        let theme = try ThemeFile.parse(Self.paper, file: "themes/paper.yaml")
        #expect(theme == Self.expected)
        #expect(theme.name == "paper")
        #expect(theme[.accent] == Style(foreground: .ansi(12), attributes: [.bold, .underline]))
        #expect(theme[.border].background == .palette(7))
        // Roles the file leaves out are plain text.
        #expect(theme[.heading] == .plain)
    }

    @Test func everyRoleKeepsAStyleOfItsOwn() throws {
        let file = "name: t\nroles:\n" + ThemeRole.allCases.enumerated().map { "  \($1.rawValue): { fg: \($0) }\n" }.joined()
        let theme = try ThemeFile.parse(file, file: "t.yaml")
        for (index, role) in ThemeRole.allCases.enumerated() {
            #expect(theme[role] == Style(foreground: .palette(UInt8(index))), "\(role)")
        }
    }

    @Test func everyColourNameMapsToItsANSINumber() throws {
        let names = ["black", "red", "green", "yellow", "blue", "magenta", "cyan", "white"]
        for (index, name) in names.enumerated() {
            for (prefix, offset) in [("", 0), ("bright", 8)] {
                let theme = try ThemeFile.parse("name: t\nroles:\n  text: { fg: \(prefix)\(name), bg: \(index + offset) }\n", file: "t.yaml")
                #expect(theme[.text] == Style(foreground: .ansi(UInt8(index + offset)), background: .palette(UInt8(index + offset))),
                        "\(prefix)\(name)")
            }
        }
        let edges = try ThemeFile.parse("name: t\nroles:\n  text: { fg: 0, bg: 255 }\n", file: "t.yaml")
        #expect(edges[.text] == Style(foreground: .palette(0), background: .palette(255)))
    }

    @Test func colors16OverridesApplyInTheSixteenColourThemeAndOtherRolesAreDownsampled() throws {
        let sixteen = try ThemeFile.parse(Self.paper, file: "themes/paper.yaml").sixteenColors
        // Explicit choices win over downsampling.
        #expect(sixteen[.titleFocused] == Style(foreground: .ansi(7), background: .ansi(4), attributes: .reverse))
        #expect(sixteen[.text] == Style(foreground: .ansi(15)))
        // The rest: the nearest of the 16 colours, attributes kept.
        #expect(sixteen[.muted] == Style(foreground: .ansi(8)))
        #expect(sixteen[.accent] == Style(foreground: .ansi(12), attributes: [.bold, .underline]))
        #expect(sixteen[.border] == Style(foreground: .default, background: .ansi(7)))
        #expect(sixteen[.error] == Style(foreground: .ansi(1), attributes: [.bold, .dim, .italic, .underline, .reverse]))
        #expect(sixteen[.heading] == .plain)
        // Without the override, text (palette 235, a near-black grey) would have become black.
        #expect(Color.palette(235).ansi16 == .ansi(0))
        // The full-colour theme is unchanged by the overrides.
        let theme = try ThemeFile.parse(Self.paper, file: "themes/paper.yaml")
        #expect(theme[.titleFocused] == Style(foreground: .ansi(0), background: .palette(75), attributes: .bold))
        // Every colour of the 16-colour theme is one of the 16 (or the default).
        for role in ThemeRole.allCases {
            for color in [sixteen[role].foreground, sixteen[role].background] {
                if case .palette = color { Issue.record("\(role) keeps a palette colour \(color)") }
            }
        }
    }
}
