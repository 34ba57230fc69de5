/// A mouse action at a terminal cell.
public struct MouseEvent: Hashable, Sendable {
    public enum Action: Hashable, Sendable {
        case press, wheelUp, wheelDown
        /// The pointer moved with the button held.
        case drag
        case release
    }

    public var position: Point
    public var action: Action

    public init(_ action: Action, at position: Point) {
        self.action = action
        self.position = position
    }
}

/// Everything the terminal reports to the app loop.
public enum InputEvent: Hashable, Sendable {
    case key(Key)
    case mouse(MouseEvent)
    /// The terminal now has this many columns and rows.
    case resize(Size)
    /// Text the user pasted (bracketed paste): text for a text field, never keys that run
    /// commands; line breaks included, as `\n`.
    case paste(String)

    /// The event for a log line: a paste by its length only, as it may be a secret.
    public var logged: String {
        if case .paste(let text) = self { return "paste(\(text.count) characters)" }
        return "\(self)"
    }
}
