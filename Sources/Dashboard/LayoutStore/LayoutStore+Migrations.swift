import SQLiteDatabase

extension LayoutStore {
    /// The schema, as numbered migrations: append new ones, never edit a shipped one.
    static var migrations: Migrations {
        var migrations = Migrations()
        // The tables as GRDB's schema builder wrote them in versions before issue 43, statement for
        // statement, so new files are made exactly as old ones were.
        migrations.register("v1: layouts, panes, history, preferences") { db in
            try db.execute(sql: """
                CREATE TABLE "layout" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "name" TEXT NOT NULL UNIQUE, "columns" INTEGER NOT NULL, \
                "rows" INTEGER NOT NULL, "minWidth" INTEGER NOT NULL, "minHeight" INTEGER NOT NULL, "focused" INTEGER, \
                "historyPosition" INTEGER NOT NULL DEFAULT 0, "createdAt" DATETIME NOT NULL, "updatedAt" DATETIME NOT NULL);
                CREATE TABLE "pane" ("layoutId" INTEGER NOT NULL REFERENCES "layout"("id") ON DELETE CASCADE, "paneId" INTEGER NOT NULL, \
                "position" INTEGER NOT NULL, "app" TEXT NOT NULL, "x" INTEGER NOT NULL, "y" INTEGER NOT NULL, "width" INTEGER NOT NULL, \
                "height" INTEGER NOT NULL, "config" TEXT NOT NULL, "state" TEXT NOT NULL, PRIMARY KEY ("layoutId", "paneId"));
                CREATE TABLE "history" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "layoutId" INTEGER NOT NULL REFERENCES "layout"("id") \
                ON DELETE CASCADE, "position" INTEGER NOT NULL, "step" TEXT NOT NULL, "snapshot" TEXT NOT NULL, \
                "createdAt" DATETIME NOT NULL, UNIQUE ("layoutId", "position"));
                CREATE TABLE "preference" ("key" TEXT PRIMARY KEY NOT NULL, "value" TEXT NOT NULL);
                """)
        }
        migrations.register("v2: micro-app grants") { db in
            try db.execute(sql: """
                CREATE TABLE "appGrant" ("app" TEXT PRIMARY KEY NOT NULL, "digest" TEXT NOT NULL, "grantedAt" DATETIME NOT NULL)
                """)
        }
        migrations.register("v3: load times") { db in
            // A start's canvasLoadTime has no `start` and no `app`; its panes' microAppLoadTime
            // point at it. Seconds since 1970, not date text: formatting that loads ICU's date data,
            // 2 MB of the dashboard's memory, at every start.
            try db.execute(sql: """
                CREATE TABLE "loadTime" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "start" INTEGER REFERENCES "loadTime"("id") \
                ON DELETE CASCADE, "recordedAt" DOUBLE NOT NULL, "layout" TEXT NOT NULL, "app" TEXT, "milliseconds" DOUBLE NOT NULL)
                """)
        }
        migrations.register("v4: times as seconds since 1970") { db in
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
        migrations.register("v5: shared canvases' copies") { db in
            // One row per canvas a dashboard opened from a server (`server` names it and the
            // user), its copy as JSON: the layout as the server last had it and the edits made
            // here that it has not answered.
            try db.execute(sql: """
                CREATE TABLE "sharedCopy" ("server" TEXT NOT NULL, "name" TEXT NOT NULL, "canvas" INTEGER NOT NULL, \
                "copy" TEXT NOT NULL, "updatedAt" DOUBLE NOT NULL, PRIMARY KEY ("server", "name"))
                """)
        }
        return migrations
    }
}
