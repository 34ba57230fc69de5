import Foundation
import GRDB

/// What the store knows of an `Idempotency-Key` when a request arrives with it.
enum IdempotencyClaim: Equatable, Sendable {
    /// The key is new (or its first request was abandoned): this request runs, and must then
    /// `completeIdempotencyKey` or `releaseIdempotencyKey` with this claim's time, so that a
    /// request that lost its claim (it ran past `abandonedAfter`) changes nothing of the next.
    case claimed(at: Double)
    /// The same request succeeded before: answer with this again.
    case replay(StoredAnswer)
    /// The same request is still running.
    case inProgress
    /// The key was used for a different request.
    case mismatch
}

/// A successful answer kept for replay.
struct StoredAnswer: Equatable, Sendable {
    let status: Int
    let contentType: String?
    let location: String?
    let body: Data
}

/// How long keys are kept.
enum IdempotencyKeys {
    /// A completed key answers repeats for a day: far longer than any client retries a write.
    static let retention: TimeInterval = 24 * 60 * 60
    /// A key whose first request neither completed nor was released in this time (the server
    /// stopped while running it) may be claimed again.
    static let abandonedAfter: TimeInterval = 60
}

extension BFFStore {
    /// Claims `key` of `owner` for the request `fingerprint` describes, in one write transaction,
    /// so two requests with one key never both run. Also forgets keys past their retention.
    func claimIdempotencyKey(owner: Int64, key: String, fingerprint: Data, now: Date = Date()) throws -> IdempotencyClaim {
        let time = now.timeIntervalSince1970
        return try writer.write { db in
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
    func completeIdempotencyKey(owner: Int64, key: String, claimedAt: Double, answer: StoredAnswer) throws {
        try writer.write { db in
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
    func releaseIdempotencyKey(owner: Int64, key: String, claimedAt: Double) throws {
        try writer.write { db in
            try db.execute(sql: "DELETE FROM idempotencyKey WHERE ownerId = ? AND key = ? AND createdAt = ? AND status IS NULL",
                           arguments: [owner, key, claimedAt])
        }
    }
}
