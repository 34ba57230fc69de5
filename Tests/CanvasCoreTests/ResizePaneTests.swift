@testable import CanvasCore
import Testing

@Suite("Arrangement: resizing panes")
struct ResizePaneTests {
    static let minimum = Size(width: 2, height: 2)

    @Test func growIntoFreeSpace() throws {
        var manager = try makeManager([pane(1, rect(0, 0, 4, 4)), pane(2, rect(8, 0, 4, 4))])
        try manager.resizePane(1, .right)
        #expect(frames(manager) == [1: rect(0, 0, 5, 4), 2: rect(8, 0, 4, 4)])
        try manager.resizePane(1, .down)
        #expect(frames(manager) == [1: rect(0, 0, 5, 5), 2: rect(8, 0, 4, 4)])
        // Up to the neighbour's edge, which stays put.
        try manager.updateWidgetSize(1, to: Size(width: 8, height: 12))
        #expect(frames(manager) == [1: rect(0, 0, 8, 12), 2: rect(8, 0, 4, 4)])
        expectValid(manager, paneCount: 2)
    }

    @Test func growingRightShrinksTheNeighboursOnThatSide() throws {
        var manager = try makeManager(Fixture.threePanes)
        try manager.resizePane(1, .right)
        #expect(frames(manager) == [1: rect(0, 0, 7, 12), 2: rect(7, 0, 5, 6), 3: rect(7, 6, 5, 6)])
        #expect(coveredArea(manager) == 144)
        expectValid(manager, paneCount: 3)
    }

    @Test func growingDownShrinksTheNeighbourBelow() throws {
        var manager = try makeManager(Fixture.quarters)
        try manager.resizePane(1, .down)
        #expect(frames(manager) == [1: rect(0, 0, 6, 7), 2: rect(6, 0, 6, 6), 3: rect(0, 7, 6, 5), 4: rect(6, 6, 6, 6)])
        try manager.resizePane(2, .down)
        #expect(frames(manager) == [1: rect(0, 0, 6, 7), 2: rect(6, 0, 6, 7), 3: rect(0, 7, 6, 5), 4: rect(6, 7, 6, 5)])
        #expect(coveredArea(manager) == 144)
        expectValid(manager, paneCount: 4)
    }

    @Test func growingTrimsATallerNeighbourAlongItsWholeSide() throws {
        // Given pane 3 spanning the whole right half next to panes 1 and 2 stacked on the left,
        var manager = try makeManager([pane(1, rect(0, 0, 6, 6)), pane(2, rect(0, 6, 6, 6)), pane(3, rect(6, 0, 6, 12))])
        // when pane 1 grows right, pane 3 loses a column over its whole height (panes stay rectangles).
        try manager.resizePane(1, .right)
        #expect(frames(manager) == [1: rect(0, 0, 7, 6), 2: rect(0, 6, 6, 6), 3: rect(7, 0, 5, 12)])
        expectValid(manager, paneCount: 3)
    }

    @Test func growingStopsWhenANeighbourIsAtItsMinimum() throws {
        var manager = try makeManager(Fixture.threePanes)
        for _ in 0..<4 { try manager.resizePane(1, .right) }
        #expect(frames(manager) == [1: rect(0, 0, 10, 12), 2: rect(10, 0, 2, 6), 3: rect(10, 6, 2, 6)])
        expectValid(manager, paneCount: 3)
        expectRefused(&manager, throwing: .neighbourAtMinimum(2)) { try $0.resizePane(1, .right) }
    }

    @Test func growingPastANeighbourIsRefused() throws {
        var manager = try makeManager([pane(1, rect(0, 0, 4, 12)), pane(2, rect(4, 0, 4, 12)), pane(3, rect(8, 0, 4, 12))])
        expectRefused(&manager, throwing: .neighbourAtMinimum(2)) { try $0.updateWidgetSize(1, to: Size(width: 7, height: 12)) }
        expectRefused(&manager, throwing: .neighbourAtMinimum(2)) { try $0.updateWidgetSize(1, to: Size(width: 9, height: 12)) }
        // Growing by exactly the neighbour's slack is fine.
        try manager.updateWidgetSize(1, to: Size(width: 6, height: 12))
        #expect(frames(manager) == [1: rect(0, 0, 6, 12), 2: rect(6, 0, 2, 12), 3: rect(8, 0, 4, 12)])
        expectValid(manager, paneCount: 3)
    }

