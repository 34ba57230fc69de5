import Foundation
import PostgresNIO

extension PostgresStore {
    /// The schema in PostgreSQL's dialect, numbered as `SQLiteStore.migrator`'s (version N here is
    /// version N there): append new ones, never edit a shipped one. Version 1 also holds the signing
    /// secret, which SQLite's server keeps in a file beside its database.
    package static let migrations: [(name: String, statements: [PostgresQuery])] = ownMigrations + SharedMigrations.all.map { migration in
        (migration.name, migration.statements.map { PostgresQuery(unsafeSQL: SharedMigrations.text($0, spell: spelling)) })
    }

    /// Versions 1 to 18, from before the migrations were written once (`SharedMigrations`).
    private static let ownMigrations: [(name: String, statements: [PostgresQuery])] = [
        ("v1: users and todo items", [
            """
            CREATE TABLE users (id BIGSERIAL PRIMARY KEY, name TEXT NOT NULL UNIQUE, password_hash TEXT NOT NULL,
                created_at TIMESTAMPTZ NOT NULL DEFAULT now())
            """,
            """
            CREATE TABLE todo_items (id BIGSERIAL PRIMARY KEY,
                owner_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                title TEXT NOT NULL, notes TEXT NOT NULL, done BOOLEAN NOT NULL DEFAULT false, due TEXT,
                created_at TIMESTAMPTZ NOT NULL DEFAULT now(), updated_at TIMESTAMPTZ NOT NULL DEFAULT now())
            """,
            "CREATE INDEX todo_items_owner_id ON todo_items (owner_id, id)",
            // One row: the secret every instance signs tokens with, made by the first to start.
            "CREATE TABLE signing_secret (only_row BOOLEAN PRIMARY KEY DEFAULT true CHECK (only_row), secret TEXT NOT NULL)",
        ]),
        ("v2: live events, calendar events, chat", [
            // Every change in commit order (see `record`), for the live streams of every instance
            // and their `Last-Event-ID` resume. `owner_id` NULL: every user sees it.
            """
            CREATE TABLE live_events (id BIGSERIAL PRIMARY KEY, name TEXT NOT NULL,
                owner_id BIGINT REFERENCES users (id) ON DELETE CASCADE, data TEXT NOT NULL,
                created_at TIMESTAMPTZ NOT NULL DEFAULT now())
            """,
            // UTC ISO 8601 text, `YYYY-MM-DDTHH:MM:SSZ`, so ranges compare as strings (as in SQLite).
            """
            CREATE TABLE calendar_events (id BIGSERIAL PRIMARY KEY,
                owner_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                title TEXT NOT NULL, start_at TEXT COLLATE "C" NOT NULL, end_at TEXT COLLATE "C" NOT NULL,
                all_day BOOLEAN NOT NULL DEFAULT false,
                created_at TIMESTAMPTZ NOT NULL DEFAULT now(), updated_at TIMESTAMPTZ NOT NULL DEFAULT now())
            """,
            "CREATE INDEX calendar_events_owner_start ON calendar_events (owner_id, start_at)",
            """
            CREATE TABLE chat_channels (id TEXT COLLATE "C" PRIMARY KEY, name TEXT NOT NULL, created_by TEXT,
                created_at TIMESTAMPTZ NOT NULL DEFAULT now())
            """,
            "INSERT INTO chat_channels (id, name) VALUES ('general', 'general')",
            """
            CREATE TABLE chat_messages (id BIGSERIAL PRIMARY KEY,
                channel_id TEXT COLLATE "C" NOT NULL REFERENCES chat_channels (id) ON DELETE CASCADE,
                author TEXT NOT NULL, text TEXT NOT NULL, sent_at TEXT NOT NULL)
            """,
            "CREATE INDEX chat_messages_channel_id ON chat_messages (channel_id, id)",
        ]),
        ("v3: idempotency keys", [
            """
            CREATE TABLE idempotency_keys (owner_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                key TEXT NOT NULL, fingerprint BYTEA NOT NULL, status INTEGER, content_type TEXT, location TEXT,
                body BYTEA, created_at DOUBLE PRECISION NOT NULL, PRIMARY KEY (owner_id, key))
            """,
            "CREATE INDEX idempotency_keys_created_at ON idempotency_keys (created_at)",
        ]),
        ("v4: registry, admins, app grants, webhooks", [
            "ALTER TABLE users ADD COLUMN is_admin BOOLEAN NOT NULL DEFAULT false",
            """
            CREATE TABLE registry_apps (id TEXT COLLATE "C" PRIMARY KEY, kind TEXT NOT NULL, name TEXT NOT NULL,
                description TEXT NOT NULL, current_version TEXT NOT NULL, withdrawn_at TIMESTAMPTZ,
                hook_secret TEXT, entry_secret TEXT)
            """,
            """
            CREATE TABLE registry_versions (app_id TEXT COLLATE "C" NOT NULL REFERENCES registry_apps (id) ON DELETE CASCADE,
                version TEXT NOT NULL, manifest TEXT, entry TEXT, published_at TEXT NOT NULL, published_by TEXT,
                PRIMARY KEY (app_id, version))
            """,
            """
            CREATE TABLE app_grants (user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                app_id TEXT COLLATE "C" NOT NULL REFERENCES registry_apps (id) ON DELETE CASCADE,
                granted_at TIMESTAMPTZ NOT NULL DEFAULT now(), PRIMARY KEY (user_id, app_id))
            """,
            """
            CREATE TABLE hook_receipts (app_id TEXT NOT NULL, signature TEXT NOT NULL, received_at DOUBLE PRECISION NOT NULL,
                PRIMARY KEY (app_id, signature))
            """,
            """
            CREATE TABLE hook_deliveries (id BIGSERIAL PRIMARY KEY, app_id TEXT NOT NULL, event TEXT NOT NULL,
                data TEXT NOT NULL, attempts INTEGER NOT NULL DEFAULT 0, received_at TIMESTAMPTZ NOT NULL DEFAULT now())
            """,
        ]),
        // As SQLite's v5: a keyed write's key and result, committed in the write's transaction.
        ("v5: a keyed write commits with its key", [
            "DROP TABLE idempotency_keys",
            """
            CREATE TABLE idempotent_writes (owner_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                key TEXT NOT NULL, fingerprint BYTEA NOT NULL, result BYTEA NOT NULL, created_at DOUBLE PRECISION NOT NULL,
                PRIMARY KEY (owner_id, key))
            """,
            "CREATE INDEX idempotent_writes_created_at ON idempotent_writes (created_at)",
        ]),
        ("v6: secrets rotate", [
            "ALTER TABLE registry_apps ADD COLUMN previous_hook_secret TEXT",
            "ALTER TABLE registry_apps ADD COLUMN previous_entry_secret TEXT",
            "ALTER TABLE registry_apps ADD COLUMN secrets_rotated_at DOUBLE PRECISION",
        ]),
        // SQLite's v7 gave its tables the names these had from the start: nothing to do here, so
        // the numbers stay the same on both engines.
        ("v7: tables named as in PostgreSQL", []),
        ("v8: shared canvases", [
            """
            CREATE TABLE canvases (id BIGSERIAL PRIMARY KEY,
                owner_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                name TEXT NOT NULL, layout TEXT NOT NULL, version BIGINT NOT NULL, next_pane_id BIGINT NOT NULL,
                created_at DOUBLE PRECISION NOT NULL, updated_at DOUBLE PRECISION NOT NULL, UNIQUE (owner_id, name))
            """,
            """
            CREATE TABLE canvas_members (canvas_id BIGINT NOT NULL REFERENCES canvases (id) ON DELETE CASCADE,
                user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE, role TEXT NOT NULL,
                PRIMARY KEY (canvas_id, user_id))
            """,
            "CREATE INDEX canvas_members_user_id ON canvas_members (user_id)",
            """
            CREATE TABLE canvas_changes (canvas_id BIGINT NOT NULL REFERENCES canvases (id) ON DELETE CASCADE,
                version BIGINT NOT NULL, author TEXT NOT NULL, session TEXT NOT NULL, sequence BIGINT NOT NULL,
                operation TEXT NOT NULL, created_at DOUBLE PRECISION NOT NULL, PRIMARY KEY (canvas_id, version))
            """,
            """
            CREATE TABLE canvas_sessions (canvas_id BIGINT NOT NULL REFERENCES canvases (id) ON DELETE CASCADE,
                session TEXT COLLATE "C" NOT NULL, last_sequence BIGINT NOT NULL, updated_at DOUBLE PRECISION NOT NULL,
                PRIMARY KEY (canvas_id, session))
            """,
        ]),
        ("v9: audit log", [
            """
            CREATE TABLE audit_log (id BIGSERIAL PRIMARY KEY, at TEXT NOT NULL, actor TEXT NOT NULL,
                action TEXT NOT NULL, target TEXT NOT NULL, detail TEXT NOT NULL)
            """,
        ]),
        ("v10: who has a canvas open", [
            """
            CREATE TABLE canvas_presence (canvas_id BIGINT NOT NULL REFERENCES canvases (id) ON DELETE CASCADE,
                session TEXT COLLATE "C" NOT NULL, user_name TEXT NOT NULL, opened_at DOUBLE PRECISION NOT NULL,
                PRIMARY KEY (canvas_id, session))
            """,
        ]),
        ("v11: canvas snapshots", [
            """
            CREATE TABLE canvas_snapshots (canvas_id BIGINT NOT NULL REFERENCES canvases (id) ON DELETE CASCADE,
                version BIGINT NOT NULL, layout TEXT NOT NULL, PRIMARY KEY (canvas_id, version))
            """,
            "INSERT INTO canvas_snapshots (canvas_id, version, layout) SELECT id, version, layout FROM canvases",
        ]),
        ("v12: a canvas's panes' values apart, one base a canvas", [
            """
            CREATE TABLE canvas_pane_values (canvas_id BIGINT NOT NULL REFERENCES canvases (id) ON DELETE CASCADE,
                pane_id BIGINT NOT NULL, config TEXT NOT NULL, state TEXT NOT NULL, config_bytes BIGINT NOT NULL,
                state_bytes BIGINT NOT NULL, PRIMARY KEY (canvas_id, pane_id))
            """,
            "ALTER TABLE canvases ADD COLUMN history_bytes BIGINT NOT NULL DEFAULT 0",
            // Each canvas's panes' settings and state move to rows of their own; the layout keeps
            // the arrangement, its panes in their order.
            """
            INSERT INTO canvas_pane_values (canvas_id, pane_id, config, state, config_bytes, state_bytes)
            SELECT c.id, (p.pane->>'id')::bigint, (p.pane->'config')::text, (p.pane->'state')::text,
                   octet_length((p.pane->'config')::text), octet_length((p.pane->'state')::text)
            FROM canvases c CROSS JOIN LATERAL jsonb_array_elements(c.layout::jsonb->'panes') AS p(pane)
            """,
            """
            UPDATE canvases SET layout = jsonb_set(layout::jsonb, '{panes}', COALESCE(
                (SELECT jsonb_agg(p.pane || '{"config": {}, "state": {}}'::jsonb ORDER BY p.n)
                 FROM jsonb_array_elements(layout::jsonb->'panes') WITH ORDINALITY AS p(pane, n)), '[]'::jsonb))::text
            """,
            """
            DELETE FROM canvas_changes WHERE version <=
                (SELECT MIN(s.version) FROM canvas_snapshots s WHERE s.canvas_id = canvas_changes.canvas_id)
            """,
            """
            DELETE FROM canvas_snapshots WHERE version >
                (SELECT MIN(s.version) FROM canvas_snapshots s WHERE s.canvas_id = canvas_snapshots.canvas_id)
            """,
            """
            UPDATE canvases SET history_bytes =
                (SELECT COALESCE(SUM(octet_length(operation)), 0) FROM canvas_changes WHERE canvas_id = canvases.id)
            """,
        ]),
        ("v13: live events kept per user", [
            "ALTER TABLE live_events ADD COLUMN recoverable BOOLEAN NOT NULL DEFAULT false",
            "CREATE INDEX live_events_owner ON live_events (owner_id, recoverable, id)",
            "CREATE TABLE live_event_horizons (owner_id BIGINT PRIMARY KEY, let_go_through BIGINT NOT NULL)",
            // Until now every event before the oldest kept was let go, for everyone.
            "INSERT INTO live_event_horizons (owner_id, let_go_through) SELECT 0, COALESCE(MIN(id) - 1, 0) FROM live_events",
        ]),
        ("v14: the audit log by age", [
            "CREATE INDEX audit_log_actor_at ON audit_log (actor, at)",
        ]),
        ("v15: packages, their publishers and installs", [
            "ALTER TABLE registry_versions ADD COLUMN archive BYTEA",
            "ALTER TABLE registry_versions ADD COLUMN digest TEXT",
            "ALTER TABLE registry_versions ADD COLUMN size BIGINT",
            "ALTER TABLE registry_versions ADD COLUMN permissions TEXT",
            "ALTER TABLE registry_versions ADD COLUMN publisher_id BIGINT",
            "ALTER TABLE registry_versions ADD COLUMN withdrawn_at TEXT",
            "CREATE INDEX registry_versions_publisher ON registry_versions (publisher_id)",
            """
            CREATE TABLE registry_publishers (app_id TEXT COLLATE "C" NOT NULL,
                user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE, granted_by TEXT NOT NULL, granted_at TEXT NOT NULL,
                PRIMARY KEY (app_id, user_id))
            """,
            """
            CREATE TABLE registry_installs (app_id TEXT COLLATE "C" NOT NULL REFERENCES registry_apps (id) ON DELETE CASCADE,
                user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE, installed_at TEXT NOT NULL,
                PRIMARY KEY (app_id, user_id))
            """,
        ]),
        ("v16: single sign-on", [
            "ALTER TABLE users ADD COLUMN sso_issuer TEXT",
            "ALTER TABLE users ADD COLUMN sso_subject TEXT",
            "CREATE UNIQUE INDEX users_sso ON users (sso_issuer, sso_subject)",
            """
            CREATE TABLE sso_logins (id_hash TEXT PRIMARY KEY, device_code TEXT, address TEXT NOT NULL, expires_at DOUBLE PRECISION NOT NULL,
                poll_interval DOUBLE PRECISION NOT NULL, next_poll_at DOUBLE PRECISION NOT NULL)
            """,
            "CREATE INDEX sso_logins_address ON sso_logins (address)",
            """
            CREATE TABLE sso_sessions (renewal_hash TEXT PRIMARY KEY, user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                refresh_token TEXT NOT NULL, created_at DOUBLE PRECISION NOT NULL)
            """,
            "CREATE INDEX sso_sessions_user ON sso_sessions (user_id, created_at)",
            "CREATE TABLE sso_spent_tokens (token_hash TEXT PRIMARY KEY, expires_at DOUBLE PRECISION NOT NULL)",
        ]),
        ("v17: signed packages, sessions", [
            "ALTER TABLE registry_versions ADD COLUMN signature TEXT",
            """
            CREATE TABLE sessions (id TEXT PRIMARY KEY, user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                method TEXT NOT NULL, address TEXT NOT NULL, client TEXT, started_at DOUBLE PRECISION NOT NULL,
                renewed_at DOUBLE PRECISION NOT NULL, expires_at DOUBLE PRECISION NOT NULL)
            """,
            "CREATE INDEX sessions_user ON sessions (user_id, expires_at)",
            "ALTER TABLE sso_sessions ADD COLUMN session_id TEXT",
        ]),
        // registry_installs keeps the installs counted before, until a server moves them here
        // (`BFFStore.forgetInstallers`): their marks need the signing secret, which SQL has not.
        ("v18: installs counted without names", [
            """
            CREATE TABLE registry_install_marks (app_id TEXT COLLATE "C" NOT NULL REFERENCES registry_apps (id) ON DELETE CASCADE,
                mark TEXT NOT NULL, PRIMARY KEY (app_id, mark))
            """,
            // A user's marks are looked for by mark alone (`suggestions`).
            "CREATE INDEX registry_install_marks_mark ON registry_install_marks (mark)",
        ]),
    ]

