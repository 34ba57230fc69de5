import CalendarTime
import Foundation
import ServerAPI

/// A user as a request's token finds them: who they are and which of their sessions are live, so a
/// token of a session that ended is refused on every instance within `RecentUsers`' validity.
package struct SignedInUser: Sendable, Equatable {
    package let user: BFFUser
    package let sessions: Set<String>
    /// When the sessions were read: a session started since is not among them.
    package let asOf: Date

    package init(user: BFFUser, sessions: Set<String>, asOf: Date = Date()) {
        self.user = user
        self.sessions = sessions
        self.asOf = asOf
    }

    /// Whether a token of `session`, made at `issuedAt`, is good: its session is live, or it
    /// was made too near the reading (within `skew`) for it to say, so the sessions must be read again.
    package func admits(_ session: String, issuedAt: Date?) -> Admission {
        if sessions.contains(session) { return .yes }
        guard let issuedAt, issuedAt > asOf.addingTimeInterval(-Self.skew) else { return .no }
        return .readAgain
    }

    package enum Admission: Sendable { case yes, no, readAgain }

    /// How far apart instances' clocks may be, in seconds.
    package static let skew: TimeInterval = 2
}

/// How a session signs in, as the sessions table and `SessionInfo` name it.
package enum SessionMethod: String, Sendable {
    case password
    case singleSignOn = "sso"
    /// The embedded server's own account, its token published to this machine's user.
    case local
}

/// A user's sessions: each sign-in a row, its tokens good while the row is there and unexpired.
/// A session ends when its user ends it (`termcanvas sessions end`), an admin does, its user signs
/// in more than `SessionInfo.perUser` times, or its token expires with no renewal left to it: a
/// single sign-on's lives on past its token while its renewal does (a dashboard started the next
/// morning renews it), and is listed meanwhile, to be ended.
extension BFFStore {
    /// Starts a session for `user`, audits the login and tells the user's dashboards of it
    /// (`auth.session.started`). Their least recently renewed session past `SessionInfo.perUser`
    /// ends, as do those expired. This machine's own server (`local`) keeps one session, started
    /// at each of its starts, neither audited nor told.
    /// - Returns: the session's id, for the token.
    package func startSession(for user: BFFUser, method: SessionMethod, address: String, client: String?, expires: Date,
                             now: Date = Date()) async throws -> String {
        let id = Self.newSessionID()
        let info = SessionInfo(id: id, method: method.rawValue, address: address, client: client, startedAt: UTCInstant(now).iso,
                               renewedAt: UTCInstant(now).iso, current: false)
        let (at, until) = (now.timeIntervalSince1970, expires.timeIntervalSince1970)
        let started = Plan.run("""
            DELETE FROM sessions WHERE user_id = \(user.id) AND (NOT \(Self.isLive(at: at)) OR (method = 'local' AND \(method == .local))
                OR id IN (SELECT id FROM sessions WHERE user_id = \(user.id) ORDER BY renewed_at DESC LIMIT 1000 OFFSET \(SessionInfo.perUser - 1)))
            """) { _ in
            .run("""
                INSERT INTO sessions (id, user_id, method, address, client, started_at, renewed_at, expires_at)
                VALUES (\(id), \(user.id), \(method.rawValue), \(address), \(client), \(at), \(at), \(until))
                """) { _ in .done(id) }
        }
        guard method != .local else { return try await runWrite(started) }
        let how = method == .singleSignOn ? "single sign-on" : method.rawValue
        return try await runWrite(started.then { id in Plan.record(.authSessionStarted, owner: user.id, data: info, then: .done(id)) }
            .audited(.userLoggedIn, by: user.name, target: "user \(user.name)", detail: "by \(how) from \(address)", counted: false))
    }

