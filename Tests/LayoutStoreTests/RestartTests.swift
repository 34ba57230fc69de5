import CanvasCore
import Foundation
@testable import LayoutStore
import Testing

@Suite("Undo and redo survive a restart")
struct RestartTests {
    enum Direction { case undo, redo }

    /// Undoes or redoes one step; false when there was none.
    func step(_ manager: inout CanvasManager, _ direction: Direction) -> Bool {
        direction == .undo ? manager.undo() : manager.redo()
    }

    /// A session as the dashboard runs one: every arrangement step and undo is written through.
    /// Returns the arrangements the canvas went through, first to last.
    static func session(_ store: LayoutStore) throws -> [LayoutData] {
        try store.save(Sample.planner)
        let loaded = try #require(try store.load(named: Sample.name))
        var manager = try CanvasManager(layout: loaded.layout, history: loaded.history)
        var seen = [manager.layout]

        try manager.resizePane(1, .left) // pane 1: 8 → 7 wide; panes 2 and 7 widen
        try store.recordStep("resize", layout: manager.saveLayout())
        seen.append(manager.layout)
        try manager.movePane(2, .down) // swaps with pane 7
        try store.recordStep("move", layout: manager.saveLayout())
        seen.append(manager.layout)
        try manager.removeWidget(7)
        try store.recordStep("remove", layout: manager.saveLayout())
        seen.append(manager.layout)
        #expect(Set(seen.map(\.panes)).count == 4, "every step changed the arrangement")
        return seen
    }

    @Test func aCanvasRestoredFromTheStoreUndoesThroughTheStoredSteps() throws {
        let scratch = try Scratch()
        let seen: [LayoutData]
        do {
            seen = try Self.session(try openStore(scratch.database))
        }
        // The store is closed: SQLite removed the write-ahead log on the last close.
        #expect(!FileManager.default.fileExists(atPath: scratch.database.path + "-wal"))

        let store = try openStore(scratch.database)
        let loaded = try #require(try store.load(named: Sample.name))
        var manager = try CanvasManager(layout: loaded.layout, history: loaded.history)
        #expect(manager.layout == seen[3])
        #expect(manager.canUndo && !manager.canRedo)

        for expected in seen.dropLast().reversed() {
            #expect(step(&manager, .undo))
            #expect(manager.layout == expected)
        }
        #expect(!step(&manager, .undo))
        for expected in seen.dropFirst() {
            #expect(step(&manager, .redo))
            #expect(manager.layout == expected)
        }
        #expect(!step(&manager, .redo))
    }

    @Test func undoneStepsCanBeRedoneAfterARestart() throws {
        let scratch = try Scratch()
        let seen: [LayoutData]
        do {
            let store = try openStore(scratch.database)
            seen = try Self.session(store)
            // Undo twice, writing through as the dashboard does.
            let loaded = try #require(try store.load(named: Sample.name))
            var manager = try CanvasManager(layout: loaded.layout, history: loaded.history)
            #expect(step(&manager, .undo))
            try store.recordUndo(layout: manager.saveLayout())
            #expect(step(&manager, .undo))
            try store.recordUndo(layout: manager.saveLayout())
            #expect(manager.layout == seen[1])
        }

        let store = try openStore(scratch.database)
        let loaded = try #require(try store.load(named: Sample.name))
        #expect(loaded.layout == seen[1])
        var manager = try CanvasManager(layout: loaded.layout, history: loaded.history)
        #expect(manager.canUndo && manager.canRedo)
        #expect(step(&manager, .redo))
        #expect(manager.layout == seen[2])
        try store.recordRedo(layout: manager.saveLayout())
        #expect(step(&manager, .redo))
        #expect(manager.layout == seen[3])
        try store.recordRedo(layout: manager.saveLayout())
        #expect(!step(&manager, .redo))

        // And after yet another restart the store agrees with the canvas.
        let again = try #require(try openStore(scratch.database).load(named: Sample.name))
        #expect(again.layout == seen[3])
        #expect(again.history.undoSnapshots == Array(seen.prefix(3)))
        #expect(again.history.redoSnapshots.isEmpty)
    }
}
