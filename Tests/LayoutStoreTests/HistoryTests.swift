import CanvasCore
import Foundation
@testable import LayoutStore
import Testing

@Suite("The stored history of arrangement steps")
struct HistoryTests {
    /// A store holding `planner` (saved), then the steps `swap` and `narrow`.
    static func threeSteps(_ scratch: Scratch) throws -> LayoutStore {
        let store = try openStore(scratch.database)
        try store.save(Sample.planner)
        try store.recordStep("swap", layout: Sample.swapped)
        try store.recordStep("narrow", layout: Sample.narrowed)
        return store
    }

    struct Entry: Equatable, CustomStringConvertible {
        let position: Int, step: String, isCurrent: Bool
        var description: String { "\(position) \(step)\(isCurrent ? " *" : "")" }
    }

    static func entries(_ store: LayoutStore, _ name: String = Sample.name) throws -> [Entry] {
        try store.history(named: name).map { Entry(position: $0.position, step: $0.step, isCurrent: $0.isCurrent) }
    }

    @Test func recordStepAppendsAndLoadGivesTheEarlierArrangementsOldestFirst() throws {
        let scratch = try Scratch()
        let store = try Self.threeSteps(scratch)

        #expect(try Self.entries(store) == [
            Entry(position: 0, step: "created", isCurrent: false),
            Entry(position: 1, step: "swap", isCurrent: false),
            Entry(position: 2, step: "narrow", isCurrent: true),
        ])
        let loaded = try #require(try store.load(named: Sample.name))
        #expect(loaded.layout == Sample.narrowed)
        #expect(loaded.history.undoSnapshots == [Sample.planner, Sample.swapped])
        #expect(loaded.history.redoSnapshots.isEmpty)
        #expect(loaded.history.limit == LayoutStore.historyLimit)
    }

    @Test func historyTimesAreWhenEachStepWasRecorded() throws {
        let scratch = try Scratch()
        let before = Date()
        let store = try Self.threeSteps(scratch)
        let after = Date()
        let times = try store.history(named: Sample.name).map(\.time)
        #expect(times.count == 3)
        #expect(times == times.sorted())
        #expect(times.allSatisfy { $0.timeIntervalSince(before) >= -0.002 && $0.timeIntervalSince(after) <= 0.002 })
    }

    @Test func undoAndRedoMoveWhereTheLayoutStandsWithoutLosingSteps() throws {
        let scratch = try Scratch()
        let store = try Self.threeSteps(scratch)

        // Undo the narrowing: the widget state that changed meanwhile is what is saved.
        var swappedLater = Sample.swapped
        swappedLater.panes[0].state["selected"] = "2025-12-24"
        try store.recordUndo(layout: swappedLater)
        var loaded = try #require(try store.load(named: Sample.name))
        #expect(loaded.layout == swappedLater)
        #expect(loaded.history.undoSnapshots == [Sample.planner])
        #expect(loaded.history.redoSnapshots == [Sample.narrowed])
        #expect(try Self.entries(store).map(\.isCurrent) == [false, true, false])

        // Undo again, to the start.
        try store.recordUndo(layout: Sample.planner)
        loaded = try #require(try store.load(named: Sample.name))
        #expect(loaded.layout == Sample.planner)
        #expect(loaded.history.undoSnapshots.isEmpty)
        #expect(loaded.history.redoSnapshots == [Sample.swapped, Sample.narrowed])
        #expect(try Self.entries(store).map(\.isCurrent) == [true, false, false])

        // Nothing further back: the position stays.
        try store.recordUndo(layout: Sample.planner)
        #expect(try Self.entries(store).map(\.isCurrent) == [true, false, false])

        // Redo twice, then once too many.
        try store.recordRedo(layout: Sample.swapped)
        loaded = try #require(try store.load(named: Sample.name))
        #expect(loaded.history.undoSnapshots == [Sample.planner])
        #expect(loaded.history.redoSnapshots == [Sample.narrowed])
        try store.recordRedo(layout: Sample.narrowed)
        try store.recordRedo(layout: Sample.narrowed)
        loaded = try #require(try store.load(named: Sample.name))
        #expect(loaded.layout == Sample.narrowed)
        #expect(loaded.history.undoSnapshots == [Sample.planner, Sample.swapped])
        #expect(loaded.history.redoSnapshots.isEmpty)
        #expect(try Self.entries(store).map(\.step) == ["created", "swap", "narrow"])
    }

    @Test func aNewStepAfterAnUndoDropsTheUndoneSteps() throws {
        let scratch = try Scratch()
        let store = try Self.threeSteps(scratch)
        try store.recordUndo(layout: Sample.swapped)
        try store.recordUndo(layout: Sample.planner)

        var moved = Sample.planner
        moved.panes[1].frame = rect(8, 0, 8, 4)
        try store.recordStep("shrink", layout: moved)

        #expect(try Self.entries(store) == [
            Entry(position: 0, step: "created", isCurrent: false),
            Entry(position: 1, step: "shrink", isCurrent: true),
        ])
        let loaded = try #require(try store.load(named: Sample.name))
        #expect(loaded.layout == moved)
        #expect(loaded.history.undoSnapshots == [Sample.planner])
        #expect(loaded.history.redoSnapshots.isEmpty)
        #expect(try count("SELECT COUNT(*) FROM history", in: scratch.database) == 2)
    }

    @Test func historyOfAnUnknownLayoutIsNotFound() throws {
        let scratch = try Scratch()
        let store = try Self.threeSteps(scratch)
        #expect(throws: LayoutStoreError.notFound(name: "nope")) { try store.history(named: "nope") }
    }

    @Test func historiesOfTwoLayoutsAreSeparate() throws {
        let scratch = try Scratch()
        let store = try Self.threeSteps(scratch)
        var other = Sample.planner
        other.name = "other"
        try store.save(other)
        try store.recordStep("swap other", layout: { var l = Sample.swapped; l.name = "other"; return l }())
        try store.recordUndo(layout: other)

        #expect(try Self.entries(store, "other").map(\.step) == ["created", "swap other"])
        #expect(try Self.entries(store, "other").map(\.isCurrent) == [true, false])
        // The first layout's history is untouched.
        #expect(try Self.entries(store).map(\.step) == ["created", "swap", "narrow"])
        #expect(try Self.entries(store).map(\.isCurrent) == [false, false, true])
    }
}
