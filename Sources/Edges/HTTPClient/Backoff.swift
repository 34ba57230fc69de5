/// Exponential backoff with equal jitter, shared by request retries, stream reconnects and the
/// model client's retries.
public enum Backoff {
    /// `base × 2^(failures-1)`, capped at `cap`, then half of it fixed and half random.
    public static func delay(failures: Int, base: Duration, cap: Duration, using random: inout some RandomNumberGenerator) -> Duration {
        let exponent = min(max(failures - 1, 0), 30)
        let full = min(cap, base * (1 << exponent))
        let half = full / 2
        let nanoseconds = max(Int64(0), half.nanoseconds)
        return half + .nanoseconds(Int64.random(in: 0...nanoseconds, using: &random))
    }
}

extension Duration {
    /// The duration in whole nanoseconds (saturating).
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let (product, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return seconds < 0 ? .min : .max }
        return product &+ attoseconds / 1_000_000_000
    }

    /// The duration in whole milliseconds, rounded up, at least `minimum`: libcurl reads 0 as "no limit".
    public func milliseconds(atLeast minimum: Int = 1) -> Int {
        let nanos = nanoseconds
        return max(minimum, Int(nanos / 1_000_000) + (nanos % 1_000_000 > 0 ? 1 : 0))
    }
}
