import Foundation
import PostgresNIO

extension PostgresStore {
    /// As `SQLiteStore.keyedWrite`, over instances that write at once: two requests with one key
    /// may both find it free and run `body`; the second's insert of the key then waits for the
    /// first's transaction and, when that commits, finds the key taken (and not expired), so its
    /// own write is rolled back and it returns the first's result instead.
    func keyedTransaction<Result: KeyedResult>(_ body: @escaping @Sendable (PostgresConnection) async throws -> Result) async throws -> Result {
        guard let request = IdempotentRequest.take() else { return try await transaction(body) }
        do {
            return try await transaction { connection in
                if request.prunes {
                    try await connection.run("DELETE FROM idempotent_writes WHERE created_at < \(request.expiredBefore)", logger: logger)
                }
                if let kept: Result = try await kept(request, on: connection) { return kept }
                let result = try await body(connection)
                if let kept = try request.kept(result) {
                    let inserted = try await connection.run("""
                        INSERT INTO idempotent_writes (owner_id, key, fingerprint, result, created_at)
                        VALUES (\(request.owner), \(request.key), \(request.fingerprint), \(kept), \(request.now.timeIntervalSince1970))
                        ON CONFLICT (owner_id, key) DO UPDATE SET fingerprint = EXCLUDED.fingerprint, result = EXCLUDED.result,
                            created_at = EXCLUDED.created_at
                        WHERE idempotent_writes.created_at < \(request.expiredBefore)
                        RETURNING 1
                        """, logger: logger)
                    guard inserted > 0 else { throw KeyTakenMeanwhile() }
                }
                return result
            }
        } catch is KeyTakenMeanwhile {
            return try await transaction { connection in
                guard let kept: Result = try await kept(request, on: connection) else { throw KeyTakenMeanwhile() }
                return kept
            }
        }
    }

    private func kept<Result: KeyedResult>(_ request: IdempotentRequest, on connection: PostgresConnection) async throws -> Result? {
        guard let (fingerprint, result) = try await connection.rows("""
            SELECT fingerprint, result FROM idempotent_writes
            WHERE owner_id = \(request.owner) AND key = \(request.key) AND created_at >= \(request.expiredBefore)
            """, as: (Data, Data).self, logger: logger).first else { return nil }
        return try request.replay(fingerprint: fingerprint, result: result)
    }
}

/// Another request with the same key committed while this one ran.
private struct KeyTakenMeanwhile: Error {}
