/// Events waiting to be handed out, oldest first, those raised while one is handed out queued
/// after it: the bus's delivery and the canvas's to its widgets walk one each with `next()`.
/// Listeners that raise an event on every event they hear would cascade forever: past
/// `limit` events in one cascade, the rest are let go and counted.
public struct EventCascade {
    public enum Step {
        case deliver(CanvasEvent)
        /// The cascade went past its limit: this many events were let go.
        case overflow(dropped: Int)
    }

    /// How many events one publish may cascade into before the rest are let go.
    public static let limit = 10_000

    private var queue: [CanvasEvent] = []
    private var index = 0

    public init() {}

    public mutating func append(_ event: CanvasEvent) {
        queue.append(event)
    }

    /// The next event to hand out, or the overflow that ends the cascade; nil once none waits.
    public mutating func next() -> Step? {
        guard index < queue.count else {
            queue.removeAll(keepingCapacity: true)
            index = 0
            return nil
        }
        guard index < Self.limit else {
            let dropped = queue.count - index
            queue.removeAll(keepingCapacity: true)
            index = 0
            return .overflow(dropped: dropped)
        }
        defer { index += 1 }
        return .deliver(queue[index])
    }
}
