import CanvasCore
import CanvasUI
import Foundation
import Testing
import Widgets

@MainActor
@Suite("The default canvas: calendar and event log together")
struct DefaultCanvasTests {
    @Test func twoDaysRightShowsOneCollapsedSelectionInTheLog() throws {
        let host = try makeHost(size: Size(width: 100, height: 30))
        host.press(.right, .right)
        let screen = host.screen
        #expect(screen.count == 30)
        #expect(screen[0] == "┏━ 1 Calendar " + String(repeating: "━", count: 26) + "┓┌─ 2 Event Log " + String(repeating: "─", count: 43) + "┐")
        #expect(screen[1] == "┃             November 2026             ┃│" + padded("12:00:00 calendar.date.selected 2026-11-24 ×2", 57) + "│")
        #expect(screen[2] == "┃     Mo   Tu   We   Th   Fr   Sa   Su  ┃│" + padded("", 57) + "│")
        #expect(screen[3].hasPrefix("┃                                    1  ┃│"))
        #expect(screen[7].hasPrefix("┃     23   24   25   26   27   28   29  ┃│"))
        #expect(screen[10].hasPrefix("┃       Tuesday, 24 November 2026       ┃│"))
        #expect(screen[28] == "┗" + String(repeating: "━", count: 39) + "┛└" + String(repeating: "─", count: 57) + "┘")
        #expect(screen[29].hasPrefix(" NORMAL  ^E arrange Tab focus ^P commands ? help q quit Alt+←↑↓→ focus dir "))
        #expect(screen[29].hasSuffix(" default "))

        let frame = host.compose()
        #expect(frame[11, 7].symbol == "2")
        #expect(frame[12, 7].symbol == "4")
        #expect(frame[11, 7].style == host.theme[.selection])
        #expect(frame[12, 7].style == host.theme[.selection])
        #expect(frame[36, 6].symbol == "2")
        #expect(frame[37, 6].style == host.theme[.today])
    }

    @Test func focusAndArrangeStepsShowUpInTheLog() throws {
        let host = try makeHost(size: Size(width: 100, height: 30))
        host.press(.tab, .ctrl("e"), .left, .shift(.left), .char("u"), .enter)
        // Left swapped the log with the calendar, each keeping its size; the resize was undone.
        let rect = host.state.cellRect(of: try #require(host.manager.pane(2)))
        #expect(rect == Rect(x: 0, y: 0, width: 58, height: 29))
        let log = host.screen[1...5].map { String(Array($0)[1..<57]).trimmingCharacters(in: .whitespaces) }
        #expect(log == [
            "12:00:00 canvas.pane.focused 2 Event Log",
            "12:00:00 canvas.layout.changed move",
            "12:00:00 canvas.layout.changed resize",
            "12:00:00 canvas.layout.changed undo",
            "",
        ])
    }

    @Test func atTheSmallestSizeBothPanesStillShow() throws {
        let host = try makeHost(size: Size(width: 20, height: 5))
        let screen = host.screen
        #expect(screen[0] == "┏━ 1 C…┓┌─ 2 Event…┐")
        #expect(!screen.contains { $0.contains("too small") })
        let smaller = try makeHost(size: Size(width: 19, height: 5))
        #expect(smaller.screen.contains { $0.contains("19×5, needs 20×5") })
    }
}
