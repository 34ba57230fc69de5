import GRDB

extension SQLiteStore {
    /// `write`, keeping the current request's `Idempotency-Key` (if any) in the same transaction,
    /// by the core's rules (`IdempotencyRules`), for the writes that are not plans yet. SQLite runs
    /// one write at a time, so two requests with one key never both run `body`.
    func keyedWrite<Result: KeyedResult>(_ body: (Database) throws -> Result) throws -> Result {
        guard let request = IdempotentRequest.take() else { return try write(body) }
        return try write { db in
            if let kept: Result = try run(IdempotencyRules.kept(request), in: db) { return kept }
            return try run(IdempotencyRules.keep(try body(db), request), in: db)
        }
    }
}
