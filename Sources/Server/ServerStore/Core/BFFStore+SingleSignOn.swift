import Foundation
import ServerAPI

/// A device login the server started at the provider, as a poll of it finds it.
package enum DeviceLoginPoll: Sendable, Equatable {
    /// Ask the provider now, with this device code; the next turn is `interval` seconds away.
    case ask(deviceCode: String, interval: Double)
    /// Asked less than an interval ago: wait this long first.
    case tooSoon(interval: Double)
    /// Already turned into a login: a device code signs in once.
    case redeemed
    case expired
    case unknown
}

/// How a user signs in, for `termcanvas user list`.
package enum SignInMethod: Sendable, Equatable {
    case password
    case singleSignOn(issuer: String)
    /// No password and no provider: the embedded server's own account, opened by its token only.
    case tokenOnly
}

/// What a single sign-on did to the user it names.
package struct SingleSignOnUser: Sendable, Equatable {
    package let user: BFFUser
    package let created: Bool
    /// The name the user would have had, when another user had it already.
    package let nameTaken: String?
}

/// Single sign-on: users keyed by their provider's issuer and subject, the device logins under
/// way, the sessions a refresh token renews, and the tokens already used once.
extension BFFStore {
    /// Device logins one address may have under way at once, and all of them together.
    package static let deviceLoginsPerAddress = 10
    package static let deviceLoginsAtOnce = 10_000
    /// Renewals (single sign-on sessions a refresh token renews) one user keeps; past it, their oldest ends.
    package static let renewalsPerUser = 20

    /// Whether another device login may start from `address`, asked before the provider is: a
    /// start refused here costs the provider nothing.
    /// - Throws: `BFFStoreError.quotaReached` past `deviceLoginsPerAddress` or `deviceLoginsAtOnce`.
    package func checkDeviceLoginRoom(address: String, now: Double) async throws {
        try await runRead(Self.deviceLoginRoom(address: address, now: now, then: .done(())), snapshot: false)
    }

    /// Keeps a device login the server started, known to its client by `loginHash`'s preimage.
    /// - Throws: `BFFStoreError.quotaReached` past `deviceLoginsPerAddress` or `deviceLoginsAtOnce`.
    package func addDeviceLogin(loginHash: String, deviceCode: String, address: String, expiresAt: Double, interval: Double,
                               now: Double) async throws {
        try await runWrite(.lock("sso.logins", next: .run("DELETE FROM sso_logins WHERE expires_at < \(now)") { _ in
            Self.deviceLoginRoom(address: address, now: now, then: .run("""
                INSERT INTO sso_logins (id_hash, device_code, address, expires_at, poll_interval, next_poll_at)
                VALUES (\(loginHash), \(deviceCode), \(address), \(expiresAt), \(interval), \(now))
                """) { _ in .done(()) })
        }))
    }

    /// Counts the logins under way (a finished one is kept until it expires, so that its replay is
    /// refused, but holds no place: ten sign-ins from one address, behind a NAT or a proxy, do not
    /// lock it out), then `next`.
    private static func deviceLoginRoom<T>(address: String, now: Double, then next: Plan<T>) -> Plan<T> {
        .run("""
            SELECT COUNT(*), COALESCE(SUM(CASE WHEN address = \(address) THEN 1 ELSE 0 END), 0) FROM sso_logins
            WHERE device_code IS NOT NULL AND expires_at >= \(now)
            """) { counts in
            guard try counts.first?.integer(0) ?? 0 < Int64(deviceLoginsAtOnce) else {
                throw BFFStoreError.quotaReached(what: "sign-ins under way on this server", limit: deviceLoginsAtOnce)
            }
            guard try counts.first?.integer(1) ?? 0 < Int64(deviceLoginsPerAddress) else {
                throw BFFStoreError.quotaReached(what: "sign-ins under way from one address", limit: deviceLoginsPerAddress)
            }
            return next
        }
    }

    /// Takes the turn to ask the provider about a device login: one asker per interval, across
    /// instances.
    package func pollDeviceLogin(loginHash: String, now: Double) async throws -> DeviceLoginPoll {
        try await runWrite(.run("""
            UPDATE sso_logins SET next_poll_at = \(now) + poll_interval
            WHERE id_hash = \(loginHash) AND device_code IS NOT NULL AND expires_at > \(now) AND next_poll_at <= \(now)
            RETURNING device_code, poll_interval
            """) { taken in
            if let row = taken.first, let code = try row.optionalText(0) { return .done(.ask(deviceCode: code, interval: try row.real(1))) }
            return .run("SELECT device_code, expires_at, poll_interval FROM sso_logins WHERE id_hash = \(loginHash)") { rows in
                guard let row = rows.first else { return .done(.unknown) }
                if try row.optionalText(0) == nil { return .done(.redeemed) }
                if try row.real(1) <= now { return .done(.expired) }
                return .done(.tooSoon(interval: try row.real(2)))
            }
        })
    }

