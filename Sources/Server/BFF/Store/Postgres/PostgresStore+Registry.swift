import CalendarTime
import Foundation
import MicroAppAPI
import PostgresNIO

extension PostgresStore {
    /// As `SQLiteStore`'s; instances starting together each write the same rows.
    public func registerBuiltIns(_ apps: Set<MicroApp>) async throws {
        let version = MicroApp.version
        let now = UTCInstant.now.iso
        try await transaction { connection in
            for app in MicroApp.allCases {
                let info = app.info
                let withdrawnAt: Date? = apps.contains(app) ? nil : Date()
                try await connection.run("""
                    INSERT INTO registry_apps (id, kind, name, description, current_version, withdrawn_at)
                    VALUES (\(info.id), 'builtin', \(info.name), \(info.description), \(version), \(withdrawnAt))
                    ON CONFLICT (id) DO UPDATE SET name = excluded.name, description = excluded.description,
                        current_version = excluded.current_version, withdrawn_at = excluded.withdrawn_at
                    """, logger: logger)
                try await connection.run("""
                    INSERT INTO registry_versions (app_id, version, published_at) VALUES (\(info.id), \(version), \(now))
                    ON CONFLICT DO NOTHING
                    """, logger: logger)
            }
        }
    }

    public func registryApps(matching text: String?, kind: RegistryAppKind?, after cursor: String?, limit: Int) async throws
        -> (items: [RegistryEntry], more: Bool) {
        var sql = SQL("SELECT id FROM registry_apps WHERE withdrawn_at IS NULL")
        if let text, !text.isEmpty {
            let pattern = RegistryEntry.containsPattern(text)
            sql.append(" AND (id ILIKE ", pattern)
            sql.append(" OR name ILIKE ", pattern)
            sql.append(" OR description ILIKE ", pattern)
            sql.append(")")
        }
        if let kind { sql.append(" AND kind = ", kind.rawValue) }
        if let cursor { sql.append(" AND id > ", cursor) }
        sql.append(" ORDER BY id LIMIT ", Int64(limit + 1))
        let ids = try await rows(sql.query, as: String.self)
        var items: [RegistryEntry] = []
        for id in ids.prefix(limit) {
            if let entry = try await withConnection({ connection in try await registryEntry(id, on: connection) }) {
                items.append(entry)
            }
        }
        return (items, ids.count > limit)
    }

    public func registryApp(_ id: String) async throws -> RegistryEntry? {
        try await transaction { connection -> RegistryEntry? in
            guard try await connection.run("SELECT 1 FROM registry_apps WHERE id = \(id) AND withdrawn_at IS NULL", logger: logger) > 0
            else { return nil }
            return try await registryEntry(id, on: connection)
        }
    }

    public func remoteEntries() async throws -> [(id: String, entry: URL)] {
        try await rows("""
            SELECT a.id, v.entry FROM registry_apps a JOIN registry_versions v ON v.app_id = a.id AND v.version = a.current_version
            WHERE a.kind = 'remote' AND a.withdrawn_at IS NULL ORDER BY a.id
            """, as: (String, String?).self).compactMap { row in row.1.flatMap(URL.init(string:)).map { (row.0, $0) } }
    }

