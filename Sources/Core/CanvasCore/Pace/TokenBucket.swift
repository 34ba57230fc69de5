/// A bucket of at most `burst` tokens, refilled at `rate` tokens a second: what the server's rate
/// limits (a request a token), the pace of a remote app's stream (a byte a token) and a micro-app's
/// publishes (an event a token) are made of.
public struct TokenBucket: Sendable {
    /// Tokens added per second.
    public let rate: Double
    /// The most tokens it holds: the largest burst.
    public let burst: Double
    private var tokens: Double
    /// When `tokens` was last brought up to date.
    public private(set) var updated: ContinuousClock.Instant

    /// A full bucket.
    public init(rate: Double, burst: Double, now: ContinuousClock.Instant) {
        precondition(rate > 0 && burst > 0)
        self.rate = rate
        self.burst = burst
        tokens = burst
        updated = now
    }

    /// Takes `amount` tokens if it holds them: nil, or how long until it will.
    public mutating func take(_ amount: Double = 1, now: ContinuousClock.Instant) -> Duration? {
        refill(now: now)
        guard tokens >= amount else { return .seconds((amount - tokens) / rate) }
        tokens -= amount
        return nil
    }

    /// Takes `amount` tokens, into debt if need be: how long until the debt is paid (zero when
    /// there is none), which is how long whoever spent them should wait.
    public mutating func spend(_ amount: Double, now: ContinuousClock.Instant) -> Duration {
        refill(now: now)
        tokens -= amount
        return tokens < 0 ? .seconds(-tokens / rate) : .zero
    }

    /// Gives back tokens taken, up to `burst`.
    public mutating func giveBack(_ amount: Double = 1, now: ContinuousClock.Instant) {
        refill(now: now)
        tokens = min(burst, tokens + amount)
    }

    /// Whether it has been idle long enough to be full again (the same as a new bucket).
    public func isFull(at now: ContinuousClock.Instant) -> Bool {
        tokens + (now - updated).inSeconds * rate >= burst
    }

    private mutating func refill(now: ContinuousClock.Instant) {
        tokens = min(burst, tokens + (now - updated).inSeconds * rate)
        updated = now
    }
}
