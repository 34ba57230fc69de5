import CanvasCore
import FoundationEssentials
import Logging

/// What a widget gets when it is mounted: its pane, the canvas's events so far (to read; events
/// a widget wants published it returns), a clock, a logger, and a way for work it started
/// elsewhere to reach it.
@MainActor
public struct WidgetContext {
    public let pane: PaneID
    public let events: EventHistory
    public let clock: CanvasClock
    public let logger: Logger
    /// Callable from any thread: the widget's `notified()` runs on the main actor soon after,
    /// through the same loop as keys.
    public let notify: @Sendable () -> Void

    public init(pane: PaneID, bus: EventBus, clock: CanvasClock, logger: Logger, notify: @escaping @Sendable () -> Void = {}) {
        self.pane = pane
        self.events = EventHistory(bus)
        self.clock = clock
        self.logger = logger
        self.notify = notify
    }
}