    @Test func growingOffTheGridIsRefused() throws {
        var manager = try makeManager(Fixture.threePanes)
        expectRefused(&manager, throwing: .outOfGrid(2, rect(6, 0, 7, 6))) { try $0.resizePane(2, .right) }
        expectRefused(&manager, throwing: .outOfGrid(3, rect(6, 6, 6, 7))) { try $0.resizePane(3, .down) }
        expectRefused(&manager, throwing: .outOfGrid(1, rect(0, 0, 6, 13))) { try $0.resizePane(1, .down) }
    }

    @Test func shrinkingBelowTheMinimumIsRefused() throws {
        var manager = try makeManager([pane(1, rect(0, 0, 2, 4)), pane(2, rect(2, 0, 4, 2))])
        expectRefused(&manager, throwing: .belowMinimumSize(1, minimum: Self.minimum)) { try $0.resizePane(1, .left) }
        expectRefused(&manager, throwing: .belowMinimumSize(2, minimum: Self.minimum)) { try $0.resizePane(2, .up) }
        expectRefused(&manager, throwing: .belowMinimumSize(1, minimum: Self.minimum)) {
            try $0.updateWidgetSize(1, to: Size(width: 0, height: 4))
        }
    }

    @Test func shrinkingHandsTheStripToTheNeighboursAlongThatEdge() throws {
        var manager = try makeManager(Fixture.threePanes)
        try manager.resizePane(1, .left)
        #expect(frames(manager) == [1: rect(0, 0, 5, 12), 2: rect(5, 0, 7, 6), 3: rect(5, 6, 7, 6)])
        #expect(coveredArea(manager) == 144)
        expectValid(manager, paneCount: 3)

        try manager.resizePane(2, .up)
        #expect(frames(manager) == [1: rect(0, 0, 5, 12), 2: rect(5, 0, 7, 5), 3: rect(5, 5, 7, 7)])
        #expect(coveredArea(manager) == 144)
        expectValid(manager, paneCount: 3)
    }

    @Test func aFullCanvasStaysFullWhileShrinkingToTheMinimum() throws {
        var manager = try makeManager(Fixture.threePanes)
        for _ in 0..<4 {
            try manager.resizePane(1, .left)
            #expect(coveredArea(manager) == 144)
        }
        #expect(frames(manager) == [1: rect(0, 0, 2, 12), 2: rect(2, 0, 10, 6), 3: rect(2, 6, 10, 6)])
        expectRefused(&manager, throwing: .belowMinimumSize(1, minimum: Self.minimum)) { try $0.resizePane(1, .left) }
    }

    @Test func shrinkingWidthLeavesTheNeighbourBelowAlone() throws {
        var manager = try makeManager(Fixture.quarters)
        try manager.resizePane(1, .left)
        #expect(frames(manager) == [1: rect(0, 0, 5, 6), 2: rect(5, 0, 7, 6), 3: rect(0, 6, 6, 6), 4: rect(6, 6, 6, 6)])
        #expect(coveredArea(manager) == 144)
        expectValid(manager, paneCount: 4)
    }

    @Test func aNeighbourReachingBeyondTheEdgeDoesNotTakeTheStrip() throws {
        // Given pane 3 taller than pane 1's right edge,
        var manager = try makeManager([pane(1, rect(0, 0, 6, 6)), pane(2, rect(0, 6, 6, 6)), pane(3, rect(6, 0, 6, 12))])
        // when pane 1 shrinks, the freed strip stays free: pane 3 cannot widen only partly.
        try manager.resizePane(1, .left)
        #expect(frames(manager) == [1: rect(0, 0, 5, 6), 2: rect(0, 6, 6, 6), 3: rect(6, 0, 6, 12)])
        #expect(coveredArea(manager) == 144 - 6)
        expectValid(manager, paneCount: 3)
    }

    @Test func resizingAnUnknownPaneIsRefused() throws {
        var manager = try makeManager(Fixture.threePanes)
        expectRefused(&manager, throwing: .unknownPane(9)) { try $0.resizePane(9, .right) }
        expectRefused(&manager, throwing: .unknownPane(9)) { try $0.updateWidgetSize(9, to: Size(width: 3, height: 3)) }
    }

    @Test func resizingToTheSameSizeIsNotAStep() throws {
        var manager = try makeManager(Fixture.threePanes)
        try manager.updateWidgetSize(2, to: Size(width: 6, height: 6))
        #expect(!manager.canUndo)
    }
}