    /// Renews session `id` of `userID` until `expires`, with the renewal just taken; false when it
    /// has ended.
    package func renewSession(_ id: String, of userID: Int64, expires: Date, now: Date = Date()) async throws -> Bool {
        try await runWrite(.run("""
            UPDATE sessions SET renewed_at = \(now.timeIntervalSince1970), expires_at = \(expires.timeIntervalSince1970)
            WHERE id = \(id) AND user_id = \(userID) RETURNING 1
            """) { changed in .done(!changed.isEmpty) })
    }

    /// Whether a session has not ended at `at`: its token is good, or a renewal is kept for it.
    private static func isLive(at: Double) -> SQLStatement {
        "(expires_at > \(at) OR EXISTS (SELECT 1 FROM sso_sessions r WHERE r.session_id = sessions.id))"
    }

    /// The user's live sessions, most recently renewed first; `current` marks `current`'s.
    package func sessions(of userID: Int64, current: String?, now: Date = Date()) async throws -> [SessionInfo] {
        try await runRead(Plan.run("""
            SELECT id, method, address, client, started_at, renewed_at FROM sessions
            WHERE user_id = \(userID) AND \(Self.isLive(at: now.timeIntervalSince1970)) ORDER BY renewed_at DESC, id
            """) { rows in
            .done(try rows.map { row in
                let id = try row.text(0)
                return SessionInfo(id: id, method: try row.text(1), address: try row.text(2), client: try row.optionalText(3),
                                   startedAt: UTCInstant(Date(timeIntervalSince1970: try row.real(4))).iso,
                                   renewedAt: UTCInstant(Date(timeIntervalSince1970: try row.real(5))).iso, current: id == current)
            })
        }, snapshot: false)
    }

    /// Ends the sessions of `user` that `which` picks, by `actor` (the user, or an admin), with
    /// their single sign-on renewals; returns how many ended.
    package func endSessions(of user: BFFUser, _ which: SessionSelection, by actor: String) async throws -> Int {
        let chosen: SQLStatement = switch which {
        case .one(let id): "id = \(id)"
        case .allBut(let id): "id <> \(id)"
        case .all: "1 = 1"
        }
        return try await runWrite(.run("DELETE FROM sso_sessions WHERE user_id = \(user.id) AND session_id IN (SELECT id FROM sessions WHERE user_id = \(user.id) AND \(chosen))") { _ in
            .run("DELETE FROM sessions WHERE user_id = \(user.id) AND \(chosen) RETURNING 1") { deleted in
                let ended = deleted.count
                guard ended > 0 else { return .done(0) }
                let what = switch which {
                case .one(let id): "session \(id)"
                case .allBut(let id): "\(ended) session\(ended == 1 ? "" : "s") but \(id)"
                case .all: "\(ended) session\(ended == 1 ? "" : "s"), all"
                }
                return Plan.done(ended).audited(.sessionEnded, by: actor, target: "user \(user.name)", detail: what, counted: false)
            }
        })
    }

    /// The user of `id` with their live sessions; nil when there is no such user.
    package func signedInUser(id: Int64, now: Date = Date()) async throws -> SignedInUser? {
        try await runRead(Plan.run("SELECT name, is_admin FROM users WHERE id = \(id)") { rows in
            guard let row = rows.first else { return .done(nil) }
            let user = BFFUser(id: id, name: try row.text(0), isAdmin: try row.bool(1))
            return .run("SELECT id FROM sessions WHERE user_id = \(id) AND expires_at > \(now.timeIntervalSince1970)") { sessions in
                .done(SignedInUser(user: user, sessions: Set(try sessions.map { try $0.text(0) }), asOf: now))
            }
        }, snapshot: false)
    }

    /// A session's id: 64 random bits in hex, short enough to type in `termcanvas sessions end`.
    private static func newSessionID() -> String {
        let value = UInt64.random(in: .min ... .max)
        let hex = String(value, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}

/// Which of a user's sessions to end.
package enum SessionSelection: Sendable, Equatable {
    case one(String)
    /// All but this one (the caller's own).
    case allBut(String)
    case all
}
