import MicroAppAPI
import Synchronization

/// Fans committed events out to the connected `/api/events` streams, each seeing only what its
/// user may see: their own todo and calendar changes and every chat event.
///
/// `publish` is synchronous and called from the database writer right after each commit (see
/// `BFFStore.record`), so subscribers receive events in commit order. A subscriber that falls more
/// than `bufferLimit` events behind is cut off; its client reconnects with `Last-Event-ID` and
/// replays the rest from the database, so a slow client never holds memory or other clients back.
public final class LiveEventHub: Sendable {
    /// An event with who may see it: one user, or everyone when `ownerID` is nil.
    struct Published: Sendable {
        let event: LiveEvent
        let ownerID: Int64?

        func isVisible(to userID: Int64) -> Bool { ownerID == nil || ownerID == userID }
    }

    /// What a subscriber's stream carries.
    enum Item: Sendable {
        case event(LiveEvent)
        /// A keep-alive tick, so idle connections show they are alive and dead ones are noticed.
        case heartbeat
    }

    /// One connected stream: its items, and a way to end it early.
    struct Subscription: Sendable {
        let items: AsyncStream<Item>
        fileprivate let continuation: AsyncStream<Item>.Continuation

        /// Ends the stream (the server is shutting down); the consumer's loop finishes.
        func end() { continuation.finish() }
    }

    private struct Subscriber {
        let userID: Int64
        let continuation: AsyncStream<Item>.Continuation
    }

    private struct State {
        var subscribers: [Int: Subscriber] = [:]
        var nextKey = 0
        var isShutDown = false
    }

    private let state = Mutex(State())
    let bufferLimit: Int

    public init(bufferLimit: Int = 1024) {
        self.bufferLimit = bufferLimit
    }

    /// The number of connected streams.
    public var subscriberCount: Int { state.withLock { $0.subscribers.count } }

    /// A stream of the events `userID` may see, from now on; it ends when the hub shuts down, the
    /// subscriber falls too far behind, or the stream's consumer goes away.
    func subscribe(userID: Int64) -> Subscription {
        let (stream, continuation) = AsyncStream.makeStream(of: Item.self, bufferingPolicy: .bufferingOldest(bufferLimit))
        let key: Int? = state.withLock { state in
            guard !state.isShutDown else { return nil }
            defer { state.nextKey += 1 }
            state.subscribers[state.nextKey] = Subscriber(userID: userID, continuation: continuation)
            return state.nextKey
        }
        let subscription = Subscription(items: stream, continuation: continuation)
        guard let key else {
            subscription.end()
            return subscription
        }
        continuation.onTermination = { [weak self] _ in
            self?.state.withLock { _ = $0.subscribers.removeValue(forKey: key) }
        }
        return subscription
    }

    /// Hands the event to every subscriber allowed to see it.
    func publish(_ published: Published) {
        send { userID in published.isVisible(to: userID) ? .event(published.event) : nil }
    }

    /// Sends a keep-alive tick to every subscriber.
    func heartbeat() {
        send { _ in .heartbeat }
    }

    /// Ends every stream and refuses new ones: the server is shutting down.
    func shutDown() {
        let continuations = state.withLock { state in
            state.isShutDown = true
            defer { state.subscribers.removeAll() }
            return state.subscribers.values.map(\.continuation)
        }
        for continuation in continuations { continuation.finish() }
    }

    private func send(_ item: (Int64) -> Item?) {
        // Yield outside the lock: the `onTermination` of a stream finished here takes it again.
        let targets = state.withLock { state in
            state.subscribers.values.compactMap { subscriber in item(subscriber.userID).map { (subscriber.continuation, $0) } }
        }
        for (continuation, item) in targets {
            if case .dropped = continuation.yield(item) { continuation.finish() }
        }
    }
}
