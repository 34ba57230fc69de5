@testable import CanvasCore
import Testing

@Suite("Arrangement: moving panes")
struct MovePaneTests {
    @Test func moveIntoFreeSpace() throws {
        var manager = try makeManager([pane(1, rect(0, 0, 4, 4)), pane(2, rect(8, 8, 4, 4))])
        try manager.updateWidgetPosition(1, to: Point(x: 2, y: 3))
        #expect(frames(manager) == [1: rect(2, 3, 4, 4), 2: rect(8, 8, 4, 4)])
        try manager.movePane(1, .right)
        try manager.movePane(1, .down)
        #expect(frames(manager) == [1: rect(3, 4, 4, 4), 2: rect(8, 8, 4, 4)])
        try manager.movePane(1, .left)
        try manager.movePane(1, .up)
        #expect(frames(manager) == [1: rect(2, 3, 4, 4), 2: rect(8, 8, 4, 4)])
        expectValid(manager, paneCount: 2)
    }

    @Test func moveOntoANeighbourSwapsFrames() throws {
        var manager = try makeManager(Fixture.threePanes, focused: 2)
        try manager.movePane(2, .down)
        #expect(frames(manager) == [1: rect(0, 0, 6, 12), 2: rect(6, 6, 6, 6), 3: rect(6, 0, 6, 6)])
        // Numbering and focus follow the pane, not the place.
        #expect(manager.panes.map(\.id) == [1, 2, 3])
        #expect(manager.focusedPaneID == 2)
        #expect(coveredArea(manager) == 144)
        expectValid(manager, paneCount: 3)
    }

    /// Issue 40: a 5×7 calendar moved onto a 7×12 pane stays 5×7; they change places along the
    /// move's axis, each keeping its size, and the pane below the calendar stays where it was.
    @Test func aSwapKeepsBothSizesWhereTheyFit() throws {
        var manager = try makeManager([pane(1, rect(0, 0, 5, 12)), pane(2, rect(5, 0, 7, 12))])
        try manager.movePane(1, .right)
        #expect(frames(manager) == [1: rect(7, 0, 5, 12), 2: rect(0, 0, 7, 12)])
        try manager.movePane(1, .left)
        #expect(frames(manager) == [1: rect(0, 0, 5, 12), 2: rect(5, 0, 7, 12)])

        var stacked = try makeManager([pane(1, rect(0, 0, 12, 3)), pane(2, rect(0, 3, 12, 9))])
        try stacked.movePane(1, .down)
        #expect(frames(stacked) == [1: rect(0, 9, 12, 3), 2: rect(0, 0, 12, 9)])
        expectValid(stacked, paneCount: 2)

        // The pane below the calendar lies in its column: it goes along.
        var column = try makeManager([pane(1, rect(0, 0, 5, 7)), pane(3, rect(0, 7, 5, 5)), pane(2, rect(5, 0, 7, 12))])
        try column.movePane(1, .right)
        #expect(frames(column) == [1: rect(7, 0, 5, 7), 2: rect(0, 0, 7, 12), 3: rect(7, 7, 5, 5)])
        expectValid(column, paneCount: 3)
        let undone = column.undo()
        #expect(undone)
        #expect(frames(column) == [1: rect(0, 0, 5, 7), 2: rect(5, 0, 7, 12), 3: rect(0, 7, 5, 5)])

        // A pane lying across the column's edge would be cut: the two trade frames instead.
        var straddled = try makeManager([pane(1, rect(0, 0, 4, 6)), pane(2, rect(4, 0, 4, 4)), pane(3, rect(4, 4, 8, 2))])
        try straddled.movePane(1, .right)
        #expect(frames(straddled) == [1: rect(4, 0, 4, 4), 2: rect(0, 0, 4, 6), 3: rect(4, 4, 8, 2)])
        expectValid(straddled, paneCount: 3)
    }

    @Test func swapsWithThePaneOverlappedMost() throws {
        // Given pane 1 at the left, and panes 2 (short) and 3 (tall) stacked to its right,
        var manager = try makeManager([pane(1, rect(0, 2, 4, 4)), pane(2, rect(4, 0, 4, 3)), pane(3, rect(4, 3, 4, 5))])
        // when pane 1 moves onto both (overlapping 2 by 4 units and 3 by 12),
        try manager.updateWidgetPosition(1, to: Point(x: 4, y: 2))
        // then it swaps with 3.
        #expect(frames(manager) == [1: rect(4, 3, 4, 5), 2: rect(4, 0, 4, 3), 3: rect(0, 2, 4, 4)])
        expectValid(manager, paneCount: 3)
    }

    @Test func moveOffTheGridIsRefused() throws {
        var manager = try makeManager(Fixture.threePanes)
        expectRefused(&manager, throwing: .outOfGrid(1, rect(-1, 0, 6, 12))) { try $0.movePane(1, .left) }
        expectRefused(&manager, throwing: .outOfGrid(1, rect(0, 1, 6, 12))) { try $0.movePane(1, .down) }
        expectRefused(&manager, throwing: .outOfGrid(2, rect(6, -1, 6, 6))) { try $0.movePane(2, .up) }
        expectRefused(&manager, throwing: .outOfGrid(2, rect(7, 0, 6, 6))) { try $0.movePane(2, .right) }
        expectRefused(&manager, throwing: .outOfGrid(3, rect(7, 6, 6, 6))) {
            try $0.updateWidgetPosition(3, to: Point(x: 7, y: 6))
        }
        #expect(frames(manager) == Dictionary(uniqueKeysWithValues: Fixture.threePanes.map { ($0.id, $0.frame) }))
    }

    @Test func movingAnUnknownPaneIsRefused() throws {
        var manager = try makeManager(Fixture.threePanes)
        expectRefused(&manager, throwing: .unknownPane(9)) { try $0.movePane(9, .left) }
        expectRefused(&manager, throwing: .unknownPane(9)) { try $0.updateWidgetPosition(9, to: .zero) }
    }

    @Test func movingToTheSameOriginIsNotAStep() throws {
        var manager = try makeManager(Fixture.threePanes)
        try manager.updateWidgetPosition(2, to: Point(x: 6, y: 0))
        #expect(!manager.canUndo)
        #expect(manager.pane(2)?.frame == rect(6, 0, 6, 6))
    }
}
