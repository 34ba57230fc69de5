import CanvasCore
import Foundation
import Logging

/// What a widget gets when it is mounted: its pane, the bus, a clock and a logger.
@MainActor
public struct WidgetContext {
    public let pane: PaneID
    public let bus: EventBus
    public let clock: CanvasClock
    public let logger: Logger

    public init(pane: PaneID, bus: EventBus, clock: CanvasClock, logger: Logger) {
        self.pane = pane
        self.bus = bus
        self.clock = clock
        self.logger = logger
    }

    /// Publishes an event with this pane as its source.
    public func publish(_ event: any BusEvent) {
        bus.publish(event, from: pane)
    }
}
