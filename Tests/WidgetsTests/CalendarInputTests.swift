import CanvasCore
import CanvasUI
import Foundation
import Testing
@testable import Widgets

@MainActor
@Suite("Calendar: moving the selection")
struct CalendarInputTests {
    static func mounted(state: WidgetValues = [:], bus: EventBus, pane: PaneID = 1) throws -> CalendarWidget {
        var widget = CalendarWidget(state: state)
        CommandLog(bus: bus, pane: pane).record(try widget.mount(context(pane: pane, bus: bus)))
        widget.resize(to: Size(width: 28, height: 11))
        return widget
    }

    /// The last line drawn: the long date of the selected day.
    /// The line naming the selected day, below the month (an agenda may follow it).
    static func footer(_ widget: CalendarWidget) -> String {
        render(widget, size: Size(width: 28, height: 11)).text.split(separator: "\n").last { $0.contains("day, ") }
            .map(String.init)?.trimmingCharacters(in: .whitespaces) ?? ""
    }

    @Test func everyKeyThatChangesTheDayPublishesItOnce() throws {
        let bus = EventBus(now: Fixed.clock.now)
        var widget = try Self.mounted(bus: bus)
        let log = CommandLog(bus: bus)
        #expect(bus.log.count == 0, "mounting publishes nothing")
        let steps: [(KeyCode, String)] = [
            (.right, "2026-11-23"), (.down, "2026-11-30"), (.pageDown, "2026-12-30"), (.up, "2026-12-23"),
            (.left, "2026-12-22"), (.home, "2026-11-22"), (.pageUp, "2026-10-22"), (.char("t"), "2026-11-22"),
        ]
        for (code, expected) in steps {
            let before = bus.log.count
            #expect(try widget.press(Key(code), log: log) == .handled)
            #expect(selectedDates(on: bus).last == expected, "after \(code)")
            #expect(bus.log.count == before + 1, "after \(code)")
        }
        #expect(selectedDates(on: bus) == steps.map(\.1))
        #expect(bus.log.events.allSatisfy { $0.source == 1 })
        #expect(Self.footer(widget) == "Sunday, 22 November 2026")
    }

    @Test func keysThatKeepTheDayPublishNothing() throws {
        let bus = EventBus(now: Fixed.clock.now)
        var widget = try Self.mounted(bus: bus)
        let log = CommandLog(bus: bus)
        #expect(try widget.press(Key(.home), log: log) == .handled)
        #expect(try widget.press(.char("t"), log: log) == .handled)
        #expect(try widget.press(.char("z"), log: log) == .ignored)
        #expect(try widget.press(.shift(.right), log: log) == .ignored)
        #expect(try widget.press(.enter, log: log) == .ignored)
        #expect(bus.log.count == 0)
    }

    @Test func theViewFollowsTheSelection() throws {
        let bus = EventBus(now: Fixed.clock.now)
        var widget = try Self.mounted(bus: bus)
        let log = CommandLog(bus: bus)
        _ = try widget.press(Key(.pageDown), log: log)
        let lines = render(widget, size: Size(width: 28, height: 11)).lines
        #expect(lines[0] == "       December 2026        ")
        #expect(lines[2] == "       1   2   3   4   5   6")
        #expect(lines[6] == "  28  29  30  31            ")
        #expect(lines[8] == " Tuesday, 22 December 2026  ")
    }

    @Test(arguments: [
        ("2026-01-31", "2026-02-28"),
        ("2024-01-31", "2024-02-29"),
        ("2026-03-31", "2026-04-30"),
        ("2026-12-31", "2027-01-31"),
    ])
    func pageDownClampsToTheEndOfAShorterMonth(from: String, to: String) throws {
        let bus = EventBus(now: Fixed.clock.now)
        var widget = try Self.mounted(state: ["selected": from], bus: bus)
        let log = CommandLog(bus: bus)
        _ = try widget.press(Key(.pageDown), log: log)
        #expect(selectedDates(on: bus) == [to])
        #expect(widget.state == ["selected": to])
    }

