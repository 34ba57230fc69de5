import Foundation

/// Webhooks: an accepted one is kept until delivered, so a restart loses none, and its signature
/// is kept while its timestamp is fresh, so a replay is refused.
extension BFFStore {
    /// How far a webhook's `X-Timestamp` may be from the server's clock (`HookSignature`).
    package static let hookTimestampTolerance: TimeInterval = 300

    /// Keeps a webhook's event for delivery and its signature against replays, in one transaction;
    /// nil when the signature was seen before (a replay), else the delivery's id. The receipt is
    /// one `INSERT … ON CONFLICT DO NOTHING`, so a webhook sent to two instances at once is
    /// accepted by one.
    package func acceptHook(app: String, signature: String, event: String, data: String, now: Date) async throws -> Int64? {
        let time = now.timeIntervalSince1970
        // Receipts older than a timestamp may be are of no more use: their requests are refused anyway.
        return try await runWrite(Plan.run("DELETE FROM hook_receipts WHERE received_at < \(time - 2 * Self.hookTimestampTolerance)") { _ in
            .run("""
                INSERT INTO hook_receipts (app_id, signature, received_at) VALUES (\(app), \(signature), \(time))
                ON CONFLICT DO NOTHING RETURNING 1
                """) { rows in
                guard !rows.isEmpty else { return .done(nil) }
                return .run("""
                    INSERT INTO hook_deliveries (app_id, event, data, received_at) VALUES (\(app), \(event), \(data), \(now)) RETURNING id
                    """) { rows in .done(try rows.first?.integer(0)) }
            }
        })
    }

    /// The oldest deliveries waiting, at most `limit`.
    package func pendingHookDeliveries(limit: Int) async throws -> [HookDelivery] {
        try await runRead(Plan.run("SELECT id, app_id, event, attempts FROM hook_deliveries ORDER BY id LIMIT \(limit)") { rows in
            .done(try rows.map { row in
                HookDelivery(id: try row.integer(0), app: try row.text(1), event: try row.text(2), attempts: Int(clamping: try row.integer(3)))
            })
        }, snapshot: false)
    }

    /// Delivers a webhook event to the live streams of every user its app is granted to, and
    /// removes it from the queue, in one transaction: it is delivered once, or not at all. When
    /// two instances deliver the queue at once, each delivery is made by one of them.
    package func deliver(_ delivery: HookDelivery) async throws {
        try await runWrite(Plan.run("SELECT data FROM hook_deliveries WHERE id = \(delivery.id)\(.forUpdateSkipLocked)") { rows in
            guard let data = try rows.first?.text(0) else { return .done(()) }
            return .run("SELECT user_id FROM app_grants WHERE app_id = \(delivery.app) ORDER BY user_id") { rows in
                let done: Plan<Void> = .run("DELETE FROM hook_deliveries WHERE id = \(delivery.id)") { _ in .done(()) }
                return try rows.map { row in try row.integer(0) }.reversed().reduce(done) { next, user in
                    .record(LiveEventDraft(name: delivery.event, owner: user, json: data), next: next)
                }
            }
        })
    }

    /// Counts a failed attempt, for the log and the back-off.
    package func recordFailedDelivery(_ delivery: HookDelivery) async throws {
        try await runWrite(Plan.run("UPDATE hook_deliveries SET attempts = attempts + 1 WHERE id = \(delivery.id)") { _ in .done(()) })
    }
}
