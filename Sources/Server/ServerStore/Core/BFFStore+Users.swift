import Foundation
import ServerAPI

/// Users: a name and a bcrypt hash of the password, never the password; an admin may publish
/// micro-apps. Deleting a user deletes everything of theirs (the foreign keys cascade).
extension BFFStore {
    /// The lock every new user's name is chosen under, so that two made at once cannot look alike.
    static let namesLock = "users.names"

    /// Adds a user with a bcrypt hash of `password`; with no password, an account that only a
    /// token opens (the embedded server's local user).
    /// - Throws: `BFFStoreError.userExists`, `.userLooksLike` or `.invalidUserName`.
    @discardableResult
    package func addUser(name: String, password: String?, isAdmin: Bool) async throws -> BFFUser {
        let hash = try await Passwords.newUserHash(name: name, password: password, cost: bcryptCost)
        return try await runWrite(.lock(Self.namesLock, next: .run("SELECT name FROM users") { names in
            // A name that looks like another user's is theirs (UTS #39's skeleton).
            if let existing = NameSkeleton.lookAlike(of: name, among: try names.map { try $0.text(0) }) {
                throw BFFStoreError.userLooksLike(name: name, existing: existing)
            }
            return .run("""
                INSERT INTO users (name, password_hash, is_admin, created_at) VALUES (\(name), \(hash), \(isAdmin), \(.now))
                ON CONFLICT (name) DO NOTHING RETURNING id
                """) { rows in
                guard let id = try rows.first?.integer(0) else { throw BFFStoreError.userExists(name: name) }
                return .done(BFFUser(id: id, name: name, isAdmin: isAdmin))
            }
        }))
    }

    /// The user whose name and password match, or nil; takes as long for an unknown name as for a
    /// wrong password, and a user without a password (the local one) never matches.
    package func authenticate(name: String, password: String) async throws -> BFFUser? {
        let found = try await runRead(Plan.run("SELECT id, password_hash, is_admin FROM users WHERE name = \(name)") { rows in
            .done(try rows.first.map { row in (BFFUser(id: try row.integer(0), name: name, isAdmin: try row.bool(2)), try row.text(1)) })
        }, snapshot: false)
        guard let (user, hash) = found, hash != Passwords.none else {
            try await Passwords.spendAsMuchAsACheck(password, cost: bcryptCost)
            return nil
        }
        return try await Passwords.verify(password, hash: hash) ? user : nil
    }

    /// The user with this id, or nil when there is none (e.g. deleted since a token was issued).
    /// Every authenticated request asks this.
    package func user(id: Int64) async throws -> BFFUser? {
        try await runRead(Plan.run("SELECT name, is_admin FROM users WHERE id = \(id)") { rows in
            .done(try rows.first.map { row in BFFUser(id: id, name: try row.text(0), isAdmin: try row.bool(1)) })
        }, snapshot: false)
    }

    package func user(named name: String) async throws -> BFFUser? {
        try await runRead(Plan.run("SELECT id, is_admin FROM users WHERE name = \(name)") { rows in
            .done(try rows.first.map { row in BFFUser(id: try row.integer(0), name: name, isAdmin: try row.bool(1)) })
        }, snapshot: false)
    }

    /// All users, by name.
    package func users() async throws -> [BFFUser] {
        try await runRead(Plan.run("SELECT id, name, is_admin FROM users ORDER BY name\(.bytewise)") { rows in
            .done(try rows.map { row in BFFUser(id: try row.integer(0), name: try row.text(1), isAdmin: try row.bool(2)) })
        }, snapshot: false)
    }

    /// Makes a user an admin or not; returns whether there is such a user.
    @discardableResult
    package func setAdmin(name: String, _ isAdmin: Bool) async throws -> Bool {
        try await runWrite(Plan.run("UPDATE users SET is_admin = \(isAdmin) WHERE name = \(name) RETURNING 1") { rows in .done(!rows.isEmpty) })
    }

    /// Deletes a user and everything of theirs; returns whether there was one. The audit log says
    /// so, and the members of canvases the user had open hear that they are gone.
    @discardableResult
    package func deleteUser(name: String) async throws -> Bool {
        let now = Date().timeIntervalSince1970
        let deleted = try await runWrite(Plan.run("""
            SELECT (SELECT COUNT(*) FROM canvases c JOIN users u ON u.id = c.owner_id WHERE u.name = \(name)),
                   (SELECT COUNT(*) FROM canvas_members m JOIN users u ON u.id = m.user_id WHERE u.name = \(name))
            """) { counts in
            let (owned, memberships) = (try counts.first?.integer(0) ?? 0, try counts.first?.integer(1) ?? 0)
            return .run("DELETE FROM users WHERE name = \(name) RETURNING id") { rows in
                guard let id = try rows.first?.integer(0) else { return .done([Int64]()) }
                // Presence is kept by name: the user's own canvases took theirs with them.
                return .run("DELETE FROM canvas_presence WHERE user_name = \(name) RETURNING canvas_id") { rows in
                    let left = Set(try rows.map { try $0.integer(0) }).sorted()
                    return left.reduce(Plan<Void>.done(())) { plan, canvas in plan.then { _ in Self.announcePresence(of: canvas, now: now) } }.then { _ in
                        Plan.done([id]).audited(.userDeleted, by: AuditActor.serverOperator, target: "user \(name)",
                                                detail: "with \(owned) canvases of theirs and \(memberships) memberships", counted: false)
                    }
                }
            }
        })
        for owner in deleted { liveEvents.committed(.userDeleted(owner)) }
        return !deleted.isEmpty
    }
}
