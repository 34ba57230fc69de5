import Foundation
import PostgresNIO

extension PostgresStore {
    /// As `SQLiteStore`'s: the receipt is one `INSERT … ON CONFLICT DO NOTHING`, so a webhook sent
    /// to two instances at once is accepted by one.
    public func acceptHook(app: String, signature: String, event: String, data: String, now: Date) async throws -> Int64? {
        let time = now.timeIntervalSince1970
        return try await transaction { connection -> Int64? in
            try await connection.run("DELETE FROM hook_receipts WHERE received_at < \(time - 2 * HookSignature.tolerance)", logger: logger)
            guard try await connection.run("""
                INSERT INTO hook_receipts (app_id, signature, received_at) VALUES (\(app), \(signature), \(time))
                ON CONFLICT DO NOTHING RETURNING 1
                """, logger: logger) > 0 else { return nil }
            return try await connection.rows("""
                INSERT INTO hook_deliveries (app_id, event, data, received_at) VALUES (\(app), \(event), \(data), \(now)) RETURNING id
                """, as: Int64.self, logger: logger).first
        }
    }

    public func pendingHookDeliveries(limit: Int) async throws -> [HookDelivery] {
        try await rows("SELECT id, app_id, event, attempts FROM hook_deliveries ORDER BY id LIMIT \(Int64(limit))",
                       as: (Int64, String, String, Int).self)
            .map { HookDelivery(id: $0.0, app: $0.1, event: $0.2, attempts: $0.3) }
    }

    /// As `SQLiteStore`'s; the delivery's row is taken `FOR UPDATE SKIP LOCKED`, so when two
    /// instances deliver the queue at once each delivery is made by one of them, once.
    public func deliver(_ delivery: HookDelivery) async throws {
        try await transaction { connection in
            guard let data = try await connection.rows("""
                SELECT data FROM hook_deliveries WHERE id = \(delivery.id) FOR UPDATE SKIP LOCKED
                """, as: String.self, logger: logger).first else { return }
            let users = try await connection.rows("SELECT user_id FROM app_grants WHERE app_id = \(delivery.app) ORDER BY user_id",
                                                  as: Int64.self, logger: logger)
            for user in users { try await record(delivery.event, owner: user, json: data, on: connection) }
            try await connection.run("DELETE FROM hook_deliveries WHERE id = \(delivery.id)", logger: logger)
        }
    }

    public func recordFailedDelivery(_ delivery: HookDelivery) async throws {
        _ = try await rows("UPDATE hook_deliveries SET attempts = attempts + 1 WHERE id = \(delivery.id) RETURNING 1", as: Int64.self)
    }
}
