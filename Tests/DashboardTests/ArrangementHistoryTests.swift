import CanvasCore
import CanvasUI
import LayoutStore
import Testing
@testable import termcanvas

/// Every arrangement step is written to the layout's history as it happens, so undo reaches back
/// across a restart.
@MainActor
@Suite("Arrangement steps are recorded")
struct ArrangementHistoryTests {
    /// The `default` preset's arrangement.
    static let start: [PaneID: Rect] = [1: Rect(x: 0, y: 0, width: 5, height: 12), 2: Rect(x: 5, y: 0, width: 7, height: 12)]

    /// Three steps from the `default` preset: move right (swap: each pane keeps its size),
    /// narrow, move left (swap back). Returns the arrangement after each step.
    func arrange(_ rig: Rig) -> [[PaneID: Rect]] {
        #expect(rig.frames == Self.start)
        rig.press(.ctrl("e"))
        #expect(rig.statusBar.hasPrefix(" ARRANGE "))
        var after: [[PaneID: Rect]] = []
        for key in [Key.right, .shift(.left), .left] {
            rig.press(key)
            after.append(rig.frames)
        }
        #expect(after[0] == [1: Rect(x: 7, y: 0, width: 5, height: 12), 2: Rect(x: 0, y: 0, width: 7, height: 12)])
        #expect(after[1] == [1: Rect(x: 7, y: 0, width: 4, height: 12), 2: Rect(x: 0, y: 0, width: 7, height: 12)])
        #expect(after[2] == [1: Rect(x: 0, y: 0, width: 4, height: 12), 2: Rect(x: 4, y: 0, width: 7, height: 12)])
        #expect(rig.text.contains(" 0,0 4×12 "), "arrange mode labels the focused pane with its frame")
        return after
    }

    @Test func stepsAreListedInOrder() async throws {
        let rig = try Rig()
        _ = arrange(rig)
        await rig.settle()
        let history = try rig.store.history(named: "default")
        #expect(history.map(\.step) == ["created", "move", "resize", "move"])
        #expect(history.map(\.position) == [0, 1, 2, 3])
        #expect(history.map(\.isCurrent) == [false, false, false, true])
        #expect(try rig.store.layout(named: "default") == rig.host.currentLayout())
    }

    @Test func aRefusedStepIsNotRecorded() async throws {
        let rig = try Rig()
        rig.press(.ctrl("e"), .up)  // already at the top
        #expect(rig.statusBar.contains("Can't move"))
        #expect(rig.frames == Self.start)
        await rig.settle()
        #expect(try rig.storedNames().isEmpty)
    }

    @Test func undoAndRedoMoveTheCurrentStep() async throws {
        let rig = try Rig()
        let after = arrange(rig)
        rig.press(.char("u"))
        #expect(rig.frames == after[1])
        await rig.settle()
        #expect(try rig.currentStep(of: "default") == 2)
        rig.press(.char("u"))
        #expect(rig.frames == after[0])
        await rig.settle()
        #expect(try rig.currentStep(of: "default") == 1)
        rig.press(.ctrl("r"))
        #expect(rig.frames == after[1])
        await rig.settle()
        #expect(try rig.currentStep(of: "default") == 2)
        // The history itself is unchanged by undo and redo, and the store holds what is shown.
        #expect(try rig.steps(of: "default") == ["created", "move", "resize", "move"])
        #expect(try rig.store.layout(named: "default") == rig.host.currentLayout())

        // Undo back to the start, and beyond: nothing more to undo.
        rig.press(.char("u"), .char("u"))
        #expect(rig.frames == Self.start)
        rig.press(.char("u"))
        #expect(rig.statusBar.contains("Nothing to undo"))
        await rig.settle()
        #expect(try rig.currentStep(of: "default") == 0)
        #expect(try rig.store.layout(named: "default")?.panes.map(\.frame) == [Self.start[1]!, Self.start[2]!])
    }

