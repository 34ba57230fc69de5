/// Measures how long `body` takes.
func measure<T>(_ body: () async throws -> T) async rethrows -> (value: T, elapsed: Duration) {
    let clock = ContinuousClock()
    let start = clock.now
    let value = try await body()
    return (value, start.duration(to: clock.now))
}
