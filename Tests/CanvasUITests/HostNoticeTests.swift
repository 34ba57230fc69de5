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
        // Issue 55, item 7: the pane as its title names it, not `pane #1`.
        #expect(status.hasPrefix(" ARRANGE  Can't move: 1 Probe would leave the canvas "), "\(status)")
        #expect(!status.contains("←↑↓→ move"))
        let noticeColumn = DisplayWidth.of(" ARRANGE  ")
        #expect(frame[noticeColumn, 19].symbol == "C")
        #expect(frame[noticeColumn, 19].style == host.theme[.statusMessage])
        #expect(host.manager.panes.map(\.frame) == halves.map(\.frame))

        host.press(.char("z"))
        #expect(!host.statusBar.contains("Can't"))
        #expect(host.statusBar.hasSuffix(" test "))
    }

    /// Issue 40: a notice longer than the bar ends by naming the key that shows it whole.
    @Test func aLongNoticeEndsByNamingTheKeyThatShowsItWhole() throws {
        let host = try makeHost(halves)
        host.press(.ctrl("e"), .left)
        host.press(.shift(.right), .shift(.right), .shift(.right), .shift(.right), .shift(.right))
        #expect(host.statusBar.hasPrefix(" ARRANGE  Can't resize: 2 Probe is already at its "), "\(host.statusBar)")
        #expect(host.statusBar.hasSuffix(" … ^G all "))
        #expect(host.statusBar.count == 60)
        host.press(.ctrl("g"))
        #expect((host.overlay as? MessagesOverlay)?.entries.last?.notice.text.hasSuffix("is already at its minimum size") == true)
        #expect(host.statusBar.hasPrefix(" MESSAGES "))
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
