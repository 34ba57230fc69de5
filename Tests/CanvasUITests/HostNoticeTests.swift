import CanvasCore
import CanvasUI
import Testing

@MainActor
@Suite("Canvas host: notices in the status bar")
struct HostNoticeTests {
    @Test func aRefusedStepExplainsItselfUntilTheNextKey() throws {
        let host = try makeHost(halves, size: Size(width: 90, height: 20))
        host.press(.ctrl("e"), .left)
        let frame = host.compose()
        let status = frame.lines[19]
        // The notice takes the bar, right after the mode badge, instead of the key hints.
        #expect(status.hasPrefix(" ARRANGE  Can't move: pane #1 at -1,0 6×12 lies outside the grid "))
        #expect(!status.contains("←↑↓→ move"))
        let noticeColumn = DisplayWidth.of(" ARRANGE  ")
        #expect(frame[noticeColumn, 19].symbol == "C")
        #expect(frame[noticeColumn, 19].style == host.theme[.statusMessage])
        #expect(host.manager.panes.map(\.frame) == halves.map(\.frame))

        host.press(.char("z"))
        #expect(!host.statusBar.contains("Can't"))
        #expect(host.statusBar.hasSuffix(" test "))
    }

    @Test func aLongNoticeIsClippedAtTheRightEdge() throws {
        let host = try makeHost(halves)
        host.press(.ctrl("e"), .left)
        #expect(host.statusBar == " ARRANGE  Can't move: pane #1 at -1,0 6×12 lies outside the ")
    }

    @Test func undoWithNothingToUndoSaysSo() throws {
        let host = try makeHost(halves, size: Size(width: 80, height: 20))
        host.press(.ctrl("e"), .char("u"))
        #expect(host.statusBar.contains("  Nothing to undo "))
        host.press(.ctrl("r"))
        #expect(host.statusBar.contains("  Nothing to redo "))
        host.press(.tab)
        #expect(host.statusBar.hasSuffix(" test "))
    }

    @Test func keepingAPaneSaysSo() throws {
        let host = try makeHost(halves, size: Size(width: 80, height: 20))
        host.press(.ctrl("e"), .char("x"), .char("n"))
        #expect(host.statusBar.contains("  Kept the pane "))
        #expect(host.manager.panes.count == 2)
    }
}
