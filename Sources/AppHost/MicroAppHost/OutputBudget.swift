import FoundationEssentials

/// How much output an app may waste in a window — lines over the limit, which the host reads
/// only to drop, and standard error, which it only logs — before it is stopped as flooding.
/// Reading a pipe as fast as an app fills it costs the dashboard a core; a well-behaved app
/// never comes near the budget (one oversized line of a megabyte is fine).
struct OutputBudget {
    static let window = Duration.seconds(10)
    static let bytes = 16 << 20

    /// Bytes counted, by when they came, oldest first; at most one entry per report.
    private var counted: [(at: ContinuousClock.Instant, bytes: Int)] = []

    /// Counts `bytes`; true once the window holds more than the budget.
    mutating func add(_ bytes: Int, now: ContinuousClock.Instant) -> Bool {
        counted.removeAll { $0.at.duration(to: now) >= Self.window }
        counted.append((now, bytes))
        return total(now: now) > Self.bytes
    }

    func total(now: ContinuousClock.Instant) -> Int {
        counted.filter { $0.at.duration(to: now) < Self.window }.reduce(0) { $0 + $1.bytes }
    }
}
