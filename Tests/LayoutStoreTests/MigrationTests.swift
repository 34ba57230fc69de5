import CanvasCore
import Foundation
import GRDB
import SQLiteDatabase
@testable import LayoutStore
import Testing

@Suite("Schema migrations")
struct MigrationTests {
    static let v1 = "v1: layouts, panes, history, preferences"
    static let v2 = "v2: micro-app grants"
    static let v3 = "v3: load times"
    static let v4 = "v4: times as seconds since 1970"
    static let v5 = "v5: shared canvases' copies"

    static func appliedMigrations(_ url: URL) throws -> [String] {
        try rawQueue(url).read { db in try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY identifier") }
    }

    @Test func aNewFileGetsTheWholeSchemaInWALMode() throws {
        let scratch = try Scratch()
        #expect(try scratch.files().isEmpty)
        let store = try openStore(scratch.database)
        #expect(store.path == scratch.database.path)
        #expect(FileManager.default.fileExists(atPath: scratch.database.path))

        #expect(try Self.appliedMigrations(scratch.database) == [Self.v1, Self.v2, Self.v3, Self.v4, Self.v5])
        let (tables, layoutColumns, paneColumns, journalMode) = try rawQueue(scratch.database).read { db in
            (try ["layout", "pane", "history", "preference"].filter { try db.tableExists($0) },
             try db.columns(in: "layout").map(\.name),
             try db.columns(in: "pane").map(\.name),
             try String.fetchOne(db, sql: "PRAGMA journal_mode"))
        }
        #expect(tables == ["layout", "pane", "history", "preference"])
        #expect(layoutColumns == [
            "id", "name", "columns", "rows", "minWidth", "minHeight", "focused", "historyPosition", "createdAt", "updatedAt",
        ])
        #expect(paneColumns == ["layoutId", "paneId", "position", "app", "x", "y", "width", "height", "config", "state"])
        #expect(journalMode == "wal")
    }

    @Test func aMissingDirectoryIsCreated() throws {
        let scratch = try Scratch()
        let nested = scratch.directory.appendingPathComponent("a/b/layouts.sqlite")
        let store = try openStore(nested)
        try store.save(Sample.planner)
        #expect(try store.load(named: Sample.name)?.layout == Sample.planner)
    }

    @Test func reopeningIsIdempotentAndKeepsTheData() throws {
        let scratch = try Scratch()
        do {
            let store = try openStore(scratch.database)
            try store.save(Sample.planner)
            try store.recordStep("swap", layout: Sample.swapped)
        }
        for _ in 0..<3 {
            let store = try openStore(scratch.database)
            #expect(try store.load(named: Sample.name)?.layout == Sample.swapped)
            #expect(try store.history(named: Sample.name).count == 2)
        }
        #expect(try Self.appliedMigrations(scratch.database) == [Self.v1, Self.v2, Self.v3, Self.v4, Self.v5])
    }

    /// Times were GRDB's date text before v4 (formatting it loaded ICU at every start); v4 turns
    /// the rows already written into seconds since 1970, and they read back as the same instants.
    @Test func v4TurnsDateTextIntoSecondsSince1970() throws {
        let scratch = try Scratch()
        do {
            let store = try openStore(scratch.database)
            try store.save(Sample.planner)
            try store.grant(app: "sysmon", digest: "abc")
        }
        // The file as a v3 dashboard left it: times as text, v4 not applied.
        try rawQueue(scratch.database).write { db in
            try db.execute(sql: "UPDATE layout SET createdAt = '2026-11-22 10:20:30.250', updatedAt = '2026-11-23 00:00:00.000'")
            try db.execute(sql: "UPDATE history SET createdAt = '2026-11-22 10:20:30.250'")
            try db.execute(sql: "UPDATE appGrant SET grantedAt = '1970-01-02 00:00:01.500'")
            try db.execute(sql: "INSERT INTO appGrant (app, digest, grantedAt) VALUES ('damaged', 'def', 'not a date')")
            try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier = ?", arguments: [Self.v4])
        }
        let store = try openStore(scratch.database)
        #expect(try Self.appliedMigrations(scratch.database) == [Self.v1, Self.v2, Self.v3, Self.v4, Self.v5])
        let written = 1_795_342_830.25  // 2026-11-22 10:20:30.250 UTC
        let times = try store.history(named: Sample.name).map(\.time.timeIntervalSince1970)
        #expect(times.count == 1 && abs(times[0] - written) < 0.001, "\(times)")
        let updated = try #require(try store.summaries().first?.updatedAt)
        #expect(abs(updated - 1_795_392_000) < 0.001, "\(updated)")
        let granted = try #require(try store.grant(of: "sysmon")).grantedAt.timeIntervalSince1970
        #expect(abs(granted - 86_401.5) < 0.001, "\(granted)")
        #expect(try store.grant(of: "damaged")?.grantedAt.timeIntervalSince1970 == 0)
        // New writes are numbers from the start.
        try store.recordStep("swap", layout: Sample.swapped)
        #expect(try count("SELECT COUNT(*) FROM history WHERE typeof(createdAt) = 'real'", in: scratch.database) == 2)
    }

    /// A value of the wrong type in the file (edited or damaged on disk) is an error to show, never
    /// a trap that ends the dashboard (GRDB's row subscripts trap; the store decodes with `decode`).
    @Test func aValueOfTheWrongTypeIsAnErrorNotATrap() throws {
        let scratch = try Scratch()
        let store = try openStore(scratch.database)
        try store.save(Sample.planner)
        try store.grant(app: "sysmon", digest: "abc")
        try rawQueue(scratch.database).write { db in
            try db.execute(sql: "UPDATE layout SET updatedAt = x'00ff'")
            try db.execute(sql: "UPDATE appGrant SET grantedAt = x'00ff'")
        }
        #expect(throws: (any Error).self) { try store.summaries() }
        #expect(throws: (any Error).self) { try store.grants() }
    }

    @Test func anInMemoryStoreMigratesToo() throws {
        let store = try LayoutStore.inMemory()
        #expect(store.path == nil)
        try store.save(Sample.planner)
        #expect(try store.load(named: Sample.name)?.layout == Sample.planner)
    }

    @Test func aDatabaseFromANewerVersionIsRefusedAndLeftAlone() throws {
        let scratch = try Scratch()
        do {
            let store = try openStore(scratch.database)
            try store.save(Sample.planner)
        }
        // A newer TermCanvas applied a migration this one does not know.
        try rawQueue(scratch.database).write { db in
            try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v6: tags')")
            try db.execute(sql: "CREATE TABLE tag (name TEXT)")
        }
        let filesBefore = try scratch.files()

        #expect(throws: LayoutStoreError.newerVersion(path: scratch.database.path)) {
            try LayoutStore.open(at: scratch.database)
        }
        // Not mistaken for a damaged file: nothing renamed, nothing rolled back.
        #expect(try scratch.files() == filesBefore)
        #expect(try Self.appliedMigrations(scratch.database) == [Self.v1, Self.v2, Self.v3, Self.v4, Self.v5, "v6: tags"])
        #expect(try count("SELECT COUNT(*) FROM layout", in: scratch.database) == 1)
        #expect(LayoutStoreError.newerVersion(path: "/x").description.contains("newer TermCanvas"))
    }

    @Test func aNewerVersionIsRefusedWhenWrappingAnOpenDatabase() throws {
        let queue = try SQLiteDatabase.DatabaseQueue.inMemory()
        _ = try LayoutStore(queue)
        try queue.write { db in try db.execute(sql: "INSERT INTO grdb_migrations VALUES ('v9: future')") }
        #expect(throws: LayoutStoreError.newerVersion(path: ":memory:")) { try LayoutStore(queue) }
    }
}
