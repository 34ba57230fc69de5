import Foundation
import GRDB

extension SQLiteStore {
    /// `write`, keeping the current request's `Idempotency-Key` (if any) in the same transaction:
    /// a key kept and not expired returns its result without running `body`; else `body` runs
    /// and, when it changed something, its result is kept with the key (replacing an expired
    /// one). SQLite runs one write at a time, so two requests with one key never both run `body`.
    func keyedWrite<Result: KeyedResult>(_ body: (Database) throws -> Result) throws -> Result {
        guard let request = IdempotentRequest.take() else { return try write(body) }
        return try write { db in
            if request.prunes {
                try db.execute(sql: "DELETE FROM idempotentWrite WHERE createdAt < ?", arguments: [request.expiredBefore])
            }
            if let row = try Row.fetchOne(db, sql: """
                SELECT fingerprint, result FROM idempotentWrite WHERE ownerId = ? AND key = ? AND createdAt >= ?
                """, arguments: [request.owner, request.key, request.expiredBefore]) {
                return try request.replay(fingerprint: row["fingerprint"], result: row["result"])
            }
            let result = try body(db)
            if let kept = try request.kept(result) {
                try db.execute(sql: """
                    INSERT OR REPLACE INTO idempotentWrite (ownerId, key, fingerprint, result, createdAt) VALUES (?, ?, ?, ?, ?)
                    """, arguments: [request.owner, request.key, request.fingerprint, kept, request.now.timeIntervalSince1970])
            }
            return result
        }
    }
}