    /// The advisory lock migrations take, so that of instances started together one migrates and
    /// the others then find the schema done.
    private static let migrationLock: Int64 = 0x7463_6d69_6772_6174 // "tcmigrat"

    /// The number of migrations applied (0 for an empty database).
    package func schemaVersion() async throws -> Int {
        let table = try await rows("SELECT to_regclass('schema_migrations')::text", as: String?.self)
        guard table.first ?? nil != nil else { return 0 }
        return try await rows("SELECT COALESCE(MAX(version), 0)::bigint FROM schema_migrations", as: Int64.self).first.map(Int.init) ?? 0
    }

    /// Applies the migrations this database lacks, in one transaction under `migrationLock`;
    /// returns how many it applied.
    /// - Throws: `BFFStoreError.newerVersion` when a newer build migrated the database.
    @discardableResult
    package func migrate() async throws -> Int {
        try await transaction { connection in
            try await connection.run("SELECT pg_advisory_xact_lock(\(Self.migrationLock))", logger: logger)
            try await connection.run("""
                CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL,
                    applied_at TIMESTAMPTZ NOT NULL DEFAULT now())
                """, logger: logger)
            let applied = try await connection.rows("SELECT COALESCE(MAX(version), 0)::bigint FROM schema_migrations",
                                                    as: Int64.self, logger: logger).first.map(Int.init) ?? 0
            guard applied <= Self.migrations.count else { throw BFFStoreError.newerVersion }
            for (index, migration) in Self.migrations.enumerated().dropFirst(applied) {
                for statement in migration.statements { try await connection.run(statement, logger: logger) }
                try await connection.run("INSERT INTO schema_migrations (version, name) VALUES (\(index + 1), \(migration.name))",
                                         logger: logger)
            }
            return Self.migrations.count - applied
        }
    }

    /// The secret all instances sign tokens with: the one in the database, or `make()`'s, kept
    /// there by whichever instance asked first.
    package func signingSecret(orMake make: () -> String) async throws -> String {
        let candidate = make()
        return try await transaction { connection in
            try await connection.run("INSERT INTO signing_secret (secret) VALUES (\(candidate)) ON CONFLICT DO NOTHING", logger: logger)
            guard let secret = try await connection.rows("SELECT secret FROM signing_secret", as: String.self, logger: logger).first else {
                throw BFFStoreError.unreadableRow("signing_secret, just written")
            }
            return secret
        }
    }
}
