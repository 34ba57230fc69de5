/// The semantic roles a theme styles; widgets and chrome name roles, never raw colours.
public enum ThemeRole: String, CaseIterable, Sendable, Codable {
    case text, muted, accent
    case border, borderFocused, borderArranging
    case title, titleFocused
    case selection, selectionUnfocused, today, heading
    case statusBar, statusMode, statusKey, statusMessage
    case overlay, overlayBorder
    case error, warning, success
}

extension ThemeRole {
    /// Its place in `allCases`. A theme keeps its styles in a table in that order: a lookup keyed
    /// by the role itself hashes its raw string, and a frame looks up dozens of styles.
    var ordinal: Int {
        switch self {
        case .text: 0
        case .muted: 1
        case .accent: 2
        case .border: 3
        case .borderFocused: 4
        case .borderArranging: 5
        case .title: 6
        case .titleFocused: 7
        case .selection: 8
        case .selectionUnfocused: 9
        case .today: 10
        case .heading: 11
        case .statusBar: 12
        case .statusMode: 13
        case .statusKey: 14
        case .statusMessage: 15
        case .overlay: 16
        case .overlayBorder: 17
        case .error: 18
        case .warning: 19
        case .success: 20
        }
    }
}
