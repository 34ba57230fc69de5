import Foundation
import ServerHTTP
import ServerStore
import Synchronization

/// Per-account throttling of password checks, on top of the per-address limit of the token route.
///
/// The rule:
/// - Each user name has a bucket of `failuresPerMinute` (5) failed attempts, refilling one every
///   12 s. Every attempt takes a token before the password is checked; a success gives it back,
///   so only failures count (and concurrent guesses cannot overdraw the bucket).
/// - While a name's bucket is empty, attempts for that name get 429 with `Retry-After` *without*
///   the password being checked — unless they come from an address that has logged in
///   successfully as that user before: the last `knownCapacity` (10 000) such (user, address)
///   pairs are remembered in memory, so someone guessing a password cannot lock the real user out
///   of their usual address. From a new address the lock-out ends about 12 s after the guessing
///   stops.
/// - Names are counted whether or not such a user exists, so the throttle does not tell which
///   names exist. Names that can never log in (not a valid user name) share one bucket, so random
///   long names cost no memory; the buckets of valid names are bounded by `TokenBucketLimiter`.
/// - Off when `RateLimits` is off (tests, benchmarks).
final class LoginThrottle: Sendable {
    /// Failed attempts per user name per minute (the bucket's size).
    static let failuresPerMinute = 5.0
    /// The (user, address) pairs of successful logins remembered at most.
    static let knownCapacity = 10_000

    /// What an attempt may do.
    enum Admission: Equatable {
        /// Check the password; `counted` says a token was taken (to give back on success).
        case check(counted: Bool)
        /// Refuse without checking: 429, retry after this long.
        case refuse(retryAfter: Duration)
    }

    private let failures: TokenBucketLimiter
    private let known = Mutex(KnownLogins())

    init(bucketCapacity: Int = 10_000) {
        failures = TokenBucketLimiter(rate: Self.failuresPerMinute / 60, burst: Self.failuresPerMinute, capacity: bucketCapacity)
    }

    /// Whether `user` may try a password from `address` now; when allowed, the attempt counts as a
    /// failure until `succeeded` says otherwise.
    func admit(user: String, address: String) -> Admission {
        guard let wait = failures.take(Self.key(user)) else { return .check(counted: true) }
        if known.withLock({ $0.contains(user: user, address: address) }) { return .check(counted: false) }
        return .refuse(retryAfter: wait)
    }

    /// A successful login: the attempt does not count as a failure, and `address` becomes one
    /// `user` is known to log in from.
    func succeeded(user: String, address: String, counted: Bool) {
        if counted { failures.refund(Self.key(user)) }
        known.withLock { $0.insert(user: user, address: address) }
    }

    /// The bucket key of a user name: the name itself when it could be one.
    private static func key(_ user: String) -> String {
        BFFUser.isValidName(user) && user.utf8.count <= 256 ? "user:" + user : "invalid"
    }
}

/// The most recent (user, address) pairs of successful logins, at most `LoginThrottle.knownCapacity`:
/// past it the least recent half is forgotten.
private struct KnownLogins {
    private struct Pair: Hashable {
        let user: String
        let address: String
    }

    private var lastSeen: [Pair: UInt64] = [:]
    private var clock: UInt64 = 0

    func contains(user: String, address: String) -> Bool {
        lastSeen[Pair(user: user, address: address)] != nil
    }

    mutating func insert(user: String, address: String) {
        clock += 1
        let pair = Pair(user: user, address: address)
        if lastSeen[pair] == nil, lastSeen.count >= LoginThrottle.knownCapacity {
            let newest = lastSeen.sorted { $0.value > $1.value }.prefix(LoginThrottle.knownCapacity / 2)
            lastSeen = Dictionary(uniqueKeysWithValues: newest.map { ($0.key, $0.value) })
        }
        lastSeen[pair] = clock
    }
}
