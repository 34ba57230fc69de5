import Foundation
import MicroAppAPI

/// The audit log: administrative actions on canvases and the registry, recorded in the
/// transaction of the action itself, the newest `AuditLimits.entriesKept` kept.
extension SQLEngine {
    /// One page of the log, newest first, older than the entry `before` if given.
    public func auditEntries(before: Int64?, limit: Int) async throws -> (items: [AuditEntry], more: Bool) {
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
    /// Records `action` in the audit log, then goes on with this plan.
    func audited(_ action: AuditAction, by actor: String, target: String, detail: String = "") -> Plan {
        let at = Date().formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
        return .run("""
            INSERT INTO audit_log (at, actor, action, target, detail) VALUES (\(at), \(actor), \(action.rawValue), \(target), \(detail))
            RETURNING id
            """) { rows in
            let newest = try rows.first?.integer(0) ?? 0
            return .run("DELETE FROM audit_log WHERE id <= \(newest - Int64(AuditLimits.entriesKept))") { _ in self }
        }
    }
}
