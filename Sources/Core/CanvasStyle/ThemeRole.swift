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
