import CanvasCore
import Foundation
import GRDB
@testable import LayoutStore
import Testing

/// The layout files of today's users, written by the dashboard while it kept its layouts through
/// GRDB (`Fixtures/layouts-grdb.sqlite`: the release build of 33b5131 started on a fresh home, one
/// pane moved in arrange mode, quit), open in the build that keeps them through its own SQLite
/// layer, and the other way round.
struct FilesBeforeIssue43Tests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/layouts-grdb.sqlite")

    /// A copy of the fixture in a scratch directory, as the user's file.
    static func userFile() throws -> Scratch {
        let scratch = try Scratch()
        try FileManager.default.copyItem(at: fixture, to: scratch.database)
        return scratch
    }

    @Test func aLayoutFileWrittenThroughGRDBOpensWithItsHistoryPreferencesAndLoadTimes() throws {
        let scratch = try Self.userFile()
        let opened = try LayoutStore.open(at: scratch.database)
        #expect(opened.recovered == nil)
        let store = opened.store
        let stored = try #require(try store.load(named: "default"))
        #expect(stored.layout.panes.map(\.app) == ["todo", "calendar", "chat"])
        #expect(stored.history.canUndo)
        #expect(try store.history(named: "default").map(\.step) == ["created", "move"])
        #expect(try store.history(named: "default").last?.isCurrent == true)
        #expect(try store.preference("layout") == "default")
        let loadTimes = try store.loadTimes()
        #expect(loadTimes.count == 1)
        #expect(loadTimes.first?.times.panes.count == 3)
        #expect(try store.summaries().map(\.name) == ["default"])
        // Written to by the new build: a step, then undone.
        try store.recordStep("resize", layout: stored.layout)
        try store.recordUndo(layout: stored.layout)
        #expect(try store.history(named: "default").map(\.step) == ["created", "move", "resize"])
    }

    @Test func aFileTheNewBuildWroteStillOpensThroughGRDB() throws {
        let scratch = try Self.userFile()
        let store = try LayoutStore.open(at: scratch.database).store
        try store.save(Sample.planner)
        let names = try rawQueue(scratch.database).read { db in
            try String.fetchAll(db, sql: "SELECT name FROM layout ORDER BY name")
        }
        #expect(names == [Sample.name, "default"])  // by bytes: "P" before "d"
        let migrations = try MigrationTests.appliedMigrations(scratch.database)
        #expect(migrations == [MigrationTests.v1, MigrationTests.v2, MigrationTests.v3, MigrationTests.v4, MigrationTests.v5])
    }
}
