import CanvasCore
import Foundation
import Synchronization

/// Token buckets by key (a user, an address, a user name): each key may spend `rate` requests per
/// second on average and `burst` at once.
///
/// The table is bounded whatever the keys: when a new key would take it past `capacity`, keys
/// idle long enough to have a full bucket are forgotten (they are the same as no bucket), and if
/// more than half the capacity is still in use, the least recently updated buckets are forgotten
/// too, down to half. A flood of distinct keys (random user names) therefore costs at most
/// `capacity` buckets, and each prune makes room for at least `capacity / 2` new keys, so pruning
/// stays cheap on average. The price under such a flood is that an old bucket may be forgotten
/// early, i.e. refilled.
package final class TokenBucketLimiter: Sendable {
    /// Tokens added per second.
    let rate: Double
    /// The most tokens a bucket holds: the largest burst.
    let burst: Double
    /// The most buckets the table holds.
    let capacity: Int
    private let buckets = Mutex([String: TokenBucket]())
    private let clock = ContinuousClock()

    package init(rate: Double, burst: Double, capacity: Int = 10_000) {
        precondition(rate > 0 && burst >= 1 && capacity >= 2)
        self.rate = rate
        self.burst = burst
        self.capacity = capacity
    }

    /// Buckets held now (for tests).
    var count: Int { buckets.withLock { $0.count } }

    /// Takes `amount` tokens (one request, or its bytes) for `key`: nil when allowed, or how long
    /// until they are available.
    package func take(_ key: String, amount: Double = 1) -> Duration? {
        let now = clock.now
        return buckets.withLock { buckets in
            if buckets[key] == nil, buckets.count >= capacity { prune(&buckets, now: now) }
            var bucket = buckets[key] ?? TokenBucket(rate: rate, burst: burst, now: now)
            defer { buckets[key] = bucket }
            return bucket.take(amount, now: now)
        }
    }

    /// Gives back a token `take` took (the request turned out not to count), up to `burst`.
    package func refund(_ key: String) {
        let now = clock.now
        buckets.withLock { buckets in
            buckets[key]?.giveBack(now: now)
        }
    }

    /// Forgets buckets that have refilled completely, then, while more than half the capacity is
    /// still in use, the least recently updated ones.
    private func prune(_ buckets: inout [String: TokenBucket], now: ContinuousClock.Instant) {
        buckets = buckets.filter { !$0.value.isFull(at: now) }
        let keep = capacity / 2
        guard buckets.count > keep else { return }
        let newest = buckets.sorted { $0.value.updated > $1.value.updated }.prefix(keep)
        buckets = Dictionary(uniqueKeysWithValues: newest.map { ($0.key, $0.value) })
    }
}
