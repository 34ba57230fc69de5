import CanvasCore
import Foundation
import GRDB

extension SQLiteStore {
    /// The schema, as numbered migrations: append new ones, never edit a shipped one.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: users and todo items") { db in
            try db.create(table: "user") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull().unique()
                t.column("passwordHash", .text).notNull()
                t.column("createdAt", .datetime).notNull()
            }
            try db.create(table: "todoItem") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("ownerId", .integer).notNull().references("user", onDelete: .cascade)
                t.column("title", .text).notNull()
                t.column("notes", .text).notNull()
                t.column("done", .boolean).notNull().defaults(to: false)
                t.column("due", .text)
                t.column("createdAt", .datetime).notNull()
                t.column("updatedAt", .datetime).notNull()
            }
            try db.create(index: "todoItem_owner_id", on: "todoItem", columns: ["ownerId", "id"])
        }
        migrator.registerMigration("v2: live events, calendar events, chat") { db in
            // Every change, in commit order, for the live stream and its `Last-Event-ID` resume.
            // `ownerId` NULL means every user sees it (chat). AUTOINCREMENT: ids never go back, even
            // after the newest rows are pruned.
            try db.create(table: "liveEvent") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull()
                t.column("ownerId", .integer).references("user", onDelete: .cascade)
                t.column("data", .text).notNull()
                t.column("createdAt", .datetime).notNull()
            }
            try db.create(table: "calendarEvent") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("ownerId", .integer).notNull().references("user", onDelete: .cascade)
                t.column("title", .text).notNull()
                // UTC ISO 8601 date-times, `YYYY-MM-DDTHH:MM:SSZ`, so ranges compare as strings.
                t.column("start", .text).notNull()
                t.column("end", .text).notNull()
                t.column("allDay", .boolean).notNull().defaults(to: false)
                t.column("createdAt", .datetime).notNull()
                t.column("updatedAt", .datetime).notNull()
            }
            try db.create(index: "calendarEvent_owner_start", on: "calendarEvent", columns: ["ownerId", "start"])
            // Channels are shared by all users and named by their id (`general`).
            try db.create(table: "chatChannel") { t in
                t.primaryKey("id", .text)
                t.column("name", .text).notNull()
                t.column("createdBy", .text)
                t.column("createdAt", .datetime).notNull()
            }
            try db.execute(
                sql: "INSERT INTO chatChannel (id, name, createdBy, createdAt) VALUES ('general', 'general', NULL, ?)",
                arguments: [Date()]
            )
            // A message keeps its author's name as it was when sent, so it outlives the account.
            try db.create(table: "chatMessage") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("channelId", .text).notNull().references("chatChannel", onDelete: .cascade)
                t.column("author", .text).notNull()
                t.column("text", .text).notNull()
                // As the API shows it, `2026-11-22T09:30:00.123Z`: formatted once, when sent, so the
                // answer to the post, the live event and every later read agree to the millisecond.
                t.column("sentAt", .text).notNull()
            }
            try db.create(index: "chatMessage_channel_id", on: "chatMessage", columns: ["channelId", "id"])
        }
        migrator.registerMigration("v3: idempotency keys") { db in
            // A write's `Idempotency-Key`, per user: which request first used it (method, path and
            // a SHA-256 of its body) and, once it succeeded, the answer to replay. `status` is NULL
            // while that first request runs. Rows go after a day (`IdempotencyKeys.retention`).
            try db.create(table: "idempotencyKey") { t in
                t.column("ownerId", .integer).notNull().references("user", onDelete: .cascade)
                t.column("key", .text).notNull()
                t.column("fingerprint", .blob).notNull()
                t.column("status", .integer)
                t.column("contentType", .text)
                t.column("location", .text)
                t.column("body", .blob)
                t.column("createdAt", .double).notNull()
                t.primaryKey(["ownerId", "key"])
            }
            try db.create(index: "idempotencyKey_createdAt", on: "idempotencyKey", columns: ["createdAt"])
        }
        migrator.registerMigration("v4: registry, admins, app grants, webhooks") { db in
            try db.alter(table: "user") { t in t.add(column: "isAdmin", .boolean).notNull().defaults(to: false) }
            // One row per app ever published; `withdrawnAt` hides it without forgetting its versions,
            // so a later publish must still be newer. The secrets are made at the first publish.
            try db.create(table: "registryApp") { t in
                t.primaryKey("id", .text)
                t.column("kind", .text).notNull()
                t.column("name", .text).notNull()
                t.column("description", .text).notNull()
                t.column("currentVersion", .text).notNull()
                t.column("withdrawnAt", .datetime)
                t.column("hookSecret", .text)
                t.column("entrySecret", .text)
            }
            try db.create(table: "registryVersion") { t in
                t.column("appId", .text).notNull().references("registryApp", onDelete: .cascade)
                t.column("version", .text).notNull()
                // The `RegistryManifest` as JSON; NULL for a built-in app.
                t.column("manifest", .text)
                t.column("entry", .text)
                t.column("publishedAt", .text).notNull()
                t.column("publishedBy", .text)
                t.primaryKey(["appId", "version"])
            }
            // Which users let a remote app reach them: its proxied sessions and its webhooks' events.
            try db.create(table: "appGrant") { t in
                t.column("userId", .integer).notNull().references("user", onDelete: .cascade)
                t.column("appId", .text).notNull().references("registryApp", onDelete: .cascade)
                t.column("grantedAt", .datetime).notNull()
                t.primaryKey(["userId", "appId"])
            }
            // The signatures of accepted webhooks while their timestamp is fresh: a replay is refused.
            try db.create(table: "hookReceipt") { t in
                t.column("appId", .text).notNull()
                t.column("signature", .text).notNull()
                t.column("receivedAt", .double).notNull()
                t.primaryKey(["appId", "signature"])
            }
            // Webhook events accepted and not yet delivered to their users' live streams: kept until
            // delivered, so a restart loses none.
            try db.create(table: "hookDelivery") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("appId", .text).notNull()
                t.column("event", .text).notNull()
                t.column("data", .text).notNull()
                t.column("attempts", .integer).notNull().defaults(to: 0)
                t.column("receivedAt", .datetime).notNull()
            }
        }
        migrator.registerMigration("v5: a keyed write commits with its key") { db in
            // A write's `Idempotency-Key`, per user, kept in the transaction of the write it guards:
            // which request used it (method, path and a SHA-256 of its body) and what the write
            // returned (JSON), replayed to a retry. Rows go after a day. The v3 table's keys are
            // dropped: one "in progress" there may belong to a write that committed or not.
            try db.drop(table: "idempotencyKey")
            try db.create(table: "idempotentWrite") { t in
                t.column("ownerId", .integer).notNull().references("user", onDelete: .cascade)
                t.column("key", .text).notNull()
                t.column("fingerprint", .blob).notNull()
                t.column("result", .blob).notNull()
                t.column("createdAt", .double).notNull()
                t.primaryKey(["ownerId", "key"])
            }
            try db.create(index: "idempotentWrite_createdAt", on: "idempotentWrite", columns: ["createdAt"])
        }
        migrator.registerMigration("v6: secrets rotate") { db in
            // The secrets before the last rotation, valid beside the new ones for a while
            // (`AppSecrets.rotationOverlap`), and when it was (seconds since 1970).
            try db.alter(table: "registryApp") { t in
                t.add(column: "previousHookSecret", .text)
                t.add(column: "previousEntrySecret", .text)
                t.add(column: "secretsRotatedAt", .double)
            }
        }
        migrator.registerMigration("v7: tables named as in PostgreSQL") { db in
            // The store core (`Store/Core`) writes one SQL text for both engines, so the tables take
            // PostgreSQL's names here too: snake case, plural, `start_at` where `start` is a reserved
            // word there. Rows, AUTOINCREMENT sequences and foreign keys stay as they are. Written
            // out in full, as a shipped migration must not change when code around it does.
            let renames: [(table: String, renamed: String, columns: [(String, String)])] = [
                ("user", "users", [("passwordHash", "password_hash"), ("createdAt", "created_at"), ("isAdmin", "is_admin")]),
                ("todoItem", "todo_items", [("ownerId", "owner_id"), ("createdAt", "created_at"), ("updatedAt", "updated_at")]),
                ("liveEvent", "live_events", [("ownerId", "owner_id"), ("createdAt", "created_at")]),
                ("calendarEvent", "calendar_events", [("ownerId", "owner_id"), ("start", "start_at"), ("end", "end_at"),
                                                      ("allDay", "all_day"), ("createdAt", "created_at"), ("updatedAt", "updated_at")]),
                ("chatChannel", "chat_channels", [("createdBy", "created_by"), ("createdAt", "created_at")]),
                ("chatMessage", "chat_messages", [("channelId", "channel_id"), ("sentAt", "sent_at")]),
                ("idempotentWrite", "idempotent_writes", [("ownerId", "owner_id"), ("createdAt", "created_at")]),
                ("registryApp", "registry_apps", [("currentVersion", "current_version"), ("withdrawnAt", "withdrawn_at"),
                                                  ("hookSecret", "hook_secret"), ("entrySecret", "entry_secret"),
                                                  ("previousHookSecret", "previous_hook_secret"),
                                                  ("previousEntrySecret", "previous_entry_secret"),
                                                  ("secretsRotatedAt", "secrets_rotated_at")]),
                ("registryVersion", "registry_versions", [("appId", "app_id"), ("publishedAt", "published_at"),
                                                          ("publishedBy", "published_by")]),
                ("appGrant", "app_grants", [("userId", "user_id"), ("appId", "app_id"), ("grantedAt", "granted_at")]),
                ("hookReceipt", "hook_receipts", [("appId", "app_id"), ("receivedAt", "received_at")]),
                ("hookDelivery", "hook_deliveries", [("appId", "app_id"), ("receivedAt", "received_at")]),
            ]
            for (table, renamed, columns) in renames {
                try db.execute(sql: "ALTER TABLE \"\(table)\" RENAME TO \(renamed)")
                for (column, name) in columns {
                    try db.execute(sql: "ALTER TABLE \(renamed) RENAME COLUMN \"\(column)\" TO \(name)")
                }
            }
            for (old, new, definition) in [
                ("todoItem_owner_id", "todo_items_owner_id", "todo_items (owner_id, id)"),
                ("calendarEvent_owner_start", "calendar_events_owner_start", "calendar_events (owner_id, start_at)"),
                ("chatMessage_channel_id", "chat_messages_channel_id", "chat_messages (channel_id, id)"),
                ("idempotentWrite_createdAt", "idempotent_writes_created_at", "idempotent_writes (created_at)"),
            ] {
                try db.execute(sql: "DROP INDEX \(old)")
                try db.execute(sql: "CREATE INDEX \(new) ON \(definition)")
            }
        }
        migrator.registerMigration("v8: shared canvases") { db in
            for statement in [
                """
                CREATE TABLE canvases (id INTEGER PRIMARY KEY AUTOINCREMENT,
                    owner_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                    name TEXT NOT NULL, layout TEXT NOT NULL, version INTEGER NOT NULL, next_pane_id INTEGER NOT NULL,
                    created_at REAL NOT NULL, updated_at REAL NOT NULL, UNIQUE (owner_id, name))
                """,
                """
                CREATE TABLE canvas_members (canvas_id INTEGER NOT NULL REFERENCES canvases (id) ON DELETE CASCADE,
                    user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE, role TEXT NOT NULL,
                    PRIMARY KEY (canvas_id, user_id))
                """,
                "CREATE INDEX canvas_members_user_id ON canvas_members (user_id)",
                """
                CREATE TABLE canvas_changes (canvas_id INTEGER NOT NULL REFERENCES canvases (id) ON DELETE CASCADE,
                    version INTEGER NOT NULL, author TEXT NOT NULL, session TEXT NOT NULL, sequence INTEGER NOT NULL,
                    operation TEXT NOT NULL, created_at REAL NOT NULL, PRIMARY KEY (canvas_id, version))
                """,
                """
                CREATE TABLE canvas_sessions (canvas_id INTEGER NOT NULL REFERENCES canvases (id) ON DELETE CASCADE,
                    session TEXT NOT NULL, last_sequence INTEGER NOT NULL, updated_at REAL NOT NULL,
                    PRIMARY KEY (canvas_id, session))
                """,
            ] {
                try db.execute(sql: statement)
            }
        }
        migrator.registerMigration("v9: audit log") { db in
            try db.execute(sql: """
                CREATE TABLE audit_log (id INTEGER PRIMARY KEY AUTOINCREMENT, at TEXT NOT NULL, actor TEXT NOT NULL,
                    action TEXT NOT NULL, target TEXT NOT NULL, detail TEXT NOT NULL)
                """)
        }
        migrator.registerMigration("v10: who has a canvas open") { db in
            try db.execute(sql: """
                CREATE TABLE canvas_presence (canvas_id INTEGER NOT NULL REFERENCES canvases (id) ON DELETE CASCADE,
                    session TEXT NOT NULL, user_name TEXT NOT NULL, opened_at REAL NOT NULL, PRIMARY KEY (canvas_id, session))
                """)
        }
        migrator.registerMigration("v11: canvas snapshots") { db in
            try db.execute(sql: """
                CREATE TABLE canvas_snapshots (canvas_id INTEGER NOT NULL REFERENCES canvases (id) ON DELETE CASCADE,
                    version INTEGER NOT NULL, layout TEXT NOT NULL, PRIMARY KEY (canvas_id, version))
                """)
            // Canvases from before: their versions from now on can be read again.
            try db.execute(sql: "INSERT INTO canvas_snapshots (canvas_id, version, layout) SELECT id, version, layout FROM canvases")
        }
        migrator.registerMigration("v12: a canvas's panes' values apart, one base a canvas") { db in
            for statement in Self.canvasValuesApart {
                try db.execute(sql: statement)
            }
            // Each canvas's panes' settings and state move to rows of their own; the layout keeps
            // the arrangement.
            for row in try Row.fetchAll(db, sql: "SELECT id, layout FROM canvases") {
                let id: Int64 = row[0]
                let layout = try JSONDecoder().decode(LayoutData.self, from: Data((row[1] as String).utf8))
                for pane in layout.panes {
                    let values = try CanvasStorage.StoredValues(config: pane.config, state: pane.state)
                    try db.execute(sql: """
                        INSERT INTO canvas_pane_values (canvas_id, pane_id, config, state, config_bytes, state_bytes) VALUES (?, ?, ?, ?, ?, ?)
                        """, arguments: [id, pane.id.rawValue, values.config, values.state, values.config.utf8.count, values.state.utf8.count])
                }
                try db.execute(sql: "UPDATE canvases SET layout = ? WHERE id = ?",
                               arguments: [try CanvasStorage.json(CanvasStorage.arrangement(of: layout)), id])
            }
            for statement in Self.oneBaseACanvas {
                try db.execute(sql: statement)
            }
            try db.execute(sql: """
                UPDATE canvases SET history_bytes =
                    (SELECT COALESCE(SUM(length(CAST(operation AS BLOB))), 0) FROM canvas_changes WHERE canvas_id = canvases.id)
                """)
        }
        migrator.registerMigration("v13: live events kept per user") { db in
            for statement in [
                "ALTER TABLE live_events ADD COLUMN recoverable BOOLEAN NOT NULL DEFAULT 0",
                "CREATE INDEX live_events_owner ON live_events (owner_id, recoverable, id)",
                "CREATE TABLE live_event_horizons (owner_id INTEGER PRIMARY KEY, let_go_through INTEGER NOT NULL)",
                // Until now every event before the oldest kept was let go, for everyone.
                """
                INSERT INTO live_event_horizons (owner_id, let_go_through)
                SELECT 0, COALESCE(MIN(id) - 1, (SELECT seq FROM sqlite_sequence WHERE name = 'live_events'), 0) FROM live_events
                """,
            ] {
                try db.execute(sql: statement)
            }
        }
        migrator.registerMigration("v14: the audit log by age") { db in
            try db.execute(sql: "CREATE INDEX audit_log_actor_at ON audit_log (actor, at)")
        }
        migrator.registerMigration("v15: packages, their publishers and installs") { db in
            for statement in [
                "ALTER TABLE registry_versions ADD COLUMN archive BLOB",
                "ALTER TABLE registry_versions ADD COLUMN digest TEXT",
                "ALTER TABLE registry_versions ADD COLUMN size INTEGER",
                "ALTER TABLE registry_versions ADD COLUMN permissions TEXT",
                "ALTER TABLE registry_versions ADD COLUMN publisher_id INTEGER",
                "ALTER TABLE registry_versions ADD COLUMN withdrawn_at TEXT",
                "CREATE INDEX registry_versions_publisher ON registry_versions (publisher_id)",
                """
                CREATE TABLE registry_publishers (app_id TEXT NOT NULL, user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                    granted_by TEXT NOT NULL, granted_at TEXT NOT NULL, PRIMARY KEY (app_id, user_id))
                """,
                """
                CREATE TABLE registry_installs (app_id TEXT NOT NULL REFERENCES registry_apps (id) ON DELETE CASCADE,
                    user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE, installed_at TEXT NOT NULL,
                    PRIMARY KEY (app_id, user_id))
                """,
            ] {
                try db.execute(sql: statement)
            }
        }
        migrator.registerMigration("v16: single sign-on") { db in
            for statement in [
                "ALTER TABLE users ADD COLUMN sso_issuer TEXT",
                "ALTER TABLE users ADD COLUMN sso_subject TEXT",
                "CREATE UNIQUE INDEX users_sso ON users (sso_issuer, sso_subject)",
                """
                CREATE TABLE sso_logins (id_hash TEXT PRIMARY KEY, device_code TEXT, address TEXT NOT NULL, expires_at REAL NOT NULL,
                    poll_interval REAL NOT NULL, next_poll_at REAL NOT NULL)
                """,
                "CREATE INDEX sso_logins_address ON sso_logins (address)",
                """
                CREATE TABLE sso_sessions (renewal_hash TEXT PRIMARY KEY, user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                    refresh_token TEXT NOT NULL, created_at REAL NOT NULL)
                """,
                "CREATE INDEX sso_sessions_user ON sso_sessions (user_id, created_at)",
                "CREATE TABLE sso_spent_tokens (token_hash TEXT PRIMARY KEY, expires_at REAL NOT NULL)",
            ] {
                try db.execute(sql: statement)
            }
        }
        migrator.registerMigration("v17: signed packages, sessions") { db in
            for statement in [
                "ALTER TABLE registry_versions ADD COLUMN signature TEXT",
                """
                CREATE TABLE sessions (id TEXT PRIMARY KEY, user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                    method TEXT NOT NULL, address TEXT NOT NULL, client TEXT, started_at REAL NOT NULL, renewed_at REAL NOT NULL,
                    expires_at REAL NOT NULL)
                """,
                "CREATE INDEX sessions_user ON sessions (user_id, expires_at)",
                "ALTER TABLE sso_sessions ADD COLUMN session_id TEXT",
            ] {
                try db.execute(sql: statement)
            }
        }
        // registry_installs keeps the installs counted before, until a server moves them here
        // (`BFFStore.forgetInstallers`): their marks need the signing secret, which SQL has not.
        migrator.registerMigration("v18: installs counted without names") { db in
            try db.execute(sql: """
                CREATE TABLE registry_install_marks (app_id TEXT NOT NULL REFERENCES registry_apps (id) ON DELETE CASCADE,
                    mark TEXT NOT NULL, PRIMARY KEY (app_id, mark))
                """)
            // A user's marks are looked for by mark alone (`suggestions`).
            try db.execute(sql: "CREATE INDEX registry_install_marks_mark ON registry_install_marks (mark)")
        }
        for migration in SharedMigrations.all {
            migrator.registerMigration(migration.name) { db in
                for statement in migration.statements { try db.execute(sql: SharedMigrations.text(statement, spell: spelling)) }
            }
        }
        return migrator
    }

    /// v12's new table and column.
    private static let canvasValuesApart = [
        """
        CREATE TABLE canvas_pane_values (canvas_id INTEGER NOT NULL REFERENCES canvases (id) ON DELETE CASCADE,
            pane_id INTEGER NOT NULL, config TEXT NOT NULL, state TEXT NOT NULL, config_bytes INTEGER NOT NULL,
            state_bytes INTEGER NOT NULL, PRIMARY KEY (canvas_id, pane_id))
        """,
        "ALTER TABLE canvases ADD COLUMN history_bytes INTEGER NOT NULL DEFAULT 0",
    ]

    /// v12 on the snapshots of before (one every 100 versions): the oldest becomes the canvas's
    /// base, and the changes it holds go.
    static let oneBaseACanvas = [
        """
        DELETE FROM canvas_changes WHERE version <=
            (SELECT MIN(s.version) FROM canvas_snapshots s WHERE s.canvas_id = canvas_changes.canvas_id)
        """,
        """
        DELETE FROM canvas_snapshots WHERE version >
            (SELECT MIN(s.version) FROM canvas_snapshots s WHERE s.canvas_id = canvas_snapshots.canvas_id)
        """,
    ]
}
