@testable import CanvasCore
import Testing

@Suite("Undo and redo of arrangement steps")
struct UndoTests {
    /// Pane 1 fills the left half, pane 2 the top right; the bottom right (6,6 6×6) is free.
    static let withFreeCorner: [Pane] = [pane(1, rect(0, 0, 6, 12)), pane(2, rect(6, 0, 6, 6))]

    enum Step: String, CaseIterable, Sendable {
        case addWithFrame, addFindingSpace, addSplitting, remove, moveIntoFreeSpace, moveSwapping,
             growIntoFreeSpace, growShrinkingNeighbour, shrinkHandingOverStrip

        /// Where the step starts: the canvas with a free corner, or a full one to split.
        var start: [Pane] { self == .addSplitting ? Fixture.threePanes : UndoTests.withFreeCorner }

        func apply(to manager: inout CanvasManager) throws {
            switch self {
            case .addWithFrame: try manager.addWidget(NewPane(app: .eventLog, frame: rect(6, 6, 6, 6)))
            case .addFindingSpace, .addSplitting: try manager.addWidget(NewPane(app: .eventLog))
            case .remove: try manager.removeWidget(2)
            case .moveIntoFreeSpace: try manager.movePane(2, .down)
            case .moveSwapping: try manager.updateWidgetPosition(2, to: Point(x: 0, y: 0))
            case .growIntoFreeSpace: try manager.resizePane(2, .down)
            case .growShrinkingNeighbour: try manager.resizePane(1, .right)
            case .shrinkHandingOverStrip: try manager.resizePane(1, .left)
            }
        }
    }

    @Test(arguments: Step.allCases)
    func everyStepUndoesAndRedoesExactly(step: Step) throws {
        var manager = try makeManager(step.start)
        let before = manager.layout
        try step.apply(to: &manager)
        let after = manager.layout
        #expect(after != before)
        #expect(manager.canUndo)
        #expect(!manager.canRedo)

        // When undone, the layout (frames, numbering and focus) is exactly as before.
        #expect(manager.undo() == true)
        #expect(manager.layout == before)
        #expect(!manager.canUndo)
        #expect(manager.canRedo)

        // When redone, exactly as after; and it can go back and forth.
        #expect(manager.redo() == true)
        #expect(manager.layout == after)
        #expect(manager.undo() == true)
        #expect(manager.layout == before)
        #expect(manager.redo() == true)
        #expect(manager.layout == after)
        expectValid(manager, paneCount: after.panes.count)
    }

    @Test func stepsUndoInReverseOrder() throws {
        var manager = try makeManager(Self.withFreeCorner)
        var snapshots = [manager.layout]
        try manager.addWidget(NewPane(app: .calendar))
        snapshots.append(manager.layout)
        try manager.resizePane(1, .right)
        snapshots.append(manager.layout)
        try manager.movePane(3, .up)
        snapshots.append(manager.layout)
        try manager.removeWidget(1)
        snapshots.append(manager.layout)

        for expected in snapshots.reversed().dropFirst() {
            #expect(manager.undo() == true)
            #expect(manager.layout == expected)
        }
        #expect(manager.undo() == false)
        for expected in snapshots.dropFirst() {
            #expect(manager.redo() == true)
            #expect(manager.layout == expected)
        }
        #expect(manager.redo() == false)
    }

    @Test func nothingToUndoOrRedo() throws {
        var manager = try makeManager(Fixture.threePanes)
        let before = manager.layout
        #expect(manager.undo() == false)
        #expect(manager.redo() == false)
        #expect(manager.layout == before)
    }

    @Test func aNewStepClearsRedo() throws {
        var manager = try makeManager(Self.withFreeCorner)
        try manager.movePane(2, .down)
        manager.undo()
        #expect(manager.canRedo)
        try manager.resizePane(2, .down)
        #expect(!manager.canRedo)
        #expect(manager.redo() == false)
        #expect(manager.pane(2)?.frame == rect(6, 0, 6, 7))
    }

    @Test func aRefusedStepKeepsRedo() throws {
        var manager = try makeManager(Self.withFreeCorner)
        try manager.movePane(2, .down)
        manager.undo()
        expectRefused(&manager, throwing: .outOfGrid(2, rect(7, 0, 6, 6))) { try $0.movePane(2, .right) }
        #expect(manager.redo() == true)
        #expect(manager.pane(2)?.frame == rect(6, 1, 6, 6))
    }

