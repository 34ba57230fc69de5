import CanvasCore

/// What the canvas host is doing, which decides how keys are read and what the status bar shows.
public enum HostMode: Equatable, Sendable {
    case normal
    /// Moving, resizing, adding and removing panes.
    case arrange
    /// The help overlay, over the mode it returns to.
    case help(over: BaseMode)
    /// The widget catalog (arrange mode `a`), with the highlighted entry.
    case catalog(selected: Int)
    /// Asking before removing a pane (arrange mode `x`).
    case confirmRemove(PaneID)
    /// The focused widget's settings (arrange mode `s`), with the highlighted entry.
    case settings(selected: Int)
    /// Asking for a name to save the layout under (Ctrl-S).
    case savePrompt(TextField)
    /// Choosing a layout to load, delete or rename (Ctrl-O).
    case layoutPicker(LayoutPicker)
    /// Choosing a theme with live preview (Ctrl-T).
    case themePicker(ThemePicker)
    /// Quitting: the layout is being saved (`failure` nil), or saving it failed and the user
    /// chooses between quitting without saving (q) and staying (Esc, back to `over`).
    case quitting(failure: String?, over: BaseMode)

    public enum BaseMode: Equatable, Sendable {
        case normal, arrange
    }

    /// The mode under any overlay.
    public var base: BaseMode {
        switch self {
        case .normal, .savePrompt, .layoutPicker, .themePicker: .normal
        case .help(let over), .quitting(_, let over): over
        case .arrange, .catalog, .confirmRemove, .settings: .arrange
        }
    }
}
