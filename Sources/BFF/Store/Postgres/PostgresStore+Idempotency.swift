import Foundation
import PostgresNIO

extension PostgresStore {
    /// As `SQLiteStore`'s. The key's row is taken with `INSERT … ON CONFLICT DO NOTHING` and, when it
    /// was there, locked, so that two instances given one key at once never both run its request.
    public func claimIdempotencyKey(owner: Int64, key: String, fingerprint: Data, now: Date) async throws -> IdempotencyClaim {
        let time = now.timeIntervalSince1970
        return try await transaction { connection -> IdempotencyClaim in
            try await connection.run("DELETE FROM idempotency_keys WHERE created_at < \(time - IdempotencyKeys.retention)", logger: logger)
            let inserted = try await connection.run("""
                INSERT INTO idempotency_keys (owner_id, key, fingerprint, created_at) VALUES (\(owner), \(key), \(fingerprint), \(time))
                ON CONFLICT (owner_id, key) DO NOTHING RETURNING 1
                """, logger: logger)
            if inserted > 0 { return .claimed(at: time) }
            guard let (stored, status, contentType, location, body, claimedAt) = try await connection.rows("""
                SELECT fingerprint, status, content_type, location, body, created_at FROM idempotency_keys
                WHERE owner_id = \(owner) AND key = \(key) FOR UPDATE
                """, as: (Data, Int?, String?, String?, Data?, Double).self, logger: logger).first else {
                // Deleted between the two statements (its owner went): nothing to replay.
                return .inProgress
            }
            guard stored == fingerprint else { return .mismatch }
            if let status {
                return .replay(StoredAnswer(status: status, contentType: contentType, location: location, body: body ?? Data()))
            }
            guard time - claimedAt >= IdempotencyKeys.abandonedAfter else { return .inProgress }
            try await connection.run("UPDATE idempotency_keys SET created_at = \(time) WHERE owner_id = \(owner) AND key = \(key)",
                                     logger: logger)
            return .claimed(at: time)
        }
    }

    public func completeIdempotencyKey(owner: Int64, key: String, claimedAt: Double, answer: StoredAnswer) async throws {
        _ = try await rows("""
            UPDATE idempotency_keys SET status = \(answer.status), content_type = \(answer.contentType), location = \(answer.location),
                body = \(answer.body)
            WHERE owner_id = \(owner) AND key = \(key) AND created_at = \(claimedAt) AND status IS NULL RETURNING 1
            """, as: Int64.self)
    }

    public func releaseIdempotencyKey(owner: Int64, key: String, claimedAt: Double) async throws {
        _ = try await rows("""
            DELETE FROM idempotency_keys WHERE owner_id = \(owner) AND key = \(key) AND created_at = \(claimedAt) AND status IS NULL
            RETURNING 1
            """, as: Int64.self)
    }
}
