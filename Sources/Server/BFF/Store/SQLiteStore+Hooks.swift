import Foundation
import GRDB

extension SQLiteStore {
    /// Keeps a webhook's event for delivery and its signature against replays, in one transaction;
    /// nil when the signature was seen before (a replay), else the delivery's id.
    public func acceptHook(app: String, signature: String, event: String, data: String, now: Date) async throws -> Int64? {
        try write { db in
            // Receipts older than a timestamp may be are of no more use: their requests are refused anyway.
            try db.execute(sql: "DELETE FROM hookReceipt WHERE receivedAt < ?",
                           arguments: [now.timeIntervalSince1970 - 2 * HookSignature.tolerance])
            try db.execute(sql: "INSERT OR IGNORE INTO hookReceipt (appId, signature, receivedAt) VALUES (?, ?, ?)",
                           arguments: [app, signature, now.timeIntervalSince1970])
            guard db.changesCount == 1 else { return nil }
            try db.execute(sql: "INSERT INTO hookDelivery (appId, event, data, receivedAt) VALUES (?, ?, ?, ?)",
                           arguments: [app, event, data, now])
            return db.lastInsertedRowID
        }
    }

    /// The oldest deliveries waiting, at most `limit`.
    public func pendingHookDeliveries(limit: Int) async throws -> [HookDelivery] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT id, appId, event, attempts FROM hookDelivery ORDER BY id LIMIT ?", arguments: [limit])
                .map { HookDelivery(id: $0["id"], app: $0["appId"], event: $0["event"], attempts: $0["attempts"]) }
        }
    }

    /// Delivers a webhook event to the live streams of every user its app is granted to, and
    /// removes it from the queue, in one transaction: it is delivered once, or not at all.
    public func deliver(_ delivery: HookDelivery) async throws {
        try write { db in
            guard let data = try String.fetchOne(db, sql: "SELECT data FROM hookDelivery WHERE id = ?", arguments: [delivery.id]) else {
                return
            }
            let users = try Int64.fetchAll(db, sql: "SELECT userId FROM appGrant WHERE appId = ? ORDER BY userId", arguments: [delivery.app])
            for user in users { try record(delivery.event, owner: user, json: data, in: db) }
            try db.execute(sql: "DELETE FROM hookDelivery WHERE id = ?", arguments: [delivery.id])
        }
    }

    /// Counts a failed attempt, for the log and the back-off.
    public func recordFailedDelivery(_ delivery: HookDelivery) async throws {
        try write { db in
            try db.execute(sql: "UPDATE hookDelivery SET attempts = attempts + 1 WHERE id = ?", arguments: [delivery.id])
        }
    }
}