    /// The provider asked for slower polls (`slow_down`): 5 seconds more between them (RFC 8628 §3.5).
    package func slowDeviceLogin(loginHash: String) async throws {
        try await runWrite(.run("UPDATE sso_logins SET poll_interval = poll_interval + 5 WHERE id_hash = \(loginHash)") { _ in .done(()) })
    }

    /// Marks a device login used; false when it was already (another poll won).
    package func redeemDeviceLogin(loginHash: String) async throws -> Bool {
        try await runWrite(.run("""
            UPDATE sso_logins SET device_code = NULL WHERE id_hash = \(loginHash) AND device_code IS NOT NULL RETURNING 1
            """) { rows in .done(!rows.isEmpty) })
    }

    /// Forgets a device login the provider ended (denied, expired).
    package func endDeviceLogin(loginHash: String) async throws {
        try await runWrite(.run("DELETE FROM sso_logins WHERE id_hash = \(loginHash)") { _ in .done(()) })
    }

    /// Records a token as used until it expires; false when it was used before.
    package func spendToken(hash: String, expiresAt: Double, now: Double) async throws -> Bool {
        try await runWrite(.run("DELETE FROM sso_spent_tokens WHERE token_hash IN (SELECT token_hash FROM sso_spent_tokens WHERE expires_at < \(now) LIMIT 64)") { _ in
            .run("INSERT INTO sso_spent_tokens (token_hash, expires_at) VALUES (\(hash), \(expiresAt)) ON CONFLICT (token_hash) DO NOTHING RETURNING 1") { rows in
                .done(!rows.isEmpty)
            }
        })
    }

    /// The user the provider's `issuer` knows as `subject`, made at their first sign-in and named
    /// after `names` (the first that is a valid user name; `-2`, `-3`… when it is taken); never
    /// matched by name or e-mail. With an `adminGroup`, the user is an admin exactly while in it.
    /// The audit log records the creation and each change of admin rights.
    package func singleSignOnUser(issuer: String, subject: String, names: [String], groups: [String],
                                 adminGroup: String?) async throws -> SingleSignOnUser {
        let admin = adminGroup.map { groups.contains($0) }
        return try await runWrite(.lock("users.sso", next: .run("""
            SELECT id, name, is_admin FROM users WHERE sso_issuer = \(issuer) AND sso_subject = \(subject)
            """) { found in
            if let row = found.first {
                let wasAdmin = try row.bool(2)
                let user = BFFUser(id: try row.integer(0), name: try row.text(1), isAdmin: admin ?? wasAdmin)
                let result = SingleSignOnUser(user: user, created: false, nameTaken: nil)
                guard let admin, admin != wasAdmin else { return .done(result) }
                return .run("UPDATE users SET is_admin = \(admin) WHERE id = \(user.id)") { _ in
                    Plan.done(result).audited(admin ? .adminGranted : .adminRevoked, by: AuditActor.singleSignOn, target: "user \(user.name)",
                                              detail: admin ? "in group \(adminGroup ?? "")" : "no longer in group \(adminGroup ?? "")",
                                              counted: false)
                }
            }
            let wanted = Self.userName(from: names)
            let candidates = [wanted] + (2...50).map { "\(wanted.prefix(BFFUser.nameMaxLength - 3))-\($0)" }
            // Taken is a name any user has, or one that looks like it (UTS #39's skeleton).
            return .lock(Self.namesLock, next: .run("SELECT name FROM users") { taken in
                let takenLooks = Set(try taken.map { NameSkeleton.of(try $0.text(0)) })
                let name = candidates.first { !takenLooks.contains(NameSkeleton.of($0)) }
                    ?? "\(wanted.prefix(40))-\(UInt32.random(in: 100_000...999_999))"
                return .run("""
                    INSERT INTO users (name, password_hash, is_admin, created_at, sso_issuer, sso_subject)
                    VALUES (\(name), \(Passwords.none), \(admin ?? false), \(.now), \(issuer), \(subject)) RETURNING id
                    """) { rows in
                    guard let id = try rows.first?.integer(0) else { throw BFFStoreError.userExists(name: name) }
                    let nameTaken = name == wanted ? nil : wanted
                    let user = BFFUser(id: id, name: name, isAdmin: admin ?? false)
                    return Plan.done(SingleSignOnUser(user: user, created: true, nameTaken: nameTaken))
                        .audited(.userCreated, by: AuditActor.singleSignOn, target: "user \(name)",
                                 detail: "from \(issuer) as \(subject)" + (nameTaken.map { "; \($0) was taken" } ?? "")
                                     + (admin == true ? "; an admin by group \(adminGroup ?? "")" : ""), counted: false)
                }
            })
        }))
    }