    @Test func aNewStepAfterUndoDropsWhatCouldBeRedone() async throws {
        let rig = try Rig()
        let after = arrange(rig)
        rig.press(.char("u"), .char("u"))
        #expect(rig.frames == after[0])
        rig.press(.left)  // swaps back: a new step where the narrowing was
        #expect(rig.frames == Self.start)
        await rig.settle()
        #expect(try rig.steps(of: "default") == ["created", "move", "move"])
        #expect(try rig.currentStep(of: "default") == 2)
        rig.press(.ctrl("r"))
        #expect(rig.statusBar.contains("Nothing to redo"))
    }

    @Test func undoReachesBackAcrossARestart() async throws {
        let directory = try TemporaryDirectory()
        var after: [[PaneID: Rect]] = []
        do {
            let rig = try Rig(directory: directory)
            after = arrange(rig)
            rig.press(.char("u"))  // stands at the second step, with one to redo
            await rig.settle()
            rig.host.perform(rig.host.update(.shutdown))
        }

        // A new library and host on the same file, started as the dashboard starts: the last
        // layout at once, its history a moment later.
        let rig = try Rig(directory: directory, start: HostStart(restoringHistory: true))
        #expect(rig.frames == after[1])
        #expect(!rig.host.manager.canUndo)
        let messages = try await rig.deliver()
        #expect(messages.map(\.kind) == ["historyLoaded"])
        #expect(rig.host.manager.canUndo)
        #expect(rig.host.manager.canRedo)

        rig.press(.ctrl("e"), .char("u"))
        #expect(rig.frames == after[0])
        await rig.settle()
        #expect(try rig.currentStep(of: "default") == 1)
        rig.press(.char("u"))
        #expect(rig.frames == Self.start, "the arrangement before the first step comes back")
        rig.press(.char("u"))
        #expect(rig.statusBar.contains("Nothing to undo"))
        rig.press(.ctrl("r"), .ctrl("r"), .ctrl("r"))
        #expect(rig.frames == after[2])
        await rig.settle()
        #expect(try rig.currentStep(of: "default") == 3)
    }

    @Test func undoReachesBackAcrossARestartOfASavedLayout() async throws {
        let directory = try TemporaryDirectory()
        var after: [[PaneID: Rect]] = []
        do {
            let rig = try Rig(directory: directory)
            rig.press(.ctrl("s"))
            try await rig.press(.enter, expecting: 1)
            after = arrange(rig)
            await rig.settle()
        }
        let rig = try Rig(directory: directory, start: HostStart(restoringHistory: true))
        #expect(rig.frames == after[2])
        try await rig.deliver()
        rig.press(.ctrl("e"), .char("u"), .char("u"), .char("u"))
        #expect(rig.frames == Self.start)
        await rig.settle()
        #expect(try rig.currentStep(of: "default") == 0)
    }

    @Test func aHistoryArrivingAfterStepsWereMadeGoesBeforeThem() async throws {
        let directory = try TemporaryDirectory()
        do {
            let rig = try Rig(directory: directory)
            rig.press(.ctrl("s"))
            try await rig.press(.enter, expecting: 1)
            rig.press(.ctrl("e"), .right)
            await rig.settle()
        }
        let rig = try Rig(directory: directory, start: HostStart(restoringHistory: true))
        rig.press(.ctrl("e"), .shift(.left))  // a step before the history arrived
        try await rig.deliver()
        await rig.settle()
        #expect(try rig.steps(of: "default") == ["created", "move", "resize"])
        rig.press(.char("u"))
        #expect(rig.frames[1] == Rect(x: 7, y: 0, width: 5, height: 12))
        rig.press(.char("u"))
        #expect(rig.frames == Self.start)
    }

    @Test func restoringTheHistoryOfALayoutNeverSavedSendsNothing() async throws {
        let rig = try Rig(layout: "planner", start: HostStart(restoringHistory: true))
        #expect(try await rig.inbox.isQuiet())
        #expect(!rig.host.manager.canUndo)
    }
}
