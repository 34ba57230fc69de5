import CalendarTime
import Foundation
import GRDB
import MicroAppAPI

extension SQLiteStore {
    /// Makes the registry list the built-in apps this server hosts, at the server's version, and
    /// no others: one it no longer hosts (`--apps`) is withdrawn, one it hosts again comes back.
    public func registerBuiltIns(_ apps: Set<MicroApp>) async throws {
        let version = MicroApp.version
        let now = UTCInstant.now.iso
        try write { db in
            for app in MicroApp.allCases {
                let info = app.info
                let hosted = apps.contains(app)
                try db.execute(sql: """
                    INSERT INTO registryApp (id, kind, name, description, currentVersion, withdrawnAt)
                    VALUES (?, 'builtin', ?, ?, ?, ?)
                    ON CONFLICT(id) DO UPDATE SET name = excluded.name, description = excluded.description,
                        currentVersion = excluded.currentVersion, withdrawnAt = excluded.withdrawnAt
                    """, arguments: [info.id, info.name, info.description, version, hosted ? nil : Date()])
                try db.execute(sql: """
                    INSERT OR IGNORE INTO registryVersion (appId, version, manifest, entry, publishedAt, publishedBy)
                    VALUES (?, ?, NULL, NULL, ?, NULL)
                    """, arguments: [info.id, version, now])
            }
        }
    }

    /// One page of the apps not withdrawn, by id after `cursor`, whose id, name or description
    /// contains `text` (ignoring case), of `kind` if given; and whether more follow.
    public func registryApps(matching text: String?, kind: RegistryAppKind?, after cursor: String?, limit: Int) async throws
        -> (items: [RegistryEntry], more: Bool) {
        try read { db in
            var conditions = ["withdrawnAt IS NULL"]
            var arguments: StatementArguments = []
            if let text, !text.isEmpty {
                conditions.append("(id LIKE ? ESCAPE '\\' OR name LIKE ? ESCAPE '\\' OR description LIKE ? ESCAPE '\\')")
                let pattern = RegistryEntry.containsPattern(text)
                arguments += [pattern, pattern, pattern]
            }
            if let kind {
                conditions.append("kind = ?")
                arguments += [kind.rawValue]
            }
            if let cursor {
                conditions.append("id > ?")
                arguments += [cursor]
            }
            let ids = try String.fetchAll(db, sql: "SELECT id FROM registryApp WHERE \(conditions.joined(separator: " AND ")) ORDER BY id LIMIT ?",
                                          arguments: arguments + [limit + 1])
            let items = try ids.prefix(limit).compactMap { try Self.registryEntry($0, in: db) }
            return (items, ids.count > limit)
        }
    }

    /// The app; nil when it was never published or is withdrawn.
    public func registryApp(_ id: String) async throws -> RegistryEntry? {
        try read { db in
            guard try Bool.fetchOne(db, sql: "SELECT 1 FROM registryApp WHERE id = ? AND withdrawnAt IS NULL", arguments: [id]) != nil else {
                return nil
            }
            return try Self.registryEntry(id, in: db)
        }
    }

    /// The entries of every remote app not withdrawn, for the health checks.
    public func remoteEntries() async throws -> [(id: String, entry: URL)] {
        try read { db in
            try Row.fetchAll(db, sql: """
                SELECT a.id, v.entry FROM registryApp a JOIN registryVersion v ON v.appId = a.id AND v.version = a.currentVersion
                WHERE a.kind = 'remote' AND a.withdrawnAt IS NULL ORDER BY a.id
                """).compactMap { row in (row["entry"] as String?).flatMap(URL.init(string:)).map { (row["id"], $0) } }
        }
    }

    /// Publishes `manifest` at `entry` as the app's new current version, by `user` (`PublishPlan`
    /// says what changes). A withdrawn app comes back, with new secrets.
    public func publish(_ manifest: RegistryManifest, version: SemanticVersion, entry: URL, by user: BFFUser, rotateSecrets: Bool,
                        makeSecret: @escaping @Sendable () -> String) async throws -> PublishOutcome {
        try keyedWrite { db in
            let existing = try Row.fetchOne(db, sql: "SELECT kind, withdrawnAt FROM registryApp WHERE id = ?", arguments: [manifest.id])
            let published = try String.fetchAll(db, sql: "SELECT version FROM registryVersion WHERE appId = ?", arguments: [manifest.id])
                .compactMap(SemanticVersion.init)
            let plan = PublishPlan(kind: existing?["kind"], withdrawn: existing?["withdrawnAt"] as Date? != nil, newest: published.max(),
                                   version: version, rotateSecrets: rotateSecrets)
            let secrets: (hook: String, entry: String)? = plan.secrets == .keep ? nil : (makeSecret(), makeSecret())
            switch plan.outcome {
            case .refused(let outcome): return outcome
            case .create:
                try db.execute(sql: """
                    INSERT INTO registryApp (id, kind, name, description, currentVersion, withdrawnAt) VALUES (?, 'remote', ?, ?, ?, NULL)
                    """, arguments: [manifest.id, manifest.name, manifest.description, version.description])
            case .keepVersion: break
            case .update:
                try db.execute(sql: """
                    UPDATE registryApp SET name = ?, description = ?, currentVersion = ?, withdrawnAt = NULL WHERE id = ?
                    """, arguments: [manifest.name, manifest.description, version.description, manifest.id])
            }
            switch plan.secrets {
            case .keep: break
            case .replace:
                try db.execute(sql: """
                    UPDATE registryApp SET hookSecret = ?, entrySecret = ?, previousHookSecret = NULL, previousEntrySecret = NULL,
                        secretsRotatedAt = NULL WHERE id = ?
                    """, arguments: [secrets?.hook, secrets?.entry, manifest.id])
            case .rotate:
                try db.execute(sql: """
                    UPDATE registryApp SET previousHookSecret = hookSecret, previousEntrySecret = entrySecret, hookSecret = ?,
                        entrySecret = ?, secretsRotatedAt = ? WHERE id = ?
                    """, arguments: [secrets?.hook, secrets?.entry, Date().timeIntervalSince1970, manifest.id])
            }
            if plan.addsVersion {
                let json = String(decoding: try JSONEncoder().encode(manifest), as: UTF8.self)
                try db.execute(sql: """
                    INSERT INTO registryVersion (appId, version, manifest, entry, publishedAt, publishedBy) VALUES (?, ?, ?, ?, ?, ?)
                    """, arguments: [manifest.id, version.description, json, entry.absoluteString, UTCInstant.now.iso, user.name])
            }
            guard let entry = try Self.registryEntry(manifest.id, in: db) else {
                throw BFFStoreError.unreadableRow("registryApp \(manifest.id), just written")
            }
            if plan.addsVersion { try record(.registryAppPublished, owner: nil, data: entry.info(health: nil), in: db) }
            return .published(entry, created: plan.outcome == .create, newSecrets: plan.secrets != .keep)
        }
    }

