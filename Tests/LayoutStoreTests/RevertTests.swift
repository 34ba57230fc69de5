import CanvasCore
import Foundation
@testable import LayoutStore
import Testing

@Suite("Reverting to an earlier step")
struct RevertTests {
    @Test func revertBringsBackTheArrangementAsANewUndoableStepKeepingWidgetState() throws {
        let scratch = try Scratch()
        let store = try HistoryTests.threeSteps(scratch)
        // Widget state changes after the last step, without an arrangement step.
        var live = Sample.narrowed
        live.panes[0].state = ["selected": "2026-01-01"]
        live.panes[1].state = ["scroll": "7"]
        try store.save(live)

        let reverted = try store.revert(named: Sample.name, toStep: 1)

        var expected = Sample.swapped
        expected.panes[0].state = ["selected": "2026-01-01"]
        expected.panes[1].state = ["scroll": "7"]
        #expect(reverted == expected)
        let loaded = try #require(try store.load(named: Sample.name))
        #expect(loaded.layout == expected)
        #expect(try store.history(named: Sample.name).map(\.step) == ["created", "swap", "narrow", "revert to step 1"])
        #expect(try store.history(named: Sample.name).map(\.isCurrent) == [false, false, false, true])
        // Undoing the revert goes back to the narrowed arrangement.
        #expect(loaded.history.undoSnapshots.last.map(\.panes).map { $0.map(\.frame) } == Sample.narrowed.panes.map(\.frame))
        var manager = try CanvasManager(layout: loaded.layout, history: loaded.history)
        let undone = manager.undo()
        #expect(undone)
        #expect(manager.panes.map(\.frame) == Sample.narrowed.panes.map(\.frame))
        #expect(manager.panes[0].state == ["selected": "2026-01-01"])
    }

    @Test func revertKeepsTheCurrentWidgetSettingsToo() throws {
        // Like undo (CanvasManager carries settings and state), a revert changes the arrangement only.
        let scratch = try Scratch()
        let store = try HistoryTests.threeSteps(scratch)
        var live = Sample.narrowed
        live.panes[1].config["filter"] = "changed after the steps"
        try store.save(live)

        let reverted = try store.revert(named: Sample.name, toStep: 0)
        #expect(reverted.panes.map(\.frame) == Sample.planner.panes.map(\.frame))
        #expect(reverted.panes[1].config["filter"] == "changed after the steps")
    }

    @Test func revertToTheStartOfAHistory() throws {
        let scratch = try Scratch()
        let store = try HistoryTests.threeSteps(scratch)
        #expect(try store.revert(named: Sample.name, toStep: 0) == Sample.planner)
        #expect(try store.load(named: Sample.name)?.layout == Sample.planner)
        #expect(try store.history(named: Sample.name).count == 4)
    }

    @Test func revertToAMissingStepIsRefusedAndChangesNothing() throws {
        let scratch = try Scratch()
        let store = try HistoryTests.threeSteps(scratch)
        for position in [3, 99, -1] {
            #expect(throws: LayoutStoreError.noSuchStep(name: Sample.name, position: position)) {
                try store.revert(named: Sample.name, toStep: position)
            }
        }
        #expect(try store.history(named: Sample.name).count == 3)
        #expect(try store.load(named: Sample.name)?.layout == Sample.narrowed)
    }

    @Test func revertOfAnUnknownLayoutIsNotFound() throws {
        let scratch = try Scratch()
        let store = try HistoryTests.threeSteps(scratch)
        #expect(throws: LayoutStoreError.notFound(name: "nope")) { try store.revert(named: "nope", toStep: 0) }
    }

    @Test func revertCannotReachAnotherLayoutsSteps() throws {
        let scratch = try Scratch()
        let store = try HistoryTests.threeSteps(scratch)
        try store.save(LayoutData(name: "small"))
        // "small" has only step 0; step 2 exists only in the other layout.
        #expect(throws: LayoutStoreError.noSuchStep(name: "small", position: 2)) {
            try store.revert(named: "small", toStep: 2)
        }
    }
}
