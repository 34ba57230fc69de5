@testable import CanvasCore
import Testing

@Suite("Arrangement: adding panes")
struct AddPaneTests {
    // MARK: With an explicit frame

    @Test func addWithFrameNumbersAndFocusesTheNewPane() throws {
        var manager = try CanvasManager()
        let first = try manager.addWidget(NewPane(app: .calendar, frame: rect(0, 0, 4, 4)))
        let second = try manager.addWidget(NewPane(app: .eventLog, frame: rect(4, 0, 8, 4), config: ["k": "v"]))

        #expect(first == 1)
        #expect(second == 2)
        #expect(frames(manager) == [1: rect(0, 0, 4, 4), 2: rect(4, 0, 8, 4)])
        #expect(manager.pane(2)?.app == .eventLog)
        #expect(manager.pane(2)?.config == ["k": "v"])
        #expect(manager.focusedPaneID == 2)
        #expect(manager.number(of: 2) == 2)
        expectValid(manager, paneCount: 2)
    }

    @Test func idsContinueAfterTheHighestLoadedId() throws {
        var manager = try makeManager([pane(7, rect(0, 0, 6, 6))])
        #expect(try manager.addWidget(NewPane(app: .calendar, frame: rect(6, 0, 6, 6))) == 8)
    }

    @Test func addOverlappingFrameIsRefused() throws {
        var manager = try makeManager(Fixture.threePanes)
        try manager.removeWidget(3)
        try manager.resizePane(2, .up)
        try manager.resizePane(2, .up)
        // The id a refused add would have used is not spent.
        expectRefused(&manager, throwing: .overlap(4, 2)) { try $0.addWidget(NewPane(app: .calendar, frame: rect(6, 9, 6, 3))) }
        #expect(try manager.addWidget(NewPane(app: .calendar, frame: rect(6, 10, 6, 2))) == 4)
        expectValid(manager, paneCount: 3)
    }

    @Test(arguments: [rect(10, 10, 4, 4), rect(-1, 0, 3, 3), rect(0, 11, 2, 2), rect(0, 0, 13, 12)])
    func addOutsideTheGridIsRefused(frame: Rect) throws {
        var manager = try makeManager([pane(1, rect(4, 4, 2, 2))])
        expectRefused(&manager, throwing: .outOfGrid(2, frame)) { try $0.addWidget(NewPane(app: .calendar, frame: frame)) }
    }

    @Test(arguments: [rect(8, 8, 1, 3), rect(8, 8, 3, 1), rect(0, 0, 1, 1)])
    func addBelowTheMinimumIsRefused(frame: Rect) throws {
        var manager = try makeManager([pane(1, rect(4, 4, 2, 2))])
        expectRefused(&manager, throwing: .belowMinimumSize(2, minimum: Size(width: 2, height: 2))) {
            try $0.addWidget(NewPane(app: .calendar, frame: frame))
        }
    }

    // MARK: Without a frame

    @Test func addToAnEmptyCanvasFillsTheGrid() throws {
        var manager = try CanvasManager()
        let id = try manager.addWidget(NewPane(app: .calendar))
        #expect(frames(manager) == [id: rect(0, 0, 12, 12)])
        #expect(manager.focusedPaneID == id)
    }

    @Test func addTakesTheLargestFreeRectangle() throws {
        // Given a 4-wide pane on the left and a 2×2 pane bottom right,
        var manager = try makeManager([pane(1, rect(0, 0, 4, 12)), pane(2, rect(10, 10, 2, 2))])
        // when adding without a frame, the new pane takes 8×10 (80) rather than 6×12 (72).
        let id = try manager.addWidget(NewPane(app: .eventLog))
        #expect(frames(manager) == [1: rect(0, 0, 4, 12), 2: rect(10, 10, 2, 2), id: rect(4, 0, 8, 10)])
        expectValid(manager, paneCount: 3)
    }

    @Test func equalFreeRectanglesPreferTheFirstInReadingOrder() throws {
        var manager = try makeManager([pane(1, rect(0, 4, 12, 4))])
        let id = try manager.addWidget(NewPane(app: .calendar))
        #expect(manager.pane(id)?.frame == rect(0, 0, 12, 4))
        let next = try manager.addWidget(NewPane(app: .calendar))
        #expect(manager.pane(next)?.frame == rect(0, 8, 12, 4))
        #expect(coveredArea(manager) == 144)
        expectValid(manager, paneCount: 3)
    }

    @Test func freeSpaceBelowTheMinimumIsNotUsed() throws {
        // Given a 1-unit free strip on the right (narrower than the minimum),
        var manager = try makeManager([pane(1, rect(0, 0, 11, 12))])
        // when adding, the focused pane is split instead (stacked, as it is taller than wide).
        let id = try manager.addWidget(NewPane(app: .calendar))
        #expect(frames(manager) == [1: rect(0, 0, 11, 6), id: rect(0, 6, 11, 6)])
        expectValid(manager, paneCount: 2)
    }