    @Test func pageUpClampsToo() throws {
        let bus = EventBus(now: Fixed.clock.now)
        var widget = try Self.mounted(state: ["selected": "2026-03-31"], bus: bus)
        let log = CommandLog(bus: bus)
        _ = try widget.press(Key(.pageUp), log: log)
        #expect(selectedDates(on: bus) == ["2026-02-28"])
        #expect(Self.footer(widget) == "Saturday, 28 February 2026")
    }

    @Test func aPressOnADaySelectsIt() throws {
        let bus = EventBus(now: Fixed.clock.now)
        var widget = try Self.mounted(bus: bus)
        let log = CommandLog(bus: bus)
        // Row 4 holds 9–15; columns 12–15 are Thursday, where 12 is drawn at 13–15.
        #expect(try widget.send(.mouse(MouseEvent(.press, at: Point(x: 14, y: 4))), log: log) == .handled)
        #expect(selectedDates(on: bus) == ["2026-11-12"])
        #expect(Self.footer(widget) == "Thursday, 12 November 2026")
        // The blank cells before the 1st and the heading select nothing.
        #expect(try widget.send(.mouse(MouseEvent(.press, at: Point(x: 2, y: 2))), log: log) == .ignored)
        #expect(try widget.send(.mouse(MouseEvent(.press, at: Point(x: 2, y: 0))), log: log) == .ignored)
        #expect(try widget.send(.mouse(MouseEvent(.press, at: Point(x: 6, y: 7))), log: log) == .ignored)
        #expect(selectedDates(on: bus) == ["2026-11-12"])
    }

    @Test func theWheelTurnsMonths() throws {
        let bus = EventBus(now: Fixed.clock.now)
        var widget = try Self.mounted(bus: bus)
        let log = CommandLog(bus: bus)
        _ = try widget.send(.mouse(MouseEvent(.wheelDown, at: .zero)), log: log)
        _ = try widget.send(.mouse(MouseEvent(.wheelUp, at: .zero)), log: log)
        _ = try widget.send(.mouse(MouseEvent(.wheelUp, at: .zero)), log: log)
        #expect(selectedDates(on: bus) == ["2026-12-22", "2026-11-22", "2026-10-22"])
    }

    @Test func theSelectedDayRoundTripsThroughState() throws {
        let bus = EventBus(now: Fixed.clock.now)
        var widget = try Self.mounted(bus: bus)
        let log = CommandLog(bus: bus)
        #expect(widget.state == ["selected": "2026-11-22"])
        _ = try widget.press(.right, log: log)
        #expect(widget.state == ["selected": "2026-11-23"])

        let restored = try Self.mounted(state: widget.state, bus: bus)
        #expect(Self.footer(restored) == "Monday, 23 November 2026")
        let invalid = try Self.mounted(state: ["selected": "2026-02-30"], bus: bus)
        #expect(Self.footer(invalid) == "Sunday, 22 November 2026")
    }

    @Test func theHostSavesTheSelectedDayWithThePane() throws {
        let host = try makeHost(size: Size(width: 100, height: 30))
        host.press(.right, .right)
        let saved = host.currentLayout()
        #expect(saved.panes[0].state == ["selected": "2026-11-24"])
        #expect(saved.panes[0].config == ["weekStart": "monday", "view": "month"])

        let again = try makeHost(saved, size: Size(width: 100, height: 30))
        #expect(again.screen[10].contains("Tuesday, 24 November 2026"))
    }

    @Test func aPressInTheHostSelectsTheDayUnderThePointer() throws {
        let host = try makeHost(size: Size(width: 100, height: 30))
        _ = host.compose()  // the first frame tells the widget its size, as the app loop does
        // The calendar's inside starts at 1,1 and is 39 wide: 5-column days from column 2.
        host.input(.mouse(MouseEvent(.press, at: Point(x: 1 + 2 + 2 * 5 + 3, y: 1 + 4))))
        #expect(selectedDates(on: host.bus) == ["2026-11-11"])
        #expect(host.screen[10].contains("Wednesday, 11 November 2026"))
    }
}
