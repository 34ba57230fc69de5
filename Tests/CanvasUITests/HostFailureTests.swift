import CanvasCore
import CanvasUI
import Testing

@MainActor
@Suite("Canvas host: a failing widget stays in its own pane")
struct HostFailureTests {
    @Test func theErrorShowsInThePaneAndTheRestCarriesOn() throws {
        let recorder = Recorder()
        let host = try makeHost([pane(1, .failing, 0, 0, 6, 12), pane(2, .probe, 6, 0, 6, 12)], focused: 1, recorder: recorder)
        host.press(.char("k"))
        let frame = host.compose()
        let screen = frame.lines
        #expect(screen[0].hasPrefix("┏━ 1 Failing ━"))
        #expect(screen[1] == "┃" + padded("This widget failed:", 28) + "┃│" + padded("Probe body", 28) + "│")
        #expect(screen[2] == "┃" + padded("disk on fire at sector 7", 28) + "┃│" + padded("colour red", 28) + "│")
        #expect(screen[3].hasPrefix("┃" + padded("while reading the index", 28) + "┃"))
        #expect(frame[1, 1].style == host.theme[.error])
        #expect(frame[1, 2].style == host.theme[.text])

        // The failed widget gets nothing more; focus and the other pane still work.
        host.press(.char("j"), .tab, .char("m"))
        #expect(recorder.keys(of: 1) == [.char("k")])
        #expect(recorder.keys(of: 2) == [.char("m")])
        let after = host.screen
        #expect(after[0].hasPrefix("┌─ 1 Failing ─"))
        #expect(after[0].contains("┏━ 2 Probe ━"))
        #expect(after[1].hasPrefix("┃This widget failed:") == false)
        #expect(after[1].hasPrefix("│This widget failed:"))

        host.press(.char("q"))
        #expect(host.shouldQuit)
    }

    @Test func aFailureIsKeptWithItsPaneAcrossArrangeSteps() throws {
        let host = try makeHost([pane(1, .failing, 0, 0, 4, 12), pane(2, .probe, 6, 0, 6, 12)], focused: 1)
        host.press(.char("k"), .ctrl("e"), .right, .enter)
        let screen = host.screen
        #expect(host.manager.pane(1)?.frame == Rect(x: 1, y: 0, width: 4, height: 12))
        // Now 4 grid units from column 5: the message is clipped to the 18 columns inside.
        #expect(screen[1].hasPrefix("     ┃This widget failed┃     │Probe body"))
        #expect(screen[2].hasPrefix("     ┃disk on fire at   ┃"))
    }
}
