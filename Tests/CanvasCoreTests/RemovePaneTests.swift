@testable import CanvasCore
import Testing

@Suite("Arrangement: removing panes")
struct RemovePaneTests {
    @Test func removingTheFocusedPaneFocusesTheNextNumbered() throws {
        var manager = try makeManager(Fixture.threePanes, focused: 2)
        try manager.removeWidget(2)
        #expect(frames(manager) == [1: rect(0, 0, 6, 12), 3: rect(6, 0, 6, 12)])
        #expect(manager.focusedPaneID == 3)
        #expect(manager.number(of: 3) == 2)
        #expect(manager.number(of: 2) == nil)
        expectValid(manager, paneCount: 2)
    }

    @Test func removingTheLastNumberedFocusedPaneFocusesTheOneBefore() throws {
        var manager = try makeManager(Fixture.threePanes, focused: 3)
        try manager.removeWidget(3)
        #expect(manager.focusedPaneID == 2)
        expectValid(manager, paneCount: 2)
    }

    @Test func removingAnotherPaneKeepsFocus() throws {
        var manager = try makeManager(Fixture.threePanes, focused: 1)
        try manager.removeWidget(2)
        #expect(manager.focusedPaneID == 1)
        #expect(manager.panes.map(\.id) == [1, 3])
        expectValid(manager, paneCount: 2)
    }

    @Test func removingTheOnlyPaneLeavesNoFocus() throws {
        var manager = try makeManager([pane(4, rect(0, 0, 12, 12))])
        try manager.removeWidget(4)
        #expect(manager.panes.isEmpty)
        #expect(manager.focusedPaneID == nil)
        #expect(manager.focusedPane == nil)
        expectValid(manager, paneCount: 0)
    }

    @Test func removingAnUnknownPaneIsRefused() throws {
        var manager = try makeManager(Fixture.threePanes)
        expectRefused(&manager, throwing: .unknownPane(9)) { try $0.removeWidget(9) }
    }

    @Test func removedIdsAreNotReused() throws {
        var manager = try makeManager(Fixture.threePanes)
        try manager.removeWidget(3)
        #expect(try manager.addWidget(NewPane(app: .calendar)) == 4)
    }

    /// As in tmux and zellij, a removed pane leaves no hole: the panes along one of its sides
    /// grow over it when together they span that side exactly.
    @Test func theNeighboursAlongOneSideTakeTheRoomBack() throws {
        var below = try makeManager([pane(1, rect(0, 0, 6, 6)), pane(2, rect(6, 0, 6, 6)), pane(3, rect(0, 6, 12, 6))])
        try below.removeWidget(3)
        #expect(frames(below) == [1: rect(0, 0, 6, 12), 2: rect(6, 0, 6, 12)])
        // Two sides can: the one with fewer panes, then left, above, right, below.
        var quarter = try makeManager(Fixture.quarters)
        try quarter.removeWidget(1)
        #expect(frames(quarter) == [2: rect(0, 0, 12, 6), 3: rect(0, 6, 6, 6), 4: rect(6, 6, 6, 6)])
        var right = try makeManager(Fixture.quarters)
        try right.removeWidget(4)
        #expect(frames(right) == [1: rect(0, 0, 6, 6), 2: rect(6, 0, 6, 6), 3: rect(0, 6, 12, 6)])
        expectValid(right, paneCount: 3)
        #expect(right.undo() == true)
        #expect(frames(right) == frames(try makeManager(Fixture.quarters)))
    }

    /// Where no side's panes span it exactly (a pinwheel), growing any would overlap another or
    /// leave a ragged edge: the room stays free for the next pane.
    @Test func aRoomNoSideSpansStaysFree() throws {
        let pinwheel = [pane(1, rect(0, 0, 9, 3)), pane(2, rect(9, 0, 3, 9)), pane(3, rect(3, 9, 9, 3)),
                        pane(4, rect(0, 3, 3, 9)), pane(5, rect(3, 3, 6, 6))]
        var manager = try makeManager(pinwheel)
        try manager.removeWidget(5)
        #expect(frames(manager) == [1: rect(0, 0, 9, 3), 2: rect(9, 0, 3, 9), 3: rect(3, 9, 9, 3), 4: rect(0, 3, 3, 9)])
        #expect(try manager.addWidget(NewPane(app: .todo)) == 6)
        #expect(manager.pane(6)?.frame == rect(3, 3, 6, 6))
    }
}
