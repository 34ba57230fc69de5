import CalendarTime
import Foundation
import ServerAPI
import ServerStore
import Synchronization

/// Subscriptions made and read again: the address made one the server reads, the file read, its
/// events kept, and when to read it next (the file's wish within
/// `CalendarCollectionLimits.refreshSeconds`, an hour when it has none or could not be read).
///
/// A user's readings asked for (a new subscription, a reading now) go `readsPerUser` at a time:
/// each makes the server call out, so no one can make it call the world as fast as they ask.
package final class CalendarSubscriptions: Sendable {
    let store: BFFStore
    let reader: CalendarFeedReader
    let clock: @Sendable () -> Date
    private let reading = Mutex<[Int64: Int]>([:])

    package static let readsPerUser = 2

    package init(store: BFFStore, reader: CalendarFeedReader, clock: @escaping @Sendable () -> Date) {
        self.store = store
        self.reader = reader
        self.clock = clock
    }

    /// Runs `body`, one of `owner`'s asked-for readings.
    /// - Throws: `SubscriptionsBusy` when `readsPerUser` of theirs are under way.
    package func asked<T>(by owner: Int64, _ body: () async throws -> T) async throws -> T {
        let admitted = reading.withLock { counts in
            guard counts[owner, default: 0] < Self.readsPerUser else { return false }
            counts[owner, default: 0] += 1
            return true
        }
        guard admitted else { throw SubscriptionsBusy() }
        defer { reading.withLock { counts in counts[owner] = counts[owner].flatMap { $0 > 1 ? $0 - 1 : nil } } }
        return try await body()
    }

    /// A new subscription of `owner`'s to `address`, read once first.
    /// - Throws: `SubscriptionProblem` when the address is not one or its file cannot be read;
    ///   the store's errors (its quotas).
    package func subscribe(owner: Int64, address: String, name: String?, colour: String?) async throws -> CalendarCollection {
        let url = try SubscriptionAddress.url(address).get()
        switch await reader.read(url) {
        case .read(let feed, let etag, let lastModified):
            let named = name ?? feed.name ?? url.host ?? "Subscription"
            return try await store.createSubscription(owner: owner, name: named, colour: colour, url: url.absoluteString, events: feed.events,
                                                      etag: etag, lastModified: lastModified, refreshAfter: Self.interval(feed.refreshSeconds),
                                                      now: now)
        case .unchanged:
            throw SubscriptionProblem("\(url.host ?? "the server") answered 304 (not modified) to a first reading")
        case .failed(let problem):
            throw problem
        }
    }

    /// Reads `subscription` again and keeps what was found; the calendar as it now is.
    @discardableResult
    package func refresh(_ subscription: BFFStore.DueSubscription) async throws -> CalendarCollection? {
        let reading: BFFStore.SubscriptionReading
        var wish: Int64?
        switch SubscriptionAddress.url(subscription.url) {
        case .failure(let problem):
            reading = .failed(problem.description)
        case .success(let url):
            switch await reader.read(url, etag: subscription.etag, lastModified: subscription.lastModified) {
            case .read(let feed, let etag, let lastModified):
                reading = .read(events: feed.events, etag: etag, lastModified: lastModified)
                wish = feed.refreshSeconds
            case .unchanged: reading = .unchanged
            case .failed(let problem): reading = .failed(problem.description)
            }
        }
        do {
            return try await store.keepReading(reading, of: subscription, now: now, nextIn: Self.interval(wish))
        } catch BFFStoreError.quotaReached(let what, let limit) {
            let problem = "its events would take you past \(limit) \(what), the most one user may keep"
            return try await store.keepReading(.failed(problem), of: subscription, now: now, nextIn: Self.interval(nil))
        }
    }

    /// Seconds until the next reading.
    static func interval(_ wish: Int64?) -> Int64 {
        let bounds = CalendarCollectionLimits.refreshSeconds
        return min(max(wish ?? CalendarCollectionLimits.defaultRefreshSeconds, bounds.lowerBound), bounds.upperBound)
    }

    var now: UTCInstant { UTCInstant(secondsSinceEpoch: Int64(clock().timeIntervalSince1970.rounded(.down))) }
}

/// A user asked for more readings at once than `CalendarSubscriptions.readsPerUser`.
package struct SubscriptionsBusy: Error {}
