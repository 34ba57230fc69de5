import CanvasCore
import CanvasStyle
import CanvasUI
import Testing
@testable import Widgets

@MainActor
@Suite("Calendar: the month as drawn")
struct CalendarRenderTests {
    static func mounted(config: WidgetValues = [:], state: WidgetValues = [:], bus: EventBus = EventBus(now: Fixed.clock.now)) throws -> CalendarWidget {
        var widget = CalendarWidget(config: config, state: state)
        _ = try widget.mount(context(bus: bus))
        return widget
    }

    @Test func november2026StartingOnMonday() throws {
        let buffer = render(try Self.mounted(), size: Size(width: 28, height: 11))
        #expect(buffer.lines == [
            "       November 2026        ",
            "  Mo  Tu  We  Th  Fr  Sa  Su",
            "                           1",
            "   2   3   4   5   6   7   8",
            "   9  10  11  12  13  14  15",
            "  16  17  18  19  20  21  22",
            "  23  24  25  26  27  28  29",
            "  30                        ",
            "                            ",
            "  Sunday, 22 November 2026  ",
            "                            ",
        ])
    }

    @Test func theFirstAndTheTwentySecondFallUnderSunday() throws {
        let lines = render(try Self.mounted(), size: Size(width: 23, height: 10)).lines
        let header = Array(lines[1])
        let su = try #require((0..<header.count - 1).first { header[$0] == "S" && header[$0 + 1] == "u" })
        #expect(Array(lines[2])[su + 1] == "1")
        #expect(String(Array(lines[5])[su...su + 1]) == "22")
        #expect(lines[9] == "Sunday, 22 November 202")
    }

    @Test func theSelectedDayAndTodayHaveTheirStyles() throws {
        var widget = try Self.mounted()
        let theme = Theme.dark
        // 22 is today and selected: the selection colours, plus today's bold underline.
        var buffer = render(widget, size: Size(width: 28, height: 11))
        #expect(buffer[26, 5].symbol == "2")
        #expect(buffer[26, 5].style == theme[.selection].adding([.bold, .underline]))

        _ = try widget.handle(.key(.right))
        buffer = render(widget, size: Size(width: 28, height: 11))
        #expect(buffer[26, 5].style == theme[.today])
        #expect(buffer[27, 5].style == theme[.today])
        #expect(buffer[2, 6].symbol == "2")
        #expect(buffer[2, 6].style == theme[.selection])
        #expect(buffer[3, 6].style == theme[.selection])
        #expect(buffer[6, 6].style == theme[.text])

        let unfocused = render(widget, size: Size(width: 28, height: 11), focused: false)
        #expect(unfocused[2, 6].style == theme[.selectionUnfocused])
    }

    @Test func headingsAndFooterHaveTheirRoles() throws {
        let buffer = render(try Self.mounted(), size: Size(width: 28, height: 11))
        let theme = Theme.dark
        #expect(buffer[7, 0].style == theme[.heading])
        #expect(buffer[2, 1].style == theme[.muted])
        #expect(buffer[2, 9].style == theme[.accent])
    }

    @Test func theWeekCanStartOnSunday() throws {
        var widget = try Self.mounted()
        try widget.cycleSetting("weekStart")
        #expect(widget.config == ["weekStart": "sunday", "view": "month"])
        #expect(widget.settings.first?.value == "sunday")
        #expect(render(widget, size: Size(width: 28, height: 10)).lines == [
            "       November 2026        ",
            "  Su  Mo  Tu  We  Th  Fr  Sa",
            "   1   2   3   4   5   6   7",
            "   8   9  10  11  12  13  14",
            "  15  16  17  18  19  20  21",
            "  22  23  24  25  26  27  28",
            "  29  30                    ",
            "                            ",
            "  Sunday, 22 November 2026  ",
            "                            ",
        ])
        try widget.cycleSetting("weekStart")
        #expect(widget.config == ["weekStart": "monday", "view": "month"])
        #expect(render(widget, size: Size(width: 28, height: 10)).lines[1] == "  Mo  Tu  We  Th  Fr  Sa  Su")
    }

    @Test func theWeekStartIsReadFromConfig() throws {
        let widget = try Self.mounted(config: ["weekStart": "sunday"])
        #expect(render(widget, size: Size(width: 28, height: 10)).lines[1] == "  Su  Mo  Tu  We  Th  Fr  Sa")
    }

    @Test func aNarrowPaneClipsWithoutSpilling() throws {
        let buffer = render(try Self.mounted(), size: Size(width: 15, height: 10))
        #expect(buffer.lines == [
            " November 2026 ",
            " Mo Tu We Th Fr",
            "               ",
            "  2  3  4  5  6",
            "  9 10 11 12 13",
            " 16 17 18 19 20",
            " 23 24 25 26 27",
            " 30            ",
            "               ",
            "Sunday, 22 Nove",
        ])
    }

    @Test func aNarrowCalendarPaneLeavesItsNeighbourAlone() throws {
        // 68 columns: 3 grid units are 17 cells, so the calendar's inside is 15 wide.
        let layout = LayoutData(name: "narrow", panes: [
            Pane(id: 1, app: .calendar, frame: Rect(x: 0, y: 0, width: 3, height: 12)),
            Pane(id: 2, app: .eventLog, frame: Rect(x: 3, y: 0, width: 9, height: 12)),
        ], focused: 1)
        let host = try makeHost(layout, size: Size(width: 68, height: 20))
        let screen = host.screen
        #expect(screen[0].hasPrefix("┏━ 1 Calendar ━━┓┌─ 2 Event Log ─"))
        #expect(screen[2] == "┃ Mo Tu We Th Fr┃│" + padded("", 49) + "│")
        #expect(screen[6] == "┃ 16 17 18 19 20┃│" + padded("", 49) + "│")
        #expect(screen[1] == "┃ November 2026 ┃│" + padded("No events yet.", 49) + "│")
    }
}
