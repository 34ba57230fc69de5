import CalendarTime
import CanvasCore
import Foundation
import ServerAPI

/// The registry: one row per app ever published, withdrawn apps hidden but their versions kept
/// (so a later publish must still be newer), what a publish changes decided by `PublishPlan`, and
/// which users let a remote app reach them.
extension BFFStore {
    /// Makes the registry list the built-in apps this server hosts, at the server's version, and
    /// no others: one it no longer hosts (`--apps`) is withdrawn, one it hosts again comes back.
    /// Instances starting together each write the same rows.
    package func registerBuiltIns(_ apps: Set<ServerApp>) async throws {
        let now = UTCInstant.now.iso
        let register = ServerApp.allCases.reversed().reduce(Plan<Void>.done(())) { next, app in
            let info = app.info
            return .run("""
                INSERT INTO registry_apps (id, kind, name, description, current_version, withdrawn_at)
                VALUES (\(info.id), 'builtin', \(info.name), \(info.description), \(ServerApp.version), \(apps.contains(app) ? nil : Date()))
                ON CONFLICT (id) DO UPDATE SET name = excluded.name, description = excluded.description,
                    current_version = excluded.current_version, withdrawn_at = excluded.withdrawn_at
                """) { _ in
                .run("""
                    INSERT INTO registry_versions (app_id, version, published_at) VALUES (\(info.id), \(ServerApp.version), \(now))
                    ON CONFLICT DO NOTHING
                    """) { _ in next }
            }
        }
        try await runWrite(register)
    }

    /// One page of the apps not withdrawn, by id after `cursor`, whose id, name or description
    /// contains `text` ignoring case (SQLite folds only ASCII letters, PostgreSQL's `ILIKE` every
    /// letter), of `kind` if given, else packages only when `includingPackages`; and whether more follow.
    package func registryApps(matching text: String?, kind: RegistryAppKind?, includingPackages: Bool = false, after cursor: String?,
                             limit: Int) async throws
        -> (items: [RegistryEntry], more: Bool) {
        var statement: SQLStatement = "SELECT id FROM registry_apps WHERE withdrawn_at IS NULL"
        if let text, !text.isEmpty {
            let pattern = RegistryEntry.containsPattern(text)
            statement += """
                 AND (id \(.likeIgnoringCase) \(pattern) ESCAPE '\\' OR name \(.likeIgnoringCase) \(pattern) ESCAPE '\\'
                    OR description \(.likeIgnoringCase) \(pattern) ESCAPE '\\')
                """
        }
        if let kind {
            statement += " AND kind = \(kind.rawValue)"
        } else if !includingPackages {
            statement += " AND kind <> 'package'"
        }
        if let cursor { statement += " AND id > \(cursor)" }
        statement += " ORDER BY id LIMIT \(limit + 1)"
        return try await runRead(Plan.run(statement) { rows in
            let ids = try rows.map { row in try row.text(0) }
            return Self.entries(Array(ids.prefix(limit))).then { entries in .done((entries, ids.count > limit)) }
        }, snapshot: true)
    }

    /// The app; nil when it was never published or is withdrawn.
    package func registryApp(_ id: String) async throws -> RegistryEntry? {
        try await runRead(Plan.run("SELECT 1 FROM registry_apps WHERE id = \(id) AND withdrawn_at IS NULL") { rows in
            rows.isEmpty ? .done(nil) : Self.entry(id)
        }, snapshot: true)
    }

    /// The entries of every remote app not withdrawn, for the health checks.
    package func remoteEntries() async throws -> [(id: String, entry: URL)] {
        try await runRead(Plan.run("""
            SELECT a.id, v.entry FROM registry_apps a JOIN registry_versions v ON v.app_id = a.id AND v.version = a.current_version
            WHERE a.kind = 'remote' AND a.withdrawn_at IS NULL ORDER BY a.id
            """) { rows in
            .done(try rows.compactMap { row in try row.optionalText(1).flatMap(URL.init(string:)).map { (try row.text(0), $0) } })
        }, snapshot: false)
    }

