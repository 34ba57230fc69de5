import CanvasCore

/// Where a command applies.
public enum CommandContext: Hashable, Sendable {
    /// In normal and arrange mode alike.
    case canvas
    case normal
    case arrange
    /// In normal mode, while a pane of this kind has the focus.
    case widget(AppKind)
    /// In normal mode, while the pane of any micro-app (one added without a build) has the focus.
    case microApp

    /// True when a key could mean a command of either context at the same moment, so one key
    /// must not be bound in both.
    public func overlaps(_ other: CommandContext) -> Bool {
        switch (self, other) {
        case (.canvas, _), (_, .canvas): true
        case (.normal, .widget), (.widget, .normal), (.normal, .microApp), (.microApp, .normal): true
        case (.microApp, .widget), (.widget, .microApp): true
        default: self == other
        }
    }
}

/// One thing the user can do, with the keys it has unless a key map says otherwise.
public struct Command: Hashable, Sendable {
    public let id: CommandID
    /// What the help and the palette call it, e.g. "Save the layout under a name".
    public let title: String
    public let context: CommandContext
    public let defaultKeys: [Key]
    /// The status bar's word for it, e.g. "help"; nil keeps it out of the hints.
    public let hint: String?
    /// Its keys act even while a text field has the focus, before the field sees them; only
    /// keys that type nothing (Ctrl, Alt, Tab, F-keys) do.
    public let whileTyping: Bool

    public init(_ id: CommandID, _ title: String, in context: CommandContext, keys: [Key], hint: String? = nil, whileTyping: Bool = false) {
        self.id = id
        self.title = title
        self.context = context
        self.defaultKeys = keys
        self.hint = hint
        self.whileTyping = whileTyping
    }
}
