import CanvasCore
import CanvasUI
import Testing

/// Issue 40: every notice is kept for the session and shown whole in the messages box (Ctrl-G,
/// the palette); the status bar's hints are keys that work for the focused pane.
@MainActor
@Suite("Canvas host: the messages box and true hints")
struct MessagesTests {
    @Test func everyNoticeIsKeptAndShownWholeNewestFirst() throws {
        let host = try makeHost(halves, size: Size(width: 80, height: 20))
        host.press(.ctrl("e"), .char("u"))  // "Nothing to undo"
        host.press(.ctrl("r"))  // "Nothing to redo"
        host.press(.enter, .ctrl("g"))
        let box = try #require(host.overlay as? MessagesOverlay)
        #expect(box.entries.map(\.notice.text) == ["Nothing to undo", "Nothing to redo"])
        #expect(box.entries.allSatisfy { $0.time == "12:00:00" })  // the tests' clock, stopped at noon
        let screen = host.screen
        let undo = try #require(screen.firstIndex { $0.contains("12:00:00 Nothing to undo") })
        let redo = try #require(screen.firstIndex { $0.contains("12:00:00 Nothing to redo") })
        #expect(redo < undo, "newest first")
        host.press(.escape)
        #expect(host.overlay == nil)
        // The palette finds it too.
        host.press(.ctrl("p"))
        for character in "messages" { host.press(.char(character)) }
        host.press(.enter)
        #expect(host.overlay is MessagesOverlay)
    }

    @Test func theLogIsBoundedInEntriesAndBytes() {
        var log = NoticeLog()
        for number in 0..<(NoticeLog.capacity + 5) { log.append(.info("notice \(number)"), at: "12:00:00") }
        #expect(log.entries.count == NoticeLog.capacity)
        #expect(log.entries.first?.notice.text == "notice 5")
        // One character of 60 KB (a letter and its combining marks) cannot fill it.
        log.append(.error("a" + String(repeating: "\u{301}", count: 30_000) + " and more"), at: "12:00:01")
        let kept = log.entries.last?.notice.text
        #expect((kept?.utf8.count ?? .max) <= NoticeLog.maximumBytes)
        #expect(kept == "…")
    }

    @Test func whileAPaneTakesTextTheHintsAreKeysThatStillWork() throws {
        let host = try makeHost([pane(1, .typing, 0, 0, 6, 12), pane(2, .probe, 6, 0, 6, 12)], focused: 2,
                                size: Size(width: 120, height: 20))
        #expect(host.statusBar.contains("? help") && host.statusBar.contains("q quit"))
        host.press(.tab)  // the text field has the keys now: ? and q type there
        #expect(!host.statusBar.contains("? help") && !host.statusBar.contains("q quit"), "\(host.statusBar)")
        #expect(host.statusBar.contains("F1 help") && host.statusBar.contains("^Q quit"), "\(host.statusBar)")
    }
}