    /// As `SQLiteStore`'s; publishes of one app are one at a time across instances (a lock of the app's).
    public func publish(_ manifest: RegistryManifest, version: SemanticVersion, entry: URL, by user: BFFUser, rotateSecrets: Bool,
                        makeSecret: @escaping @Sendable () -> String) async throws -> PublishOutcome {
        try await keyedTransaction { connection -> PublishOutcome in
            try await connection.run("SELECT pg_advisory_xact_lock(hashtext(\("registry.app." + manifest.id)))", logger: logger)
            let existing = try await connection.rows("SELECT kind, withdrawn_at IS NOT NULL FROM registry_apps WHERE id = \(manifest.id)",
                                                     as: (String, Bool).self, logger: logger).first
            let published = try await connection.rows("SELECT version FROM registry_versions WHERE app_id = \(manifest.id)",
                                                      as: String.self, logger: logger).compactMap(SemanticVersion.init)
            let plan = PublishPlan(kind: existing?.0, withdrawn: existing?.1 ?? false, newest: published.max(), version: version,
                                   rotateSecrets: rotateSecrets)
            let (hook, entrySecret) = plan.secrets == .keep ? (nil, nil) : (makeSecret(), makeSecret())
            switch plan.outcome {
            case .refused(let outcome): return outcome
            case .create:
                try await connection.run("""
                    INSERT INTO registry_apps (id, kind, name, description, current_version)
                    VALUES (\(manifest.id), 'remote', \(manifest.name), \(manifest.description), \(version.description))
                    """, logger: logger)
            case .keepVersion: break
            case .update:
                try await connection.run("""
                    UPDATE registry_apps SET name = \(manifest.name), description = \(manifest.description),
                        current_version = \(version.description), withdrawn_at = NULL WHERE id = \(manifest.id)
                    """, logger: logger)
            }
            switch plan.secrets {
            case .keep: break
            case .replace:
                try await connection.run("""
                    UPDATE registry_apps SET hook_secret = \(hook), entry_secret = \(entrySecret), previous_hook_secret = NULL,
                        previous_entry_secret = NULL, secrets_rotated_at = NULL WHERE id = \(manifest.id)
                    """, logger: logger)
            case .rotate:
                try await connection.run("""
                    UPDATE registry_apps SET previous_hook_secret = hook_secret, previous_entry_secret = entry_secret,
                        hook_secret = \(hook), entry_secret = \(entrySecret), secrets_rotated_at = \(Date().timeIntervalSince1970)
                    WHERE id = \(manifest.id)
                    """, logger: logger)
            }
            if plan.addsVersion {
                let json = String(decoding: try JSONEncoder().encode(manifest), as: UTF8.self)
                try await connection.run("""
                    INSERT INTO registry_versions (app_id, version, manifest, entry, published_at, published_by)
                    VALUES (\(manifest.id), \(version.description), \(json), \(entry.absoluteString), \(UTCInstant.now.iso), \(user.name))
                    """, logger: logger)
            }
            guard let entry = try await registryEntry(manifest.id, on: connection) else {
                throw BFFStoreError.unreadableRow("registry_apps \(manifest.id), just written")
            }
            if plan.addsVersion { try await record(.registryAppPublished, owner: nil, data: entry.info(health: nil), on: connection) }
            return .published(entry, created: plan.outcome == .create, newSecrets: plan.secrets != .keep)
        }
    }

    public func withdraw(_ id: String) async throws -> WithdrawOutcome {
        try await keyedTransaction { connection -> WithdrawOutcome in
            guard let kind = try await connection.rows("SELECT kind FROM registry_apps WHERE id = \(id) AND withdrawn_at IS NULL FOR UPDATE",
                                                       as: String.self, logger: logger).first else { return .notFound }
            if kind == RegistryAppKind.builtin.rawValue { return .builtIn }
            try await connection.run("UPDATE registry_apps SET withdrawn_at = now() WHERE id = \(id)", logger: logger)
            try await connection.run("DELETE FROM hook_deliveries WHERE app_id = \(id)", logger: logger)
            try await record(.registryAppWithdrawn, owner: nil, data: DeletedApp(id: id), on: connection)
            return .withdrawn
        }
    }

    public func grant(_ app: String, to user: Int64) async throws -> Bool {
        try await transaction { connection in
            guard try await connection.run("""
                SELECT 1 FROM registry_apps WHERE id = \(app) AND kind = 'remote' AND withdrawn_at IS NULL FOR SHARE
                """, logger: logger) > 0 else { return false }
            try await connection.run("INSERT INTO app_grants (user_id, app_id) VALUES (\(user), \(app)) ON CONFLICT DO NOTHING",
                                     logger: logger)
            return true
        }
    }

    public func revoke(_ app: String, from user: Int64) async throws -> Bool {
        try await !rows("DELETE FROM app_grants WHERE user_id = \(user) AND app_id = \(app) RETURNING 1", as: Int64.self).isEmpty
    }

    public func isGranted(_ app: String, to user: Int64) async throws -> Bool {
        try await !rows("SELECT 1 FROM app_grants WHERE user_id = \(user) AND app_id = \(app)", as: Int64.self).isEmpty
    }

    public func recordHealth(_ change: AppHealthChange) async throws {
        try await transaction { connection in try await record(.registryAppHealth, owner: nil, data: change, on: connection) }
    }

    private func registryEntry(_ id: String, on connection: PostgresConnection) async throws -> RegistryEntry? {
        guard let app = try await connection.rows("""
            SELECT kind, name, description, current_version, hook_secret, entry_secret, previous_hook_secret, previous_entry_secret,
                secrets_rotated_at FROM registry_apps WHERE id = \(id)
            """, as: (String, String, String, String, String?, String?, String?, String?, Double?).self, logger: logger).first else {
            return nil
        }
        let versions = try await connection.rows("""
            SELECT version, manifest, entry, published_at, published_by FROM registry_versions WHERE app_id = \(id)
            """, as: (String, String?, String?, String, String?).self, logger: logger)
        return try RegistryEntry(
            .init(id: id, kind: app.0, name: app.1, description: app.2, currentVersion: app.3, hookSecret: app.4, entrySecret: app.5,
                  previousHookSecret: app.6, previousEntrySecret: app.7, secretsRotatedAt: app.8),
            versions: versions.map { .init(version: $0.0, manifest: $0.1, entry: $0.2, publishedAt: $0.3, publishedBy: $0.4) })
    }
}
