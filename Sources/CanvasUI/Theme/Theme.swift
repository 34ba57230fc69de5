/// A named mapping from semantic roles to styles.
public struct Theme: Sendable, Hashable {
    public var name: String
    private var styles: [ThemeRole: Style]

    public init(name: String, styles: [ThemeRole: Style]) {
        self.name = name
        self.styles = styles
    }

    /// The style of a role; roles a theme leaves out fall back to plain text.
    public subscript(role: ThemeRole) -> Style {
        get { styles[role] ?? .plain }
        set { styles[role] = newValue }
    }

    /// The same theme with every colour removed, for `NO_COLOR`: attributes alone keep focus,
    /// selection and errors distinct.
    public var monochrome: Theme {
        var result = Theme(name: name, styles: [:])
        for role in ThemeRole.allCases {
            result[role] = Style(attributes: Self.monochromeAttributes[role] ?? [])
        }
        return result
    }

    private static let monochromeAttributes: [ThemeRole: TextAttributes] = [
        .borderFocused: .bold, .borderArranging: [.bold, .reverse], .titleFocused: [.bold, .reverse],
        .title: .bold, .selection: .reverse, .selectionUnfocused: .underline, .today: [.bold, .underline],
        .heading: .bold, .statusBar: .reverse, .statusMode: .bold, .statusKey: [.bold, .reverse],
        .statusMessage: .reverse, .error: .bold, .warning: .bold, .muted: .dim, .accent: .bold, .overlayBorder: .bold,
    ]
}
