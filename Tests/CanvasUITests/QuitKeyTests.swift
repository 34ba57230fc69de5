import CanvasCore
import CanvasUI
import Testing

@MainActor
@Suite("Canvas host: quitting")
struct QuitKeyTests {
    @Test func qQuits() throws {
        let host = try makeHost(halves)
        host.press(.char("q"))
        #expect(host.shouldQuit)
    }

    @Test func qGoesToAWidgetThatCapturesText() throws {
        let recorder = Recorder()
        let host = try makeHost([pane(1, .typing, 0, 0, 6, 12), pane(2, .probe, 6, 0, 6, 12)], recorder: recorder)
        host.press(.char("q"), .char("?"))
        #expect(!host.shouldQuit)
        #expect(host.mode == .normal)
        #expect(recorder.keys(of: 1) == [.char("q"), .char("?")])

        host.press(.tab, .char("q"))
        #expect(host.shouldQuit)
    }

    @Test func ctrlQAlwaysQuits() throws {
        let recorder = Recorder()
        let host = try makeHost([pane(1, .typing, 0, 0, 6, 12)], recorder: recorder)
        host.press(.ctrl("q"))
        #expect(host.shouldQuit)
        #expect(recorder.received.isEmpty)
    }

    @Test func escThenCtrlQReadAsCtrlAltQQuits() throws {
        let host = try makeHost([pane(1, .typing, 0, 0, 6, 12)])
        host.press(Key(.char("q"), [.ctrl, .alt]))
        #expect(host.shouldQuit)
    }

    @Test func ctrlQQuitsFromEveryMode() throws {
        for opening in [[Key.ctrl("e")], [.char("?")], [.ctrl("e"), .char("a")], [.ctrl("e"), .char("x")], [.ctrl("e"), .char("s")]] {
            let host = try makeHost(halves)
            for key in opening { host.press(key) }
            #expect(host.mode != .normal || host.overlay != nil)
            host.press(.ctrl("q"))
            #expect(host.shouldQuit, "after \(opening)")
        }
    }

    @Test func plainKeysDoNotQuit() throws {
        let host = try makeHost(halves)
        host.press(.char("Q"), .char("x"), .escape)
        #expect(!host.shouldQuit)
    }
}