    /// The first of `names` that is a valid user name once cut at `@` (an e-mail's local part)
    /// and rid of what a name may not hold; `user` when none is.
    static func userName(from names: [String]) -> String {
        for name in names {
            let local = name.split(separator: "@", maxSplits: 1).first.map(String.init) ?? ""
            let kept = String(local.unicodeScalars.filter { scalar in
                Character(scalar).isLetter || Character(scalar).isNumber || "._-".unicodeScalars.contains(scalar)
            }.prefix(BFFUser.nameMaxLength - 3).map(Character.init))
            if BFFUser.isValidName(kept) { return kept }
        }
        return "user"
    }

    /// Records a refused login in the audit log: how, from where and why.
    package func auditRefusedLogin(method: String, address: String, reason: String, userID: Int64? = nil) async throws {
        let entry = { @Sendable (actor: String) in
            Plan.done(()).audited(.loginRefused, by: actor, target: "sign-in", detail: "by \(method) from \(address): \(reason)", counted: false)
        }
        guard let userID else { return try await runWrite(entry(AuditActor.someone)) }
        try await runWrite(.run("SELECT name FROM users WHERE id = \(userID)") { rows in entry(try rows.first?.text(0) ?? AuditActor.someone) })
    }

    /// Keeps the renewal of session `sessionID`: the provider's refresh token, found again by
    /// `renewalHash`. A user keeps at most `renewalsPerUser`; past it their oldest ends.
    package func addRenewal(renewalHash: String, sessionID: String?, userID: Int64, refreshToken: String, now: Double) async throws {
        try await runWrite(.run("""
            DELETE FROM sso_sessions WHERE renewal_hash IN (SELECT renewal_hash FROM sso_sessions WHERE user_id = \(userID)
                ORDER BY created_at DESC LIMIT 1000 OFFSET \(Self.renewalsPerUser - 1))
            """) { _ in
            .run("""
                INSERT INTO sso_sessions (renewal_hash, user_id, refresh_token, created_at, session_id)
                VALUES (\(renewalHash), \(userID), \(refreshToken), \(now), \(sessionID))
                """) { _ in .done(()) }
        })
    }

    /// Takes the renewal of `renewalHash`: its user's id, its session's (nil for one kept before
    /// sessions were), its refresh token; nil when there is none. A renewal handle is used once
    /// (the renewal keeps a new one).
    package func takeRenewal(renewalHash: String) async throws
        -> (userID: Int64, sessionID: String?, refreshToken: String, issuer: String?, subject: String?)? {
        try await runWrite(.run("""
            DELETE FROM sso_sessions WHERE renewal_hash = \(renewalHash) RETURNING user_id, refresh_token, session_id
            """) { rows in
            guard let row = rows.first else { return .done(nil) }
            let (user, refresh, session) = (try row.integer(0), try row.text(1), try row.optionalText(2))
            return .run("SELECT sso_issuer, sso_subject FROM users WHERE id = \(user)") { users in
                .done((user, session, refresh, try users.first?.optionalText(0), try users.first?.optionalText(1)))
            }
        })
    }

    /// Every user with how they sign in, by name.
    package func userAccounts() async throws -> [(user: BFFUser, signIn: SignInMethod)] {
        try await runRead(Plan.run("SELECT id, name, is_admin, password_hash, sso_issuer FROM users ORDER BY name\(.bytewise)") { rows in
            .done(try rows.map { row in
                let user = BFFUser(id: try row.integer(0), name: try row.text(1), isAdmin: try row.bool(2))
                let method: SignInMethod = if let issuer = try row.optionalText(4) { .singleSignOn(issuer: issuer) } else if try row.text(3) == Passwords.none {
                    .tokenOnly
                } else { .password }
                return (user, method)
            })
        }, snapshot: false)
    }
}
