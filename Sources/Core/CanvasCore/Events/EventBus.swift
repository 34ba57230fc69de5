import FoundationEssentials

/// The in-process canvas event bus: typed events, pattern subscriptions, publish-order delivery
/// on the main actor, isolation of failing listeners, and a bounded log. The canvas publishes
/// here and hands each event to its own widgets itself (`HostState`); the bus's subscribers are
/// the listeners outside the canvas (the dashboard's), and widgets read the log through
/// `EventHistory`.
@MainActor
public final class EventBus {
    public typealias Listener = @MainActor (CanvasEvent) throws -> Void

    private struct Entry {
        let id: Int
        let pattern: EventPattern
        let listener: Listener
    }

    private var entries: [Entry] = []
    private var nextSubscriptionID = 1
    private var nextSequence = 1
    private var pending = EventCascade()
    private var isDelivering = false
    private let now: @Sendable () -> Date

    /// The most recent events, oldest first.
    public private(set) var log: EventLog
    /// The last event of each name, however long ago (at most `latestKept` names, the oldest let
    /// go first): what a pane that starts later is told the canvas already knows.
    private var latestByName: [EventName: CanvasEvent] = [:]
    public static let latestKept = 256

    /// - Parameters:
    ///   - logCapacity: how many events the log keeps.
    ///   - now: the clock that stamps events (fixed in tests).
    public init(logCapacity: Int = 500, now: @escaping @Sendable () -> Date = { Date() }) {
        self.log = EventLog(capacity: logCapacity)
        self.now = now
    }

    public var subscriberCount: Int { entries.count }

    /// The last event of each name any of `patterns` matches, oldest first.
    public func latest(matching patterns: [EventPattern]) -> [CanvasEvent] {
        latestByName.values.filter { event in patterns.contains { $0.matches(event.name) } }.sorted { $0.sequence < $1.sequence }
    }

    private func remember(_ event: CanvasEvent) {
        latestByName[event.name] = event
        guard latestByName.count > Self.latestKept, let oldest = latestByName.values.min(by: { $0.sequence < $1.sequence }) else { return }
        latestByName[oldest.name] = nil
    }

    /// Publishes an event. Listeners run in publish order: an event published by a listener is
    /// delivered after the current one has reached every listener.
    /// - Returns: the event as logged, numbered and stamped.
    @discardableResult
    public func publish(_ payload: any BusEvent, from source: PaneID? = nil) -> CanvasEvent {
        let event = CanvasEvent(sequence: nextSequence, source: source, time: now(), payload: payload)
        nextSequence += 1
        log.append(event)
        remember(event)
        pending.append(event)
        if !isDelivering { deliverPending() }
        return event
    }

    /// Runs `body` with delivery held: events it publishes are delivered, in order, once it returns.
    ///
    /// The canvas handles every message in this, so that listeners outside it (which may read
    /// the canvas) hear its events once it is updated.
    public func holdingDelivery<T>(_ body: () throws -> T) rethrows -> T {
        guard !isDelivering else { return try body() }
        isDelivering = true
        defer { deliverPending() }
        return try body()
    }

    private func deliverPending() {
        isDelivering = true
        defer { isDelivering = false }
        while let step = pending.next() {
            switch step {
            case .deliver(let event):
                deliver(event)
            case .overflow(let dropped):
                log.append(CanvasEvent(sequence: nextSequence, source: nil, time: now(), payload: ListenerFailed.overflow(dropped: dropped)))
                nextSequence += 1
            }
        }
    }

    /// Subscribes to every event matching `pattern`.
    /// - Returns: a handle; cancelling it (or `unsubscribe`) stops delivery.
    @discardableResult
    public func subscribe(_ pattern: EventPattern, _ listener: @escaping Listener) -> Subscription {
        let id = nextSubscriptionID
        nextSubscriptionID += 1
        entries.append(Entry(id: id, pattern: pattern, listener: listener))
        return Subscription(id: id, bus: self)
    }

    /// Subscribes to one event type, receiving its typed payload.
    @discardableResult
    public func subscribe<E: BusEvent>(
        to type: E.Type, _ listener: @escaping @MainActor (E, CanvasEvent) throws -> Void
    ) -> Subscription {
        subscribe(.exact(E.name)) { event in
            if let payload = event.payload(as: E.self) { try listener(payload, event) }
        }
    }

    public func unsubscribe(_ subscription: Subscription) {
        entries.removeAll { $0.id == subscription.id }
    }

    private func deliver(_ event: CanvasEvent) {
        // A snapshot: listeners added while delivering start with the next event.
        for entry in entries where entry.pattern.matches(event.name) {
            guard entries.contains(where: { $0.id == entry.id }) else { continue }  // cancelled meanwhile
            do {
                try entry.listener(event)
            } catch {
                // Never report a failure to handle a failure report: that could loop forever.
                guard event.name != ListenerFailed.name else { continue }
                publish(ListenerFailed(event: event.name, pattern: entry.pattern.description, error: "\(error)"))
            }
        }
    }
}

/// A handle to a subscription; `cancel()` stops delivery. Cancelling twice is harmless.
@MainActor
public final class Subscription {
    let id: Int
    private weak var bus: EventBus?

    init(id: Int, bus: EventBus) {
        self.id = id
        self.bus = bus
    }

    public func cancel() {
        bus?.unsubscribe(self)
        bus = nil
    }
}
