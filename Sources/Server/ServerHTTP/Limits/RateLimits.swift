/// Request rates the server allows before answering 429 with `Retry-After`.
///
/// With several instances behind a load balancer each enforces its share, `1/instances` of every
/// rate: a balancer that spreads requests evenly (round robin) then gives each user the whole rate
/// in all, at no cost per request, where a bucket in the database would cost a write per request.
package struct RateLimits: Sendable, Equatable {
    /// Requests per second each user may make, with bursts of twice that; 0 turns every limit off.
    package var perUserPerSecond: Int
    /// Token requests (password checks) per minute from one address, against password guessing.
    package var tokenRequestsPerMinute: Int
    /// Bytes of request bodies each user may send in writes per second, with bursts of four times
    /// that (`WriteBudgetMiddleware`).
    package var writeBytesPerUserPerSecond: Int
    /// How many instances share the limits.
    package var instances: Int

    package init(perUserPerSecond: Int = 50, tokenRequestsPerMinute: Int = 10, writeBytesPerUserPerSecond: Int = 256 << 10, instances: Int = 1) {
        self.perUserPerSecond = perUserPerSecond
        self.tokenRequestsPerMinute = tokenRequestsPerMinute
        self.writeBytesPerUserPerSecond = writeBytesPerUserPerSecond
        self.instances = max(instances, 1)
    }

    /// No limits at all (`--rate-limit 0`, for benchmarks).
    package static let off = RateLimits(perUserPerSecond: 0, tokenRequestsPerMinute: 0)

    package var isOff: Bool { perUserPerSecond == 0 }
    /// Requests per second from one address, all users behind it together.
    package var perAddressPerSecond: Int { perUserPerSecond * 4 }

    /// This instance's share of a rate.
    package func share(_ rate: Int) -> Double { Double(rate) / Double(instances) }
}
