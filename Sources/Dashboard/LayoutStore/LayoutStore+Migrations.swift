import GRDB

extension LayoutStore {
    /// The schema, as numbered migrations: append new ones, never edit a shipped one.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: layouts, panes, history, preferences") { db in
            try db.create(table: "layout") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull().unique()
                t.column("columns", .integer).notNull()
                t.column("rows", .integer).notNull()
                t.column("minWidth", .integer).notNull()
                t.column("minHeight", .integer).notNull()
                t.column("focused", .integer)
                t.column("historyPosition", .integer).notNull().defaults(to: 0)
                t.column("createdAt", .datetime).notNull()
                t.column("updatedAt", .datetime).notNull()
            }
            try db.create(table: "pane") { t in
                t.column("layoutId", .integer).notNull().references("layout", onDelete: .cascade)
                t.column("paneId", .integer).notNull()
                t.column("position", .integer).notNull()
                t.column("app", .text).notNull()
                t.column("x", .integer).notNull()
                t.column("y", .integer).notNull()
                t.column("width", .integer).notNull()
                t.column("height", .integer).notNull()
                t.column("config", .text).notNull()
                t.column("state", .text).notNull()
                t.primaryKey(["layoutId", "paneId"])
            }
            try db.create(table: "history") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("layoutId", .integer).notNull().references("layout", onDelete: .cascade)
                t.column("position", .integer).notNull()
                t.column("step", .text).notNull()
                t.column("snapshot", .text).notNull()
                t.column("createdAt", .datetime).notNull()
                t.uniqueKey(["layoutId", "position"])
            }
            try db.create(table: "preference") { t in
                t.primaryKey("key", .text)
                t.column("value", .text).notNull()
            }
        }
        migrator.registerMigration("v2: micro-app grants") { db in
            try db.create(table: "appGrant") { t in
                t.primaryKey("app", .text)
                t.column("digest", .text).notNull()
                t.column("grantedAt", .datetime).notNull()
            }
        }
        migrator.registerMigration("v3: load times") { db in
            // A start's canvasLoadTime has no `start` and no `app`; its panes' microAppLoadTime
            // point at it. Seconds since 1970, not GRDB's date text: formatting that loads ICU's
            // date data, 2 MB of the dashboard's memory, at every start.
            try db.create(table: "loadTime") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("start", .integer).references("loadTime", onDelete: .cascade)
                t.column("recordedAt", .double).notNull()
                t.column("layout", .text).notNull()
                t.column("app", .text)
                t.column("milliseconds", .double).notNull()
            }
        }
        migrator.registerMigration("v4: times as seconds since 1970") { db in
            // GRDB writes a `Date` as text through a date formatter, which loads ICU's calendar and
            // time-zone data (~3 MB of the dashboard's memory) at every start that saves a step. Times
            // are plain numbers now, like `loadTime.recordedAt`; rows written before become numbers
            // too (julianday reads GRDB's `yyyy-MM-dd HH:mm:ss.SSS`, which is UTC; text it cannot
            // read becomes 1970 rather than a NULL that would fail the migration and the store).
            for (table, column) in [("layout", "createdAt"), ("layout", "updatedAt"), ("history", "createdAt"), ("appGrant", "grantedAt")] {
                try db.execute(sql: """
                    UPDATE \(table) SET \(column) = COALESCE((julianday(\(column)) - 2440587.5) * 86400.0, 0)
                    WHERE typeof(\(column)) = 'text'
                    """)
            }
        }
        migrator.registerMigration("v5: shared canvases' copies") { db in
            // One row per canvas a dashboard opened from a server (`server` names it and the
            // user), its copy as JSON: the layout as the server last had it and the edits made
            // here that it has not answered.
            try db.create(table: "sharedCopy") { t in
                t.column("server", .text).notNull()
                t.column("name", .text).notNull()
                t.column("canvas", .integer).notNull()
                t.column("copy", .text).notNull()
                t.column("updatedAt", .double).notNull()
                t.primaryKey(["server", "name"])
            }
        }
        return migrator
    }
}
