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
}
