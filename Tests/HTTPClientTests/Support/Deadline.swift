import Testing

struct DeadlineExceeded: Error, CustomStringConvertible {
    let limit: Duration
    var description: String { "did not finish within \(limit)" }
}

/// Runs `body`, failing (and cancelling it) when it takes longer than `limit`, so a test that
/// waits for something that never comes fails fast instead of hanging the suite.
func withDeadline<T: Sendable>(_ limit: Duration, _ body: @escaping @Sendable () async throws -> T) async throws -> T {
    try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask { try await body() }
        group.addTask {
            try await Task.sleep(for: limit)
            return nil
        }
        defer { group.cancelAll() }
        guard let first = try await group.next(), let value = first else { throw DeadlineExceeded(limit: limit) }
        return value
    }
}

/// Measures how long `body` takes.
func measure<T>(_ body: () async throws -> T) async rethrows -> (value: T, elapsed: Duration) {
    let clock = ContinuousClock()
    let start = clock.now
    let value = try await body()
    return (value, start.duration(to: clock.now))
}

/// Waits (suspending, polling every 5 ms, on the caller's actor) until `condition` holds; throws
/// after `limit`.
func eventually(
    within limit: Duration = .seconds(5), isolation: isolated (any Actor)? = #isolation, _ condition: () -> Bool
) async throws {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: limit)
    while !condition() {
        guard clock.now < deadline else { throw DeadlineExceeded(limit: limit) }
        try await Task.sleep(for: .milliseconds(5))
    }
}
