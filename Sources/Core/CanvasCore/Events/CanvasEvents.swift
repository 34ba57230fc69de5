/// A listener threw while handling `event`; published by the bus itself.
public struct ListenerFailed: BusEvent, Hashable {
    public static let name: EventName = "canvas.listener.failed"
    public let event: EventName
    public let pattern: String
    public let error: String

    public init(event: EventName, pattern: String, error: String) {
        self.event = event
        self.pattern = pattern
        self.error = error
    }

    /// Listeners kept publishing past `EventCascade.limit`: the rest of the cascade was dropped.
    public static func overflow(dropped: Int) -> ListenerFailed {
        ListenerFailed(event: "canvas.bus.overflow", pattern: "*", error: "listeners kept publishing; dropped \(dropped) events")
    }

    public var summary: String { "listener for \(pattern) failed on \(event): \(error)" }
}

/// The arrangement changed (move, resize, add, remove, undo, redo, load).
public struct LayoutChanged: BusEvent, Hashable {
    public static let name: EventName = "canvas.layout.changed"
    public let step: String

    public init(step: String) { self.step = step }

    public var summary: String { step }
}

/// A pane gained focus.
public struct PaneFocused: BusEvent, Hashable {
    public static let name: EventName = "canvas.pane.focused"
    public let pane: PaneID
    public let title: String

    public init(pane: PaneID, title: String) {
        self.pane = pane
        self.title = title
    }

    public var summary: String { title }
}
