import CanvasCore
import Foundation
import GRDB
@testable import LayoutStore
import Testing

@Suite("Saving and loading layouts")
struct RoundTripTests {
    @Test func aSavedLayoutLoadsBackEqual() throws {
        let scratch = try Scratch()
        let store = try openStore(scratch.database)
        try store.save(Sample.planner)

        let loaded = try #require(try store.load(named: Sample.name))
        #expect(loaded.layout == Sample.planner)
        // Spelled out too, so an equality that ignored fields could not hide a loss.
        #expect(loaded.layout.grid == GridSpec(columns: 16, rows: 10, minimumPaneSize: Size(width: 3, height: 2)))
        #expect(loaded.layout.focused == PaneID(2))
        #expect(loaded.layout.panes.map(\.id) == [1, 2, 7])
        #expect(loaded.layout.panes.map(\.app) == [.calendar, .eventLog, "weather"])
        #expect(loaded.layout.panes[0].config["title"] == "Ünïcode ✓ 日本語 👩‍👩‍👧")
        #expect(loaded.layout.panes[1].config == ["filter": "level: \"error\" # not a comment", "empty": ""])
        #expect(loaded.layout.panes[1].state == ["scroll": "42"])
        #expect(loaded.layout.panes[2].config.isEmpty && loaded.layout.panes[2].state.isEmpty)
        // A layout saved once has nothing to undo or redo.
        #expect(loaded.history.undoSnapshots.isEmpty)
        #expect(loaded.history.redoSnapshots.isEmpty)
    }

    @Test func theLayoutSurvivesClosingAndReopeningTheFile() throws {
        let scratch = try Scratch()
        do {
            let store = try openStore(scratch.database)
            try store.save(Sample.planner)
        }
        let reopened = try openStore(scratch.database)
        #expect(try reopened.load(named: Sample.name)?.layout == Sample.planner)
    }

    @Test func loadingAnUnknownNameGivesNil() throws {
        let scratch = try Scratch()
        let store = try openStore(scratch.database)
        try store.save(Sample.planner)
        #expect(try store.load(named: "planner") == nil)
        #expect(try store.load(named: Sample.name + " ") == nil)
    }

    @Test func aLayoutWithoutPanesOrFocusRoundTrips() throws {
        let scratch = try Scratch()
        let store = try openStore(scratch.database)
        let empty = LayoutData(name: "empty", grid: GridSpec(columns: 3, rows: 64, minimumPaneSize: Size(width: 1, height: 1)))
        try store.save(empty)
        #expect(try store.load(named: "empty")?.layout == empty)
        let summaries = try store.summaries()
        #expect(summaries.map(\.name) == ["empty"])
        #expect(summaries.map(\.paneCount) == [0])
    }

    @Test func summariesListNamesWithPaneCountsAndSaveTimes() throws {
        let scratch = try Scratch()
        let store = try openStore(scratch.database)
        #expect(try store.summaries().isEmpty)

        let before = Date().timeIntervalSince1970
        try store.save(Sample.planner)
        try store.save(LayoutData(name: "beta", grid: Sample.grid, panes: [Pane(id: 4, app: .calendar, frame: rect(0, 0, 16, 10))]))
        try store.save(LayoutData(name: "Alpha"))
        let after = Date().timeIntervalSince1970

        let summaries = try store.summaries()
        // Sorted by name ignoring case; the emoji name sorts after the letters.
        #expect(summaries.map(\.name) == ["Alpha", "beta", Sample.name])
        #expect(summaries.map(\.paneCount) == [0, 1, 3])
        #expect(summaries.allSatisfy { !$0.isPreset })
        for summary in summaries {
            let time = try #require(summary.updatedAt)
            // Stored with millisecond precision.
            #expect(time >= before - 0.002 && time <= after + 0.002, "\(summary.name) saved at \(time)")
        }
    }

    @Test func savingAgainUpdatesTheOneRowInPlace() throws {
        let scratch = try Scratch()
        let store = try openStore(scratch.database)
        try store.save(Sample.planner)
        let firstTime = try #require(try store.summaries().first?.updatedAt)
        let createdAt = try rawQueue(scratch.database).read { db in
            try Date.fetchOne(db, sql: "SELECT createdAt FROM layout")
        }
        Thread.sleep(forTimeInterval: 0.01)

        var changed = Sample.planner
        changed.panes.removeLast()
        changed.panes[0].state["selected"] = "2025-04-01"
        changed.panes[1].frame = rect(8, 0, 8, 10)
        changed.focused = 1
        changed.grid.minimumPaneSize = Size(width: 2, height: 2)
        try store.save(changed)

        #expect(try store.load(named: Sample.name)?.layout == changed)
        let summaries = try store.summaries()
        #expect(summaries.count == 1)
        #expect(summaries.first?.paneCount == 2)
        #expect(try #require(summaries.first?.updatedAt) > firstTime)

        // One layout row, only the new panes, the creation time kept.
        #expect(try count("SELECT COUNT(*) FROM layout", in: scratch.database) == 1)
        #expect(try count("SELECT COUNT(*) FROM pane", in: scratch.database) == 2)
        let createdAgain = try rawQueue(scratch.database).read { db in
            try Date.fetchOne(db, sql: "SELECT createdAt FROM layout")
        }
        #expect(createdAgain == createdAt)
        // A plain save is not an arrangement step: nothing to undo.
        #expect(try store.history(named: Sample.name).count == 1)
    }

    @Test func twoLayoutsKeepTheirOwnPanes() throws {
        let scratch = try Scratch()
        let store = try openStore(scratch.database)
        var other = Sample.swapped
        other.name = "other"
        try store.save(Sample.planner)
        try store.save(other)
        #expect(try store.load(named: Sample.name)?.layout == Sample.planner)
        #expect(try store.load(named: "other")?.layout == other)
        #expect(try count("SELECT COUNT(*) FROM pane", in: scratch.database) == 6)
    }
}
