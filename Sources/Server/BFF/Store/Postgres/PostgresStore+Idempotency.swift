import PostgresNIO

extension PostgresStore {
    /// `transaction`, keeping the current request's `Idempotency-Key` (if any) in it by the core's
    /// rules (`IdempotencyRules`), for the writes that are not plans yet.
    func keyedTransaction<Result: KeyedResult>(_ body: @escaping @Sendable (PostgresConnection) async throws -> Result) async throws -> Result {
        guard let request = IdempotentRequest.take() else { return try await transaction(body) }
        do {
            return try await transaction { connection in
                if let kept: Result = try await run(IdempotencyRules.kept(request), on: connection) { return kept }
                return try await run(IdempotencyRules.keep(try await body(connection), request), on: connection)
            }
        } catch is IdempotencyRules.KeyTakenMeanwhile {
            return try await transaction { connection in try await run(IdempotencyRules.replay(request), on: connection) }
        }
    }
}