    @Test func fullCanvasSplitsTheFocusedPane() throws {
        var manager = try makeManager(Fixture.threePanes, focused: 2)
        let id = try manager.addWidget(NewPane(app: .eventLog))
        // Pane 2 is 6×6: split side by side, keeping the left half.
        #expect(id == 4)
        #expect(frames(manager) == [1: rect(0, 0, 6, 12), 2: rect(6, 0, 3, 6), 3: rect(6, 6, 6, 6), 4: rect(9, 0, 3, 6)])
        #expect(manager.focusedPaneID == 4)
        #expect(coveredArea(manager) == 144)
        expectValid(manager, paneCount: 4)
    }

    @Test func oddSidesGiveTheSmallerHalfToTheNewPane() throws {
        var manager = try makeManager([pane(1, rect(0, 0, 7, 4))], grid: GridSpec(columns: 7, rows: 4))
        let id = try manager.addWidget(NewPane(app: .calendar))
        #expect(frames(manager) == [1: rect(0, 0, 4, 4), id: rect(4, 0, 3, 4)])
    }

    @Test func focusedPaneTooSmallSplitsTheLargestPane() throws {
        // Given a full canvas whose focused pane is at the minimum size,
        var manager = try makeManager(
            [pane(1, rect(0, 0, 2, 2)), pane(2, rect(0, 2, 2, 10)), pane(3, rect(2, 0, 10, 12))], focused: 1)
        // when adding, the largest pane (3, 10×12) is split: stacked, as it is taller than wide.
        let id = try manager.addWidget(NewPane(app: .calendar))
        #expect(frames(manager) == [
            1: rect(0, 0, 2, 2), 2: rect(0, 2, 2, 10), 3: rect(2, 0, 10, 6), id: rect(2, 6, 10, 6),
        ])
        expectValid(manager, paneCount: 4)
    }

    /// Issue 40, item 10: on a shared canvas an add splits the focused pane or none, never one
    /// another member may be using.
    @Test func onASharedCanvasOnlyTheFocusedPaneIsSplit() throws {
        var manager = try makeManager(
            [pane(1, rect(0, 0, 2, 2)), pane(2, rect(0, 2, 2, 10)), pane(3, rect(2, 0, 10, 12))], focused: 1)
        var refused = manager
        #expect(throws: CanvasError.self) { try refused.addWidget(NewPane(app: .calendar), onlySplittingTheFocused: true) }
        #expect(frames(manager) == [1: rect(0, 0, 2, 2), 2: rect(0, 2, 2, 10), 3: rect(2, 0, 10, 12)])
        let focused = manager.focus(3)
        #expect(focused)
        let id = try manager.addWidget(NewPane(app: .calendar), onlySplittingTheFocused: true)
        #expect(frames(manager)[id] == rect(2, 6, 10, 6))
    }

    @Test func noRoomAnywhereIsRefused() throws {
        var manager = try makeManager(
            [pane(1, rect(0, 0, 2, 2)), pane(2, rect(2, 0, 2, 2)), pane(3, rect(0, 2, 2, 2)), pane(4, rect(2, 2, 2, 2))],
            grid: GridSpec(columns: 4, rows: 4))
        expectRefused(&manager, throwing: .noRoom) { try $0.addWidget(NewPane(app: .calendar)) }
    }

    @Test func placementSplitsAlongTheLongerSide() {
        let minimum = Size(width: 2, height: 2)
        #expect(Placement.split(rect(0, 0, 8, 4), keeping: minimum, giving: minimum)! == (rect(0, 0, 4, 4), rect(4, 0, 4, 4)))
        #expect(Placement.split(rect(2, 1, 4, 9), keeping: minimum, giving: minimum)! == (rect(2, 1, 4, 5), rect(2, 6, 4, 4)))
        // Halves too narrow for a wide minimum: stacked even though wider than tall.
        #expect(Placement.split(rect(0, 0, 5, 4), keeping: Size(width: 3, height: 1), giving: Size(width: 3, height: 1))! == (rect(0, 0, 5, 2), rect(0, 2, 5, 2)))
        #expect(Placement.split(rect(0, 0, 3, 3), keeping: minimum, giving: minimum) == nil)
        // A new pane's larger minimum is cut from the side when half is less.
        #expect(Placement.split(rect(0, 0, 12, 12), keeping: minimum, giving: Size(width: 8, height: 3))!
            == (rect(0, 0, 4, 12), rect(4, 0, 8, 12)))
        #expect(Placement.split(rect(0, 0, 4, 12), keeping: minimum, giving: Size(width: 3, height: 8))!
            == (rect(0, 0, 4, 4), rect(0, 4, 4, 8)))
    }

    @Test func aPaneWithALargerMinimumGetsAtLeastItOrIsRefused() throws {
        // Free space of 2×12 is too narrow for 4×4: the pane is split instead.
        var manager = try makeManager([pane(1, rect(0, 0, 10, 12))])
        let id = try manager.addWidget(NewPane(app: .calendar, minimumSize: Size(width: 4, height: 4)))
        #expect(frames(manager) == [1: rect(0, 0, 10, 6), id: rect(0, 6, 10, 6)])
        // With no pane that can give 11 columns and keep its own minimum, it says why.
        var full = try makeManager([pane(1, rect(0, 0, 6, 12)), pane(2, rect(6, 0, 6, 12))])
        expectRefused(&full, throwing: .noRoomFor(minimum: Size(width: 11, height: 2))) {
            try $0.addWidget(NewPane(app: .calendar, minimumSize: Size(width: 11, height: 2)))
        }
    }
}