    /// Withdraws a remote app: it is no longer listed or mounted, its versions are kept.
    public func withdraw(_ id: String) async throws -> WithdrawOutcome {
        try keyedWrite { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT kind FROM registryApp WHERE id = ? AND withdrawnAt IS NULL",
                                             arguments: [id]) else { return .notFound }
            if row["kind"] as String == RegistryAppKind.builtin.rawValue { return .builtIn }
            try db.execute(sql: "UPDATE registryApp SET withdrawnAt = ? WHERE id = ?", arguments: [Date(), id])
            try db.execute(sql: "DELETE FROM hookDelivery WHERE appId = ?", arguments: [id])
            try record(.registryAppWithdrawn, owner: nil, data: DeletedApp(id: id), in: db)
            return .withdrawn
        }
    }

    /// Lets `app` reach `user` (its sessions, its webhooks' events); false when there is no such app.
    public func grant(_ app: String, to user: Int64) async throws -> Bool {
        try write { db in
            guard try Bool.fetchOne(db, sql: "SELECT 1 FROM registryApp WHERE id = ? AND kind = 'remote' AND withdrawnAt IS NULL",
                                    arguments: [app]) != nil else { return false }
            try db.execute(sql: "INSERT OR IGNORE INTO appGrant (userId, appId, grantedAt) VALUES (?, ?, ?)",
                           arguments: [user, app, Date()])
            return true
        }
    }

    /// Takes the grant back; false when there was none.
    public func revoke(_ app: String, from user: Int64) async throws -> Bool {
        try write { db in
            try db.execute(sql: "DELETE FROM appGrant WHERE userId = ? AND appId = ?", arguments: [user, app])
            return db.changesCount > 0
        }
    }

    public func isGranted(_ app: String, to user: Int64) async throws -> Bool {
        try read { db in
            try Bool.fetchOne(db, sql: "SELECT 1 FROM appGrant WHERE userId = ? AND appId = ?", arguments: [user, app]) != nil
        }
    }

    public func recordHealth(_ change: AppHealthChange) async throws {
        try write { db in try record(.registryAppHealth, owner: nil, data: change, in: db) }
    }

    private static func registryEntry(_ id: String, in db: Database) throws -> RegistryEntry? {
        guard let app = try Row.fetchOne(db, sql: "SELECT * FROM registryApp WHERE id = ?", arguments: [id]) else { return nil }
        let versions = try Row.fetchAll(db, sql: "SELECT * FROM registryVersion WHERE appId = ?", arguments: [id]).map { row in
            RegistryEntry.StoredVersion(version: row["version"], manifest: row["manifest"], entry: row["entry"],
                                        publishedAt: row["publishedAt"], publishedBy: row["publishedBy"])
        }
        return try RegistryEntry(
            .init(id: id, kind: app["kind"], name: app["name"], description: app["description"], currentVersion: app["currentVersion"],
                  hookSecret: app["hookSecret"], entrySecret: app["entrySecret"], previousHookSecret: app["previousHookSecret"],
                  previousEntrySecret: app["previousEntrySecret"], secretsRotatedAt: app["secretsRotatedAt"]),
            versions: versions)
    }
}

extension RegistryEntry {
    /// The app as the registry lists it, with its health (nil: not checked, or built in).
    func info(health: AppHealth?) -> MicroAppInfo {
        switch kind {
        case .builtin:
            var info = MicroApp(rawValue: id)?.info ?? MicroAppInfo(id: id, name: name, version: current.description,
                                                                     description: description, basePath: "/api/\(id)", events: [])
            info.health = .up
            return info
        case .remote:
            return MicroAppInfo(id: id, name: name, version: current.description, description: description,
                                basePath: APIPath.appProxy(id), events: manifest?.events.publishes ?? [], kind: .remote,
                                health: health ?? AppHealth(state: .unknown), manifest: manifest)
        }
    }
}

/// `{"id": "deploys"}`: the data of `registry.app.withdrawn`.
struct DeletedApp: Codable, Sendable {
    let id: String
}
