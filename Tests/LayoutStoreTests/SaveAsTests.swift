import CanvasCore
import Foundation
@testable import LayoutStore
import Testing

@Suite("Save as: a new name that keeps the history")
struct SaveAsTests {
    static func named(_ name: String, _ layout: LayoutData) -> LayoutData {
        var copy = layout
        copy.name = name
        return copy
    }

    @Test func theCopyCarriesTheHistoryAndTheSourceIsUnchanged() throws {
        let scratch = try Scratch()
        do {
            let store = try HistoryTests.threeSteps(scratch)
            try store.save(Self.named("copy", Sample.narrowed), continuingHistoryOf: Sample.name)
            // A step on the copy is the copy's alone.
            var further = Self.named("copy", Sample.narrowed)
            further.panes[1].frame = rect(5, 0, 11, 4)
            try store.recordStep("shrink", layout: further)
        }
        let store = try openStore(scratch.database)
        let copy = try #require(try store.load(named: "copy"))
        #expect(copy.layout.name == "copy")
        #expect(copy.history.undoSnapshots.map(\.panes) == [Sample.planner.panes, Sample.swapped.panes, Sample.narrowed.panes])
        #expect(try store.history(named: "copy").map(\.step) == ["created", "swap", "narrow", "shrink"])

        let source = try #require(try store.load(named: Sample.name))
        #expect(source.layout == Sample.narrowed)
        #expect(source.history.undoSnapshots == [Sample.planner, Sample.swapped])
        #expect(try store.history(named: Sample.name).map(\.step) == ["created", "swap", "narrow"])

        // Undo on the copy walks back through the steps made before it was saved.
        var manager = try CanvasManager(layout: copy.layout, history: copy.history)
        var frames: [[Rect]] = []
        while manager.undo() { frames.append(manager.panes.map(\.frame)) }
        #expect(frames == [Sample.narrowed, Sample.swapped, Sample.planner].map { $0.panes.map(\.frame) })
        #expect(manager.layout.name == "copy")
    }

    @Test func undoneStepsStayRedoableInTheCopy() throws {
        let scratch = try Scratch()
        let store = try HistoryTests.threeSteps(scratch)
        try store.recordUndo(layout: Sample.swapped)
        try store.save(Self.named("copy", Sample.swapped), continuingHistoryOf: Sample.name)

        let copy = try #require(try store.load(named: "copy"))
        #expect(copy.layout == Self.named("copy", Sample.swapped))
        #expect(copy.history.undoSnapshots == [Sample.planner])
        #expect(copy.history.redoSnapshots == [Sample.narrowed])
        #expect(try store.history(named: "copy").map(\.isCurrent) == [false, true, false])
    }

    @Test func savingAsAnExistingNameReplacesThatLayout() throws {
        let scratch = try Scratch()
        let store = try HistoryTests.threeSteps(scratch)
        try store.save(Self.named("old", Sample.planner))
        try store.recordStep("old step", layout: Self.named("old", Sample.swapped))

        try store.save(Self.named("old", Sample.narrowed), continuingHistoryOf: Sample.name)

        #expect(try store.load(named: "old")?.layout == Self.named("old", Sample.narrowed))
        #expect(try store.history(named: "old").map(\.step) == ["created", "swap", "narrow"])
        #expect(try store.summaries().map(\.name) == ["old", Sample.name])
        #expect(try count("SELECT COUNT(*) FROM pane", in: scratch.database) == 6)
        #expect(try count("SELECT COUNT(*) FROM history", in: scratch.database) == 6)
    }

    @Test func savingAsFromALayoutNeverStoredIsAPlainSave() throws {
        // E.g. a preset that was arranged but never saved.
        let scratch = try Scratch()
        let store = try openStore(scratch.database)
        try store.save(Self.named("copy", Sample.swapped), continuingHistoryOf: "preset")
        let copy = try #require(try store.load(named: "copy"))
        #expect(copy.layout == Self.named("copy", Sample.swapped))
        #expect(copy.history.undoSnapshots.isEmpty)
        #expect(try store.history(named: "copy").map(\.step) == ["created"])
    }

    @Test func savingAsTheSameNameKeepsItsHistory() throws {
        let scratch = try Scratch()
        let store = try HistoryTests.threeSteps(scratch)
        var live = Sample.narrowed
        live.panes[0].state["selected"] = "2026-02-02"
        try store.save(live, continuingHistoryOf: Sample.name)

        let loaded = try #require(try store.load(named: Sample.name))
        #expect(loaded.layout == live)
        #expect(loaded.history.undoSnapshots == [Sample.planner, Sample.swapped])
        #expect(try store.history(named: Sample.name).map(\.step) == ["created", "swap", "narrow"])
    }

    @Test func anInvalidLayoutIsRefusedAndNothingIsReplaced() throws {
        let scratch = try Scratch()
        let store = try HistoryTests.threeSteps(scratch)
        try store.save(Self.named("old", Sample.planner))
        let dump = try InvalidLayoutTests.dump(scratch.database)
        var bad = Self.named("old", Sample.planner)
        bad.panes[2].frame = rect(7, 4, 9, 6)
        #expect(throws: LayoutStoreError.invalidLayout(name: "old", reason: CanvasError.overlap(7, 1).description)) {
            try store.save(bad, continuingHistoryOf: Sample.name)
        }
        #expect(throws: LayoutStoreError.invalidName("no spaces at the start or end")) {
            try store.save(Self.named(" old", Sample.planner), continuingHistoryOf: Sample.name)
        }
        #expect(try InvalidLayoutTests.dump(scratch.database) == dump)
    }
}
