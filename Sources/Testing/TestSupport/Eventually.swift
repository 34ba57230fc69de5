/// What `eventually` throws when what it waited for did not come in time.
public struct NotInTime: Error, CustomStringConvertible {
    public let what: String
    public let limit: Duration
    public var description: String { "waited \(limit) for \(what)" }
}

/// Waits until `probe` gives a value and returns it: the one way a test waits for what happens
/// elsewhere (a process, a server, another task), never a fixed sleep. Polls on the caller's actor,
/// so `probe` may read its state; throws `NotInTime`, naming `what` as it is then, after `limit`.
/// The bound only matters when the value never comes: keep it generous, as machines under
/// `make test` are slow.
@discardableResult
public func eventually<Value>(
    _ what: @autoclosure () -> String = "the condition", within limit: Duration = .seconds(10),
    every interval: Duration = .milliseconds(10), isolation: isolated (any Actor)? = #isolation,
    _ probe: () async throws -> Value?
) async throws -> Value {
    let deadline = ContinuousClock.now.advanced(by: limit)
    while true {
        if let value = try await probe() { return value }
        guard ContinuousClock.now < deadline else { throw NotInTime(what: what(), limit: limit) }
        try await Task.sleep(for: interval)
    }
}

/// Waits until `condition` holds; see the other `eventually`.
public func eventually(
    _ what: @autoclosure () -> String = "the condition", within limit: Duration = .seconds(10),
    every interval: Duration = .milliseconds(10), isolation: isolated (any Actor)? = #isolation,
    _ condition: () async throws -> Bool
) async throws {
    try await eventually(what(), within: limit, every: interval, isolation: isolation) { try await condition() ? () : nil }
}

/// Runs `body`, throwing `NotInTime` (and cancelling it) when it takes longer than `limit`, so a
/// test that waits for something that never comes fails fast instead of hanging the suite.
public func withDeadline<T: Sendable>(
    _ limit: Duration, for what: String = "the test's steps", _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
    try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask { try await body() }
        group.addTask {
            try await Task.sleep(for: limit)
            return nil
        }
        defer { group.cancelAll() }
        guard let first = try await group.next(), let value = first else { throw NotInTime(what: what, limit: limit) }
        return value
    }
}
