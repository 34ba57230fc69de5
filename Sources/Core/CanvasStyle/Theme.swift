/// A named mapping from semantic roles to styles.
public struct Theme: Sendable, Hashable {
    public var name: String
    /// Each role's style, at its `ThemeRole.ordinal`; a role the theme leaves out is plain text
    /// (so a theme naming a role plain equals one leaving it out: both draw the same).
    private var styles: [Style]
    /// What 16-colour terminals show for some roles; the others are downsampled.
    private var styles16: [ThemeRole: Style]
    /// Whether colours are left out (`NO_COLOR`): a colour of the user's (a calendar's) too.
    public private(set) var isMonochrome = false

    public init(name: String, styles: [ThemeRole: Style], styles16: [ThemeRole: Style] = [:]) {
        self.name = name
        var table = Array(repeating: Style.plain, count: ThemeRole.allCases.count)
        for (role, style) in styles { table[role.ordinal] = style }
        self.styles = table
        self.styles16 = styles16
    }

    /// The theme as a 16-colour terminal shows it: the explicit fallbacks, and the nearest of
    /// the 16 colours for the rest.
    public var sixteenColors: Theme {
        var result = Theme(name: name, styles: [:])
        for role in ThemeRole.allCases {
            let style = styles16[role] ?? self[role]
            result[role] = Style(foreground: style.foreground.ansi16, background: style.background.ansi16,
                                 attributes: style.attributes)
        }
        return result
    }

    /// The style of a role; roles a theme leaves out fall back to plain text.
    public subscript(role: ThemeRole) -> Style {
        get { styles[role.ordinal] }
        set { styles[role.ordinal] = newValue }
    }

    /// The same theme with every colour removed, for `NO_COLOR`: attributes alone keep focus,
    /// selection and errors distinct.
    public var monochrome: Theme {
        var result = Theme(name: name, styles: [:])
        for role in ThemeRole.allCases {
            result[role] = Style(attributes: Self.monochromeAttributes[role] ?? [])
        }
        result.isMonochrome = true
        return result
    }

    /// `role`'s style in `colour` (a calendar's), unless colours are left out or there is none.
    public func style(_ role: ThemeRole, in colour: Color?) -> Style {
        guard let colour, !isMonochrome else { return self[role] }
        var style = self[role]
        style.foreground = colour
        return style
    }

    private static let monochromeAttributes: [ThemeRole: TextAttributes] = [
        .borderFocused: .bold, .borderArranging: [.bold, .reverse], .titleFocused: [.bold, .reverse],
        .title: .bold, .selection: .reverse, .selectionUnfocused: .underline, .today: [.bold, .underline],
        .heading: .bold, .statusBar: .reverse, .statusMode: .bold, .statusKey: [.bold, .reverse],
        .statusMessage: .reverse, .error: .bold, .warning: .bold, .muted: .dim, .accent: .bold, .overlayBorder: .bold,
    ]
}
