import ServerAPI
import Synchronization

/// Fans committed events out to the connected `/api/events` streams, each seeing only what its
/// user may see: their own todo and calendar changes and every chat event.
///
/// `publish` is synchronous and called from the database writer right after each commit (see
/// `BFFStore.record`), so subscribers receive events in commit order. Those that keep copies of
/// what a commit makes stale (the todo list's page cache) hear of it first (`observeCommits`), so
/// a client told of a change never reads a copy from before it. A subscriber that falls more
/// than `bufferLimit` events behind is cut off; its client reconnects with `Last-Event-ID` and
/// replays the rest from the database, so a slow client never holds memory or other clients back.
package final class LiveEventHub: Sendable {
    /// An event with who may see it: one user, or everyone when `ownerID` is nil.
    struct Published: Sendable {
        let event: LiveEvent
        let ownerID: Int64?
    }

    /// What a subscriber's stream carries.
    package enum Item: Sendable {
        case event(LiveEvent)
        /// A keep-alive tick, so idle connections show they are alive and dead ones are noticed.
        case heartbeat
    }

    /// One connected stream: its items, and a way to end it early. It also ends when the last
    /// copy of it goes away, so a stream whose response never started (the client left before
    /// its head was written) still frees its place under the caps.
    package struct Subscription: Sendable {
        package let items: AsyncStream<Item>
        private let ending: Ending

        fileprivate init(items: AsyncStream<Item>, continuation: AsyncStream<Item>.Continuation) {
            self.items = items
            ending = Ending(continuation: continuation)
        }

        /// Ends the stream (the server is shutting down); the consumer's loop finishes.
        package func end() { ending.continuation.finish() }
    }

    /// Finishes a subscription's stream when the subscription is dropped.
    private final class Ending: Sendable {
        let continuation: AsyncStream<Item>.Continuation

        init(continuation: AsyncStream<Item>.Continuation) {
            self.continuation = continuation
        }

        deinit { continuation.finish() }
    }

    private struct Subscriber {
        let key: Int
        let userID: Int64
        let continuation: AsyncStream<Item>.Continuation
    }

    /// The subscribers, as arrays that `publish` copies under the lock in O(1) (copy on write) and
    /// walks outside it, so a fan-out to thousands never holds the lock; subscribing and leaving,
    /// which are rare, pay for the copies instead.
    private struct State {
        var everyone: [Subscriber] = []
        var byUser: [Int64: [Subscriber]] = [:]
        var nextKey = 0
        var isShutDown = false
    }

    /// How many live streams may be open at once: each holds a connection and a buffer.
    package struct StreamLimits: Sendable, Equatable {
        package var perUser: Int
        package var total: Int

        package init(perUser: Int = 8, total: Int = 1000) {
            self.perUser = perUser
            self.total = total
        }
    }

    /// A stream past `limits`.
    package struct TooManyStreams: Error {}

    private let state = Mutex(State())
    private let observers = Mutex<[@Sendable (CommittedChange) -> Void]>([])
    let bufferLimit: Int
    package let limits: StreamLimits

    package init(bufferLimit: Int = 1024, limits: StreamLimits = StreamLimits()) {
        self.bufferLimit = bufferLimit
        self.limits = limits
    }

    /// The number of connected streams.
    package var subscriberCount: Int { state.withLock { $0.everyone.count } }

    /// A stream of the events `userID` may see, from now on; it ends when the hub shuts down, the
    /// subscriber falls too far behind, or the stream's consumer goes away.
    /// - Throws: `TooManyStreams` when the user, or everyone together, has as many open as `limits` allow.
    package func subscribe(userID: Int64) throws(TooManyStreams) -> Subscription {
        let (stream, continuation) = AsyncStream.makeStream(of: Item.self, bufferingPolicy: .bufferingOldest(bufferLimit))
        let outcome: Result<Int?, TooManyStreams> = state.withLock { state in
            guard !state.isShutDown else { return .success(nil) }
            guard state.everyone.count < limits.total, state.byUser[userID, default: []].count < limits.perUser else {
                return .failure(TooManyStreams())
            }
            defer { state.nextKey += 1 }
            let subscriber = Subscriber(key: state.nextKey, userID: userID, continuation: continuation)
            state.everyone.append(subscriber)
            state.byUser[userID, default: []].append(subscriber)
            return .success(state.nextKey)
        }
        let subscription = Subscription(items: stream, continuation: continuation)
        guard let key = try outcome.get() else {
            subscription.end()
            return subscription
        }
        continuation.onTermination = { [weak self] _ in
            self?.state.withLock { state in
                state.everyone.removeAll { $0.key == key }
                state.byUser[userID]?.removeAll { $0.key == key }
                if state.byUser[userID]?.isEmpty == true { state.byUser[userID] = nil }
            }
        }
        return subscription
    }

    /// Adds `observer`, told of every commit before any stream hears of it. Observers are added
    /// while the server is built and stay as long as the hub.
    package func observeCommits(_ observer: @escaping @Sendable (CommittedChange) -> Void) {
        observers.withLock { $0.append(observer) }
    }

    /// Tells the observers of a commit (`publish` does it for the events it hands out; an engine
    /// for what it commits before it publishes, or for what it may have missed).
    func committed(_ change: CommittedChange) {
        for observer in observers.withLock({ $0 }) { observer(change) }
    }

    /// Hands the event to every subscriber allowed to see it: its owner's streams, or everyone's,
    /// once the observers of commits have heard of it.
    func publish(_ published: Published) {
        committed(.event(name: published.event.name, owner: published.ownerID))
        let targets = state.withLock { state in
            published.ownerID.map { state.byUser[$0] ?? [] } ?? state.everyone
        }
        send(.event(published.event), to: targets)
    }

    /// Sends a keep-alive tick to every subscriber.
    package func heartbeat() {
        send(.heartbeat, to: state.withLock { $0.everyone })
    }

    /// Ends every stream and refuses new ones: the server is shutting down.
    package func shutDown() {
        let subscribers = state.withLock { state in
            state.isShutDown = true
            defer {
                state.everyone.removeAll()
                state.byUser.removeAll()
            }
            return state.everyone
        }
        for subscriber in subscribers { subscriber.continuation.finish() }
    }

    /// Yields outside the lock: the `onTermination` of a stream finished here takes it again.
    private func send(_ item: Item, to subscribers: [Subscriber]) {
        for subscriber in subscribers {
            if case .dropped = subscriber.continuation.yield(item) { subscriber.continuation.finish() }
        }
    }
}
