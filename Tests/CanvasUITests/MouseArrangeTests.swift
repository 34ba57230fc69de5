import CanvasCore
import CanvasUI
import Testing

/// Arranging with the mouse: a pane's title drags it, its bottom-right corner resizes it, one grid
/// unit at a time, and each drag is one undo step.
@MainActor
@Suite("Canvas host: arranging with the mouse")
struct MouseArrangeTests {
    // 60×20: the canvas is 60×19 cells; a grid unit is 5 columns wide and 1–2 rows high.
    static let quarter = [pane(1, .probe, 0, 0, 4, 6), pane(2, .probe, 6, 6, 6, 6)]

    func mouse(_ host: CanvasHost, _ action: MouseEvent.Action, _ x: Int, _ y: Int) {
        host.input(.mouse(MouseEvent(action, at: Point(x: x, y: y))))
    }

    @Test func draggingATitleMovesThePaneAndOneUndoBringsItBack() throws {
        let recorder = Recorder()
        let host = try makeHost(Self.quarter, focused: 2, recorder: recorder)
        host.press(.ctrl("e"))
        mouse(host, .press, 7, 0)  // pane 1's title, in its grid column 1
        #expect(host.manager.focusedPaneID == 1)
        mouse(host, .drag, 12, 0)
        mouse(host, .drag, 17, 2)  // column 3, row 1 (row r starts at cell r × 19 / 12)
        #expect(host.manager.pane(1)?.frame == Rect(x: 2, y: 1, width: 4, height: 6))
        mouse(host, .release, 17, 2)
        #expect(host.manager.pane(1)?.frame == Rect(x: 2, y: 1, width: 4, height: 6))
        #expect(recorder.received.isEmpty, "the drag is the canvas's, not the widget's")
        host.press(.char("u"))
        #expect(host.manager.pane(1)?.frame == Rect(x: 0, y: 0, width: 4, height: 6), "one undo for the whole drag")
        host.press(.ctrl("r"))
        #expect(host.manager.pane(1)?.frame == Rect(x: 2, y: 1, width: 4, height: 6))
    }

    @Test func draggingTheCornerResizesThePane() throws {
        let host = try makeHost(Self.quarter, focused: 1)
        host.press(.ctrl("e"))
        let corner = host.state.cellRect(of: host.manager.pane(1)!)
        mouse(host, .press, corner.maxX - 1, corner.maxY - 1)
        mouse(host, .drag, 32, corner.maxY - 1)  // grid column 6
        #expect(host.manager.pane(1)?.frame == Rect(x: 0, y: 0, width: 7, height: 6))
        mouse(host, .drag, 3, 2)  // as small as it may be: the grid's minimum, 2×2
        #expect(host.manager.pane(1)?.frame == Rect(x: 0, y: 0, width: 2, height: 2))
        mouse(host, .release, 3, 2)
        host.press(.char("u"))
        #expect(host.manager.pane(1)?.frame == Rect(x: 0, y: 0, width: 4, height: 6))
    }

    @Test func outsideArrangeModeAPressOnATitleOnlyFocuses() throws {
        let host = try makeHost(Self.quarter, focused: 2)
        mouse(host, .press, 7, 0)
        mouse(host, .drag, 30, 10)
        mouse(host, .release, 30, 10)
        #expect(host.manager.focusedPaneID == 1)
        #expect(host.manager.pane(1)?.frame == Rect(x: 0, y: 0, width: 4, height: 6))
        #expect(!host.manager.canUndo)
    }

    @Test func aPressInsideAPaneStartsNoDrag() throws {
        let host = try makeHost(Self.quarter, focused: 2)
        host.press(.ctrl("e"))
        mouse(host, .press, 7, 3)
        mouse(host, .drag, 30, 10)
        mouse(host, .release, 30, 10)
        #expect(host.manager.pane(1)?.frame == Rect(x: 0, y: 0, width: 4, height: 6))
    }
}
