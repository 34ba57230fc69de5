import Foundation

/// How much output an app may waste in a window — lines over the limit, which the host reads
/// only to drop, and standard error, which it only logs — before it is stopped as flooding.
/// Reading a pipe as fast as an app fills it costs the dashboard a core; a well-behaved app
/// never comes near the budget (one oversized line of a megabyte is fine).
struct OutputBudget {
    static let window = 10.0
    static let bytes = 16 << 20

    /// Bytes counted, by when they came, oldest first; at most one entry per report.
    private var counted: [(at: Date, bytes: Int)] = []

    /// Counts `bytes`; true once the window holds more than the budget.
    mutating func add(_ bytes: Int, now: Date) -> Bool {
        counted.removeAll { now.timeIntervalSince($0.at) >= Self.window }
        counted.append((now, bytes))
        return total(now: now) > Self.bytes
    }

    func total(now: Date) -> Int {
        counted.filter { now.timeIntervalSince($0.at) < Self.window }.reduce(0) { $0 + $1.bytes }
    }
}
