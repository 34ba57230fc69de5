@testable import CanvasCore
import Testing

@Suite("Focus: numbering order and directions")
struct FocusTests {
    /// Numbering order (5, 2, 9) deliberately differs from id order.
    static let shuffled: [Pane] = [pane(5, rect(0, 0, 4, 12)), pane(2, rect(4, 0, 4, 12)), pane(9, rect(8, 0, 4, 12))]

    @Test func nextAndPreviousFollowNumberingOrderAndWrap() throws {
        var manager = try makeManager(Self.shuffled)
        #expect(manager.focusedPaneID == 5)
        var visited: [PaneID?] = []
        for _ in 0..<4 {
            manager.focusNext()
            visited.append(manager.focusedPaneID)
        }
        #expect(visited == [2, 9, 5, 2])
        visited = []
        for _ in 0..<4 {
            manager.focusPrevious()
            visited.append(manager.focusedPaneID)
        }
        #expect(visited == [5, 9, 2, 5])
    }

    @Test func focusIsNotAnUndoableStep() throws {
        var manager = try makeManager(Self.shuffled)
        manager.focusNext()
        #expect(manager.focus(number: 3) == true)
        #expect(manager.focus(.left) == true)
        #expect(!manager.canUndo)
    }

    @Test func cyclingAnEmptyCanvasDoesNothing() throws {
        var manager = try CanvasManager()
        manager.focusNext()
        manager.focusPrevious()
        #expect(manager.focusedPaneID == nil)
        #expect(manager.focus(.right) == false)
    }

    @Test func focusByNumber() throws {
        var manager = try makeManager(Self.shuffled)
        #expect(manager.focus(number: 3) == true)
        #expect(manager.focusedPaneID == 9)
        #expect(manager.focus(number: 1) == true)
        #expect(manager.focusedPaneID == 5)
        #expect(manager.focus(number: 2) == true)
        #expect(manager.focusedPaneID == 2)
        #expect(manager.focus(number: 0) == false)
        #expect(manager.focus(number: 4) == false)
        #expect(manager.focusedPaneID == 2)
        #expect(manager.number(of: 9) == 3)
    }

    @Test func focusById() throws {
        var manager = try makeManager(Self.shuffled)
        #expect(manager.focus(PaneID(9)) == true)
        #expect(manager.focusedPane?.frame == rect(8, 0, 4, 12))
        #expect(manager.focus(PaneID(1)) == false)
        #expect(manager.focusedPaneID == 9)
    }

    @Test(arguments: [
        (PaneID(1), Direction.right, PaneID(2)), (1, .down, 3),
        (2, .left, 1), (2, .down, 4),
        (3, .up, 1), (3, .right, 4),
        (4, .up, 2), (4, .left, 3),
    ])
    func directionalFocusOnQuarters(from start: PaneID, direction: Direction, expected: PaneID) throws {
        var manager = try makeManager(Fixture.quarters, focused: start)
        #expect(manager.focus(direction) == true)
        #expect(manager.focusedPaneID == expected)
    }

    @Test(arguments: [(PaneID(1), Direction.left), (1, .up), (2, .right), (2, .up), (3, .left), (3, .down), (4, .right), (4, .down)])
    func noPaneInThatDirectionKeepsFocus(from start: PaneID, direction: Direction) throws {
        var manager = try makeManager(Fixture.quarters, focused: start)
        #expect(manager.focus(direction) == false)
        #expect(manager.focusedPaneID == start)
    }

    @Test func theNearestEdgeWins() throws {
        // Panes 2 and 3 are both to the right of 1; 3 is numbered first but further away.
        var manager = try makeManager([pane(1, rect(0, 0, 4, 4)), pane(3, rect(8, 0, 4, 4)), pane(2, rect(4, 0, 4, 4))])
        #expect(manager.focus(.right) == true)
        #expect(manager.focusedPaneID == 2)
        #expect(manager.focus(.right) == true)
        #expect(manager.focusedPaneID == 3)
        #expect(manager.focus(.right) == false)
        #expect(manager.focus(.left) == true)
        #expect(manager.focusedPaneID == 2)
    }

    @Test func nearestEdgeBeatsOverlap() throws {
        // Pane 2 is right next to pane 1's edge but far below it; pane 3 is level with 1 but 2 units away.
        var manager = try makeManager([pane(1, rect(0, 0, 2, 2)), pane(3, rect(4, 0, 2, 2)), pane(2, rect(2, 8, 2, 2))])
        #expect(manager.focus(.right) == true)
        #expect(manager.focusedPaneID == 2)
    }

    @Test func onEqualEdgesTheLargestOverlapWins() throws {
        // Both lie right next to pane 1 (rows 0..<8). Pane 2 (rows 0..<3) is numbered first and its centre
        // is closer, but pane 3 (rows 3..<12) shares 5 rows to pane 2's 3.
        var manager = try makeManager([pane(1, rect(0, 0, 4, 8)), pane(2, rect(4, 0, 4, 3)), pane(3, rect(4, 3, 4, 9))])
        #expect(manager.focus(.right) == true)
        #expect(manager.focusedPaneID == 3)
    }

    @Test func onEqualOverlapTheClosestCentreWins() throws {
        // Pane 1 spans rows 2..<6. Pane 3 (rows 4..<10) and pane 2 (rows 0..<4) both share 2 rows with it,
        // but pane 2's centre (row 2) is closer to pane 1's (row 4) than pane 3's (row 7).
        var manager = try makeManager([pane(1, rect(0, 2, 4, 4)), pane(3, rect(4, 4, 4, 6)), pane(2, rect(4, 0, 4, 4))])
        #expect(manager.focus(.right) == true)
        #expect(manager.focusedPaneID == 2)
        // The same downwards: below pane 4 (columns 1..<5), pane 5 (columns 0..<3) and pane 6 (columns 3..<9)
        // both share 2 columns; pane 5's centre is closer.
        try manager.loadLayout(LayoutData(name: "v", panes: [
            pane(4, rect(1, 0, 4, 4)), pane(6, rect(3, 4, 6, 4)), pane(5, rect(0, 4, 3, 4)),
        ], focused: 4))
        #expect(manager.focus(.down) == true)
        #expect(manager.focusedPaneID == 5)
    }

    @Test func candidatesMustLieWhollyBeyondTheEdge() throws {
        // Pane 2 reaches further right than pane 1 but starts inside pane 1's columns.
        var manager = try makeManager([pane(1, rect(0, 0, 6, 6)), pane(2, rect(4, 6, 8, 6))])
        #expect(manager.focus(.right) == false)
        #expect(manager.focusedPaneID == 1)
        #expect(manager.focus(.down) == true)
        #expect(manager.focusedPaneID == 2)
    }
}
