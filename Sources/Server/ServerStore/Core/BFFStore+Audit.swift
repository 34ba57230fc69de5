import Foundation
import ServerAPI

/// The audit log: administrative actions on canvases, the registry and users, recorded in the
/// transaction of the action itself, kept `AuditLimits.retentionDays`.
extension BFFStore {
    /// One page of the log, newest first, older than the entry `before` if given.
    package func auditEntries(before: Int64?, limit: Int) async throws -> (items: [AuditEntry], more: Bool) {
        var statement: SQLStatement = "SELECT id, at, actor, action, target, detail FROM audit_log"
        if let before { statement += " WHERE id < \(before)" }
        statement += " ORDER BY id DESC LIMIT \(limit + 1)"
        return try await runRead(Plan.run(statement) { rows in
            let entries = try rows.map { row in
                guard let action = AuditAction(rawValue: try row.text(3)) else { throw BFFStoreError.unreadableRow("audit_log.action") }
                return AuditEntry(id: try row.integer(0), at: try row.text(1), actor: try row.text(2), action: action,
                                  target: try row.text(4), detail: try row.text(5))
            }
            return .done((Array(entries.prefix(limit)), entries.count > limit))
        }, snapshot: false)
    }
}

extension Plan {
    /// Records `action` in the audit log, then goes on with this plan; fails with
    /// `BFFStoreError.auditedChangesSpent` when `actor` has made `AuditLimits.changesPerUserPerDay`
    /// in the last 24 hours (the action is then not done). Entries older than
    /// `AuditLimits.retentionDays` go, a few at a time.
    /// - Parameter counted: Whether the change counts against the actor's day (the operator's do not).
    func audited(_ action: AuditAction, by actor: String, target: String, detail: String = "", counted: Bool = true) -> Plan {
        let now = Date()
        let (at, dayAgo) = (Self.timestamp(now), Self.timestamp(now.addingTimeInterval(-86_400)))
        let expired = Self.timestamp(now.addingTimeInterval(-Double(AuditLimits.retentionDays) * 86_400))
        let (target, detail) = (Self.bounded(target), Self.bounded(detail))
        // The actor's lock: instances auditing at once cannot both take the day's last change.
        return .lock("audit.\(actor)", next: .run("""
            SELECT COUNT(*), MIN(at) FROM (SELECT at FROM audit_log WHERE actor = \(actor) AND at > \(dayAgo)
                AND action NOT IN (\(AuditAction.userLoggedIn.rawValue), \(AuditAction.loginRefused.rawValue))
            ORDER BY at LIMIT \(AuditLimits.changesPerUserPerDay)) recent
            """) { rows in
            if counted, try rows.first?.integer(0) ?? 0 >= Int64(AuditLimits.changesPerUserPerDay) {
                let oldest = try rows.first?.optionalText(1).flatMap { try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse($0) } ?? now
                throw BFFStoreError.auditedChangesSpent(retryAfter: .seconds(max(1, oldest.timeIntervalSince(now) + 86_400)))
            }
            return .run("INSERT INTO audit_log (at, actor, action, target, detail) VALUES (\(at), \(actor), \(action.rawValue), \(target), \(detail))") { _ in
                .run("""
                    DELETE FROM audit_log WHERE id IN (SELECT id FROM audit_log ORDER BY id LIMIT 16) AND at < \(expired)
                    """) { _ in self }
            }
        })
    }

    private static func timestamp(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }

    /// At most `AuditLimits.fieldMaxBytes` of `text`, cut between two scalars.
    private static func bounded(_ text: String) -> String {
        guard text.utf8.count > AuditLimits.fieldMaxBytes else { return text }
        var bytes = 0
        return String(String.UnicodeScalarView(text.unicodeScalars.prefix { scalar in
            bytes += scalar.utf8.count
            return bytes <= AuditLimits.fieldMaxBytes
        }))
    }
}
