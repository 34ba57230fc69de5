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
    /// By the server's operator (`termcanvas user delete`), whose entries name `(operator)`, a name
    /// no user can have; `detail`: what went with the user.
    case userDeleted = "user.deleted"
    /// A user's first install of a package, by `(a user)`: the log never says who (`detail`: how
    /// many users have it now).
    case appInstalled = "registry.app.installed"
    /// An admin let a user publish a package's versions; `detail`: the user.
    case publisherAdded = "registry.publisher.added"
    case publisherRemoved = "registry.publisher.removed"
    /// A login, by the user; `detail`: how and from where, `by single sign-on from 10.0.0.7`.
    case userLoggedIn = "user.login"
    /// A login refused, by `(someone)`, or by the user whose session a refused renewal was;
    /// `detail`: how, from where and why, `by single sign-on from 10.0.0.7: the token has expired`.
    case loginRefused = "user.login.refused"
    /// Sessions ended, by their user or an admin; `detail`: which, `session 3f9a0c21d4e5b6a7`.
    case sessionEnded = "user.session.ended"
    /// A user made at their first single sign-on, by `(single sign-on)`; `detail`: the issuer and
    /// subject, and the name they got when theirs was taken.
    case userCreated = "user.created"
    /// Admin rights given or taken by the provider's admin group at a login, by `(single sign-on)`.
    case adminGranted = "user.admin.granted"
    case adminRevoked = "user.admin.revoked"
}

/// The actors of entries no user made: names no user can have.
public enum AuditActor {
    /// The server's operator, at its command line.
    public static let serverOperator = "(operator)"
    /// A user the log does not name (a package's installs are counted, never attributed).
    public static let someUser = "(a user)"
    /// The identity provider, whose word made or changed a user at a login.
    public static let singleSignOn = "(single sign-on)"
    /// Whoever tried a login that was refused: not known to be any user.
    public static let someone = "(someone)"
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

/// The audit log's bounds: entries are kept by age, never pushed out by others' newer ones, and
/// each user may make only so many audited changes a day, so no one can flush the log with noise.
public enum AuditLimits {
    /// Entries are kept this long.
    public static let retentionDays = 90
    /// Audited changes (creating, sharing, renaming, deleting canvases; publishing) one user may
    /// make in any 24 hours; past it they are refused (429) until the oldest is a day old. With
    /// `retentionDays`, what one user can put in the log is bounded: 45 000 entries of at most
    /// 2 × `fieldMaxBytes` each.
    public static let changesPerUserPerDay = 500
    /// The most bytes of an entry's `target` and of its `detail` (longer ones are cut).
    public static let fieldMaxBytes = 512
    /// The most entries `layout audit --limit` asks for.
    public static let entriesListed = 10_000
    public static let defaultPageSize = 50
    public static let maxPageSize = 200
}
