/// What a widget may read of the canvas's events: the log, and the last event of each name.
/// Publishing is not part of it: a widget returns the events it wants published
/// (`WidgetEffects`), and the canvas hands them to the widgets that listen.
@MainActor
public struct EventHistory {
    private let bus: EventBus

    public init(_ bus: EventBus) {
        self.bus = bus
    }

    /// The most recent events, oldest first.
    public var log: EventLog { bus.log }

    /// The last event of each name any of `patterns` matches, oldest first.
    public func latest(matching patterns: [EventPattern]) -> [CanvasEvent] {
        bus.latest(matching: patterns)
    }
}
