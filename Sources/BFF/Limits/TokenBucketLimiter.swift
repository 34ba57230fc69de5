import Foundation
import Synchronization

/// Token buckets by key (a user, an address): each key may spend `rate` requests per second on
/// average and `burst` at once. Keys idle long enough to have a full bucket are forgotten, so the
/// table stays as small as the set of recently active clients.
final class TokenBucketLimiter: Sendable {
    private struct Bucket {
        var tokens: Double
        var updated: ContinuousClock.Instant
    }

    /// Tokens added per second.
    let rate: Double
    /// The most tokens a bucket holds: the largest burst.
    let burst: Double
    private let buckets = Mutex([String: Bucket]())
    private let clock = ContinuousClock()

    init(rate: Double, burst: Double) {
        precondition(rate > 0 && burst >= 1)
        self.rate = rate
        self.burst = burst
    }

    /// Takes one token for `key`: nil when allowed, or how long until a token is available.
    func take(_ key: String) -> Duration? {
        let now = clock.now
        return buckets.withLock { buckets in
            if buckets.count > 10_000 { prune(&buckets, now: now) }
            var bucket = buckets[key] ?? Bucket(tokens: burst, updated: now)
            bucket.tokens = min(burst, bucket.tokens + seconds(now - bucket.updated) * rate)
            bucket.updated = now
            defer { buckets[key] = bucket }
            guard bucket.tokens >= 1 else { return .seconds((1 - bucket.tokens) / rate) }
            bucket.tokens -= 1
            return nil
        }
    }

    /// Forgets buckets that have refilled completely: they are the same as no bucket.
    private func prune(_ buckets: inout [String: Bucket], now: ContinuousClock.Instant) {
        let refill = burst / rate
        buckets = buckets.filter { seconds(now - $0.value.updated) < refill }
    }

    private func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
