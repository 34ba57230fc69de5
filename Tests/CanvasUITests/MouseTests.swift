import CanvasCore
import CanvasUI
import Testing

@MainActor
@Suite("Canvas host: mouse")
struct MouseTests {
    // At 60×20 pane 1 covers columns 0–29 and pane 2 columns 30–59, rows 0–18; insides start one cell in.

    @Test func aPressFocusesThePaneUnderThePointerAndReachesItInLocalCoordinates() throws {
        let recorder = Recorder()
        let host = try makeHost(halves, focused: 1, recorder: recorder)
        host.input(.mouse(MouseEvent(.press, at: Point(x: 45, y: 10))))
        #expect(host.manager.focusedPaneID == 2)
        #expect(host.screen[0].contains("┏━ 2 Probe ━"))
        #expect(recorder.received == [.init(pane: 2, input: .mouse(MouseEvent(.press, at: Point(x: 14, y: 9))))])
    }

    @Test func theWheelGoesToThePaneUnderThePointerWithoutMovingFocus() throws {
        let recorder = Recorder()
        let host = try makeHost(halves, focused: 2, recorder: recorder)
        host.input(.mouse(MouseEvent(.wheelUp, at: Point(x: 5, y: 3))))
        host.input(.mouse(MouseEvent(.wheelDown, at: Point(x: 1, y: 1))))
        #expect(host.manager.focusedPaneID == 2)
        #expect(recorder.received == [
            .init(pane: 1, input: .mouse(MouseEvent(.wheelUp, at: Point(x: 4, y: 2)))),
            .init(pane: 1, input: .mouse(MouseEvent(.wheelDown, at: Point(x: 0, y: 0)))),
        ])
    }

    @Test func aPressOnABorderFocusesButIsNotPassedOn() throws {
        let recorder = Recorder()
        let host = try makeHost(halves, focused: 1, recorder: recorder)
        host.input(.mouse(MouseEvent(.press, at: Point(x: 30, y: 0))))
        #expect(host.manager.focusedPaneID == 2)
        host.input(.mouse(MouseEvent(.press, at: Point(x: 29, y: 18))))
        #expect(host.manager.focusedPaneID == 1)
        #expect(recorder.received.isEmpty)
    }

    @Test func theStatusBarIsNotAPane() throws {
        let recorder = Recorder()
        let host = try makeHost(halves, focused: 1, recorder: recorder)
        host.input(.mouse(MouseEvent(.press, at: Point(x: 45, y: 19))))
        #expect(host.manager.focusedPaneID == 1)
        #expect(recorder.received.isEmpty)
    }

    @Test func inArrangeModeAPressOnlyFocuses() throws {
        let recorder = Recorder()
        let host = try makeHost(halves, focused: 1, recorder: recorder)
        host.press(.ctrl("e"))
        host.input(.mouse(MouseEvent(.press, at: Point(x: 45, y: 10))))
        host.input(.mouse(MouseEvent(.wheelUp, at: Point(x: 45, y: 10))))
        #expect(host.manager.focusedPaneID == 2)
        #expect(recorder.received.isEmpty)
    }
}
