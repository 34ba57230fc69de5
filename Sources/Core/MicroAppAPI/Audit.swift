/// What an entry of the audit log records: who shared, unshared, created or deleted which canvas,
/// and who published or withdrew which app. A canvas's edits are not here: each canvas keeps its
/// own list of changes, by author (`GET /api/canvas/{id}/changes`).
public enum AuditAction: String, Codable, Sendable, CaseIterable {
    case canvasCreated = "canvas.created"
    case canvasDeleted = "canvas.deleted"
    /// `detail`: the member and their role, `bob as viewer`.
    case canvasShared = "canvas.shared"
    /// `detail`: the member.
    case canvasUnshared = "canvas.unshared"
    /// `target`: the canvas by its old name; `detail`: the new one, `to "ops"`.
    case canvasRenamed = "canvas.renamed"
    /// `detail`: the version.
    case appPublished = "registry.app.published"
    case appWithdrawn = "registry.app.withdrawn"
}

/// One entry of the audit log (`GET /api/audit`, admins only), newest first.
public struct AuditEntry: Codable, Sendable, Equatable {
    public var id: Int64
    /// UTC, with milliseconds.
    public var at: String
    /// The user who did it.
    public var actor: String
    public var action: AuditAction
    /// What it was done to: `canvas 12 "on-call"`, `app deploys`.
    public var target: String
    public var detail: String

    public init(id: Int64, at: String, actor: String, action: AuditAction, target: String, detail: String) {
        self.id = id
        self.at = at
        self.actor = actor
        self.action = action
        self.target = target
        self.detail = detail
    }
}

/// The audit log's bounds.
public enum AuditLimits {
    /// Entries kept; older ones go as new ones come.
    public static let entriesKept = 10_000
    public static let defaultPageSize = 50
    public static let maxPageSize = 200
}
