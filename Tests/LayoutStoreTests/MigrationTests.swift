import CanvasCore
import Foundation
import GRDB
@testable import LayoutStore
import Testing

@Suite("Schema migrations")
struct MigrationTests {
    static let v1 = "v1: layouts, panes, history, preferences"
    static let v2 = "v2: micro-app grants"
    static let v3 = "v3: load times"

    static func appliedMigrations(_ url: URL) throws -> [String] {
        try rawQueue(url).read { db in try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY identifier") }
    }

    @Test func aNewFileGetsTheWholeSchemaInWALMode() throws {
        let scratch = try Scratch()
        #expect(try scratch.files().isEmpty)
        let store = try openStore(scratch.database)
        #expect(store.path == scratch.database.path)
        #expect(FileManager.default.fileExists(atPath: scratch.database.path))

        #expect(try Self.appliedMigrations(scratch.database) == [Self.v1, Self.v2, Self.v3])
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
        #expect(try Self.appliedMigrations(scratch.database) == [Self.v1, Self.v2, Self.v3])
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
            try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v4: tags')")
            try db.execute(sql: "CREATE TABLE tag (name TEXT)")
        }
        let filesBefore = try scratch.files()

        #expect(throws: LayoutStoreError.newerVersion(path: scratch.database.path)) {
            try LayoutStore.open(at: scratch.database)
        }
        // Not mistaken for a damaged file: nothing renamed, nothing rolled back.
        #expect(try scratch.files() == filesBefore)
        #expect(try Self.appliedMigrations(scratch.database) == [Self.v1, Self.v2, Self.v3, "v4: tags"])
        #expect(try count("SELECT COUNT(*) FROM layout", in: scratch.database) == 1)
        #expect(LayoutStoreError.newerVersion(path: "/x").description.contains("newer TermCanvas"))
    }

    @Test func aNewerVersionIsRefusedWhenWrappingAnOpenDatabase() throws {
        let queue = try DatabaseQueue()
        _ = try LayoutStore(queue)
        try queue.write { db in try db.execute(sql: "INSERT INTO grdb_migrations VALUES ('v9: future')") }
        #expect(throws: LayoutStoreError.newerVersion(path: ":memory:")) { try LayoutStore(queue) }
    }
}