    /// Publishes `manifest` at `entry` as the app's new current version, by `user` (`PublishPlan`
    /// says what changes). A withdrawn app comes back, with new secrets. Publishes of one app take
    /// turns (a lock of the app's), across instances too.
    package func publish(_ manifest: RegistryManifest, version: SemanticVersion, entry: URL, by user: BFFUser, rotateSecrets: Bool,
                        makeSecret: @escaping @Sendable () -> String) async throws -> PublishOutcome {
        let id = manifest.id
        let json = String(decoding: try JSONEncoder().encode(manifest), as: UTF8.self)
        return try await keyedWrite(.lock("registry.app." + id, next: .run("""
            SELECT kind, withdrawn_at IS NOT NULL FROM registry_apps WHERE id = \(id)
            """) { existing in
            .run("SELECT version FROM registry_versions WHERE app_id = \(id)") { versions in
                let plan = PublishPlan(kind: try existing.first?.text(0), withdrawn: try existing.first?.bool(1) ?? false,
                                       newest: try versions.compactMap { row in SemanticVersion(try row.text(0)) }.max(),
                                       version: version, rotateSecrets: rotateSecrets)
                let secrets: (hook: String, entry: String)? = plan.secrets == .keep ? nil : (makeSecret(), makeSecret())
                var statements: [SQLStatement] = []
                switch plan.outcome {
                case .refused(let outcome): return .done(outcome)
                case .create:
                    statements.append("""
                        INSERT INTO registry_apps (id, kind, name, description, current_version)
                        VALUES (\(id), 'remote', \(manifest.name), \(manifest.description), \(version.description))
                        """)
                case .keepVersion: break
                case .update:
                    statements.append("""
                        UPDATE registry_apps SET name = \(manifest.name), description = \(manifest.description),
                            current_version = \(version.description), withdrawn_at = NULL WHERE id = \(id)
                        """)
                }
                switch plan.secrets {
                case .keep: break
                case .replace:
                    statements.append("""
                        UPDATE registry_apps SET hook_secret = \(secrets?.hook), entry_secret = \(secrets?.entry), previous_hook_secret = NULL,
                            previous_entry_secret = NULL, secrets_rotated_at = NULL WHERE id = \(id)
                        """)
                case .rotate:
                    statements.append("""
                        UPDATE registry_apps SET previous_hook_secret = hook_secret, previous_entry_secret = entry_secret,
                            hook_secret = \(secrets?.hook), entry_secret = \(secrets?.entry), secrets_rotated_at = \(Date().timeIntervalSince1970)
                        WHERE id = \(id)
                        """)
                }
                if plan.addsVersion {
                    statements.append("""
                        INSERT INTO registry_versions (app_id, version, manifest, entry, published_at, published_by)
                        VALUES (\(id), \(version.description), \(json), \(entry.absoluteString), \(UTCInstant.now.iso), \(user.name))
                        """)
                }
                let published = Self.entry(id).then { stored -> Plan<PublishOutcome> in
                    guard let stored else { throw BFFStoreError.unreadableRow("registry_apps \(id), just written") }
                    let outcome = PublishOutcome.published(stored, created: plan.outcome == .create, newSecrets: plan.secrets != .keep)
                    guard plan.addsVersion else { return .done(outcome) }
                    return .record(.registryAppPublished, owner: nil, data: stored.info(health: nil),
                                   then: Plan.done(outcome).audited(.appPublished, by: user.name, target: "app \(id)", detail: version.description))
                }
                return statements.reversed().reduce(published) { next, statement in .run(statement) { _ in next } }
            }
        }))
    }

    /// Withdraws a remote app: it is no longer listed or mounted, its versions are kept, its
    /// undelivered webhooks dropped.
    package func withdraw(_ id: String, by user: BFFUser) async throws -> WithdrawOutcome {
        try await keyedWrite(Plan.run("SELECT kind FROM registry_apps WHERE id = \(id) AND withdrawn_at IS NULL\(.forUpdate)") { rows in
            guard let kind = try rows.first?.text(0) else { return .done(.notFound) }
            guard kind != RegistryAppKind.builtin.rawValue else { return .done(.builtIn) }
            return .run("UPDATE registry_apps SET withdrawn_at = \(.now) WHERE id = \(id)") { _ in
                // A package's versions go with it, so that publishing it again offers none of them.
                .run("""
                    UPDATE registry_versions SET withdrawn_at = \(UTCInstant.now.iso) WHERE app_id = \(id) AND withdrawn_at IS NULL
                        AND archive IS NOT NULL
                    """) { _ in
                .run("DELETE FROM hook_deliveries WHERE app_id = \(id)") { _ in
                    .record(.registryAppWithdrawn, owner: nil, data: DeletedApp(id: id),
                            then: Plan.done(.withdrawn).audited(.appWithdrawn, by: user.name, target: "app \(id)"))
                }
                }
            }
        })
    }

