import Foundation
import GRDB

extension SQLiteStore {
    /// Claims `key` of `owner` for the request `fingerprint` describes, in one write transaction,
    /// so two requests with one key never both run. Also forgets keys past their retention.
    public func claimIdempotencyKey(owner: Int64, key: String, fingerprint: Data, now: Date) async throws -> IdempotencyClaim {
        let time = now.timeIntervalSince1970
        return try write { db in
            try db.execute(sql: "DELETE FROM idempotencyKey WHERE createdAt < ?", arguments: [time - IdempotencyKeys.retention])
            let row = try Row.fetchOne(
                db, sql: "SELECT fingerprint, status, contentType, location, body, createdAt FROM idempotencyKey WHERE ownerId = ? AND key = ?",
                arguments: [owner, key])
            guard let row else {
                try db.execute(sql: "INSERT INTO idempotencyKey (ownerId, key, fingerprint, createdAt) VALUES (?, ?, ?, ?)",
                               arguments: [owner, key, fingerprint, time])
                return .claimed(at: time)
            }
            guard row["fingerprint"] as Data == fingerprint else { return .mismatch }
            if let status = row["status"] as Int? {
                return .replay(StoredAnswer(status: status, contentType: row["contentType"], location: row["location"],
                                            body: row["body"] ?? Data()))
            }
            let claimedAt: Double = row["createdAt"]
            guard time - claimedAt >= IdempotencyKeys.abandonedAfter else { return .inProgress }
            try db.execute(sql: "UPDATE idempotencyKey SET createdAt = ? WHERE ownerId = ? AND key = ?", arguments: [time, owner, key])
            return .claimed(at: time)
        }
    }

    /// Keeps the successful `answer` to the key claimed at `claimedAt` for replay.
    public func completeIdempotencyKey(owner: Int64, key: String, claimedAt: Double, answer: StoredAnswer) async throws {
        try write { db in
            try db.execute(
                sql: """
                    UPDATE idempotencyKey SET status = ?, contentType = ?, location = ?, body = ?
                    WHERE ownerId = ? AND key = ? AND createdAt = ? AND status IS NULL
                    """,
                arguments: [answer.status, answer.contentType, answer.location, answer.body, owner, key, claimedAt])
        }
    }

    /// Frees the key claimed at `claimedAt` whose request failed, changing nothing, so a retry
    /// runs it afresh.
    public func releaseIdempotencyKey(owner: Int64, key: String, claimedAt: Double) async throws {
        try write { db in
            try db.execute(sql: "DELETE FROM idempotencyKey WHERE ownerId = ? AND key = ? AND createdAt = ? AND status IS NULL",
                           arguments: [owner, key, claimedAt])
        }
    }
}
