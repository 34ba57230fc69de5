/// A bounded log of recent events, oldest first.
public struct EventLog: Sendable {
    public let capacity: Int
    private var storage: [CanvasEvent] = []
    private var start = 0

    public init(capacity: Int) {
        self.capacity = max(1, capacity)
        storage.reserveCapacity(self.capacity)
    }

    public var count: Int { storage.count }

    /// The logged events in publish order.
    public var events: [CanvasEvent] {
        Array(storage[start...] + storage[..<start])
    }

    mutating func append(_ event: CanvasEvent) {
        if storage.count < capacity {
            storage.append(event)
        } else {
            storage[start] = event
            start = (start + 1) % capacity
        }
    }
}