    /// Lets `app` reach `user` (its sessions, its webhooks' events); false when there is no such app.
    package func grant(_ app: String, to user: Int64) async throws -> Bool {
        try await runWrite(Plan.run("""
            SELECT 1 FROM registry_apps WHERE id = \(app) AND kind = 'remote' AND withdrawn_at IS NULL\(.forShare)
            """) { rows in
            guard !rows.isEmpty else { return .done(false) }
            return .run("""
                INSERT INTO app_grants (user_id, app_id, granted_at) VALUES (\(user), \(app), \(.now)) ON CONFLICT DO NOTHING
                """) { _ in .done(true) }
        })
    }

    /// Takes the grant back; false when there was none.
    package func revoke(_ app: String, from user: Int64) async throws -> Bool {
        try await runWrite(Plan.run("DELETE FROM app_grants WHERE user_id = \(user) AND app_id = \(app) RETURNING 1") { rows in
            .done(!rows.isEmpty)
        })
    }

    package func isGranted(_ app: String, to user: Int64) async throws -> Bool {
        try await runRead(Plan.run("SELECT 1 FROM app_grants WHERE user_id = \(user) AND app_id = \(app)") { rows in .done(!rows.isEmpty) },
                          snapshot: false)
    }

    /// Records a health change for every dashboard's live stream.
    package func recordHealth(_ change: AppHealthChange) async throws {
        try await runWrite(.record(.registryAppHealth, owner: nil, data: change, then: .done(())))
    }

    /// The entry of app `id` as stored, with its versions; nil when there is no such app.
    static func entry(_ id: String) -> Plan<RegistryEntry?> {
        entries([id]).then { entries in .done(entries.first) }
    }

    /// The entries of these apps, in this order, leaving out any that is gone: two statements
    /// whatever their number.
    static func entries(_ ids: [String]) -> Plan<[RegistryEntry]> {
        guard !ids.isEmpty else { return .done([]) }
        let list = SQLStatement.list(ids)
        return .run("""
            SELECT id, kind, name, description, current_version, hook_secret, entry_secret, previous_hook_secret,
                previous_entry_secret, secrets_rotated_at, (SELECT COUNT(*) FROM registry_install_marks i WHERE i.app_id = registry_apps.id)
            FROM registry_apps WHERE id IN (\(list))
            """) { [list] apps in
            .run("""
                SELECT app_id, version, manifest, entry, published_at, published_by, digest, size, permissions, withdrawn_at, signature
                FROM registry_versions WHERE app_id IN (\(list))
                """) { versions in
                let rows = try versions.map { row in
                    (app: try row.text(0),
                     version: RegistryEntry.StoredVersion(version: try row.text(1), manifest: try row.optionalText(2),
                                                          entry: try row.optionalText(3), publishedAt: try row.text(4),
                                                          publishedBy: try row.optionalText(5), digest: try row.optionalText(6),
                                                          size: try row.optionalInteger(7), permissions: try row.optionalText(8),
                                                          withdrawnAt: try row.optionalText(9), signature: try row.optionalText(10)))
                }
                let versionsByApp = Dictionary(grouping: rows, by: \.app).mapValues { $0.map(\.version) }
                let found = try apps.compactMap { app -> RegistryEntry? in
                    let id = try app.text(0)
                    let stored = RegistryEntry.StoredApp(
                        id: id, kind: try app.text(1), name: try app.text(2), description: try app.text(3),
                        currentVersion: try app.text(4), hookSecret: try app.optionalText(5), entrySecret: try app.optionalText(6),
                        previousHookSecret: try app.optionalText(7), previousEntrySecret: try app.optionalText(8),
                        secretsRotatedAt: try app.optionalReal(9), installs: try app.integer(10))
                    return try RegistryEntry(stored, versions: versionsByApp[id] ?? [])
                }
                let byID = Dictionary(found.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
                return .done(ids.compactMap { byID[$0] })
            }
        }
    }
}