    @Test func historyIsBoundedByItsLimit() throws {
        var manager = try makeManager([pane(1, rect(0, 0, 2, 2))], historyLimit: 3)
        for x in 1...5 { try manager.updateWidgetPosition(1, to: Point(x: x, y: 0)) }
        #expect(manager.history.undoCount == 3)
        for _ in 0..<3 { #expect(manager.undo() == true) }
        #expect(manager.undo() == false)
        #expect(manager.pane(1)?.frame == rect(2, 0, 2, 2))
        for _ in 0..<3 { #expect(manager.redo() == true) }
        #expect(manager.pane(1)?.frame == rect(5, 0, 2, 2))
    }

    @Test func undoKeepsTheLatestWidgetValues() throws {
        // Given a pane whose values changed after it was moved,
        var manager = try makeManager(Self.withFreeCorner)
        manager.updateValues(of: 2, config: ["view": "month"], state: ["selected": "2026-11-01"])
        try manager.movePane(2, .down)
        manager.updateValues(of: 2, config: ["view": "week"], state: ["selected": "2026-11-22"])

        // when the move is undone, the frame goes back but the values stay the latest;
        manager.undo()
        #expect(manager.pane(2)?.frame == rect(6, 0, 6, 6))
        #expect(manager.pane(2)?.config == ["view": "week"])
        #expect(manager.pane(2)?.state == ["selected": "2026-11-22"])

        // and after more changes, redo keeps them too.
        manager.updateValues(of: 2, config: ["view": "year"], state: [:])
        manager.redo()
        #expect(manager.pane(2)?.frame == rect(6, 1, 6, 6))
        #expect(manager.pane(2)?.config == ["view": "year"])
        #expect(manager.pane(2)?.state == [:])
    }

    @Test func valuesSurviveUndoingAndRedoingAnAdd() throws {
        var manager = try makeManager(Self.withFreeCorner)
        let id = try manager.addWidget(NewPane(app: .calendar, config: ["a": "1"]))
        manager.updateValues(of: id, config: ["a": "2"], state: ["s": "x"])
        manager.undo()
        #expect(manager.pane(id) == nil)
        manager.redo()
        #expect(manager.pane(id)?.config == ["a": "2"])
        #expect(manager.pane(id)?.state == ["s": "x"])
    }

    @Test func undoingARemoveRestoresThePaneWithItsLatestValues() throws {
        var manager = try makeManager(Self.withFreeCorner, focused: 2)
        manager.updateValues(of: 2, config: ["c": "1"], state: ["s": "2"])
        try manager.removeWidget(2)
        manager.undo()
        #expect(manager.pane(2) == Pane(id: 2, app: .calendar, frame: rect(6, 0, 6, 6), config: ["c": "1"], state: ["s": "2"]))
        #expect(manager.panes.map(\.id) == [1, 2])
        #expect(manager.focusedPaneID == 2)
    }

    @Test func valuesAndNamesAreNotUndoableSteps() throws {
        var manager = try makeManager(Self.withFreeCorner)
        manager.updateValues(of: 1, config: ["k": "v"], state: [:])
        manager.updateValues(of: 9, config: ["ignored": "yes"], state: [:])
        manager.rename(to: "work")
        #expect(!manager.canUndo)
        #expect(manager.pane(1)?.config == ["k": "v"])
        #expect(manager.layout.name == "work")
        #expect(manager.panes.allSatisfy { $0.config["ignored"] == nil })
    }

    @Test func undoKeepsTheLatestName() throws {
        // Renaming is not a step, so undoing an earlier step must not undo it.
        var manager = try makeManager(Self.withFreeCorner)
        try manager.movePane(2, .down)
        manager.rename(to: "work")
        manager.undo()
        #expect(manager.layout.name == "work")
        manager.rename(to: "home")
        manager.redo()
        #expect(manager.layout.name == "home")
    }

    @Test func undoHistoryValues() {
        var history = UndoHistory<Int>(limit: 2)
        #expect(!history.canUndo && !history.canRedo)
        history.record(1)
        history.record(2)
        history.record(3)
        #expect(history.undoCount == 2)
        #expect(history.undo(from: 4) == 3)
        #expect(history.undo(from: 3) == 2)
        #expect(history.undo(from: 2) == nil)
        #expect(history.redo(from: 2) == 3)
        #expect(history.redo(from: 3) == 4)
        #expect(history.redo(from: 4) == nil)
        #expect(history.undo(from: 4) == 3)
        history.record(10)
        #expect(!history.canRedo)
        #expect(UndoHistory<Int>(limit: 0).limit == 1)
        #expect(UndoHistory<Int>(limit: -5).limit == 1)
    }
}
