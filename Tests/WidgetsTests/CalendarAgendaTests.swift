import AppModel
import CanvasCore
import CanvasStyle
import CanvasUI
import Foundation
import ServerAPI
import Testing
@testable import Widgets

@MainActor
@Suite("Calendar: events, due todos and new events")
struct CalendarAgendaTests {
    static let tall = Size(width: 40, height: 16)
    static let short = Size(width: 40, height: 10)

    func mounted(log: CommandLog, clock: CanvasClock = Fixed.clock) throws -> CalendarWidget {
        var widget = CalendarWidget()
        log.record(try widget.mount(WidgetContext(pane: 1, bus: EventBus(now: clock.now), clock: clock, logger: Fixed.logger)))
        widget.resize(to: Self.tall)
        return widget
    }

    func text(_ widget: CalendarWidget, _ size: Size = tall) -> [String] {
        render(widget, size: size).lines.map { $0.trimmingCharacters(in: .whitespaces) }
    }

    @Test("mounting asks for the month's events and the todos (for due days); changing month asks for that month")
    func loadsMonths() throws {
        let log = CommandLog()
        var widget = try mounted(log: log)
        #expect(log.commands == [.calendar(.load(DayRange(first: "2026-11-01", last: "2026-11-30"))), .todo(.load)])
        _ = try widget.press(Key(.pageDown), log: log)
        #expect(log.commands.last == .calendar(.load(DayRange(first: "2026-12-01", last: "2026-12-31"))))
        _ = try widget.press(.right, log: log)
        #expect(log.commands.count == 3, "the same month is not asked for again")
    }

    @Test("days with events or open todos are marked, live; the agenda lists the selected day when tall enough")
    func marksAndAgenda() throws {
        let log = CommandLog()
        var widget = try mounted(log: log)
        let november = DayRange(first: "2026-11-01", last: "2026-11-30")
        _ = try widget.receive(delivered(CalendarEventsLoaded(range: november, events: [
            CalendarEvent(id: 1, title: "Standup", start: instant("2026-11-22T09:30:00Z"), end: instant("2026-11-22T10:00:00Z")),
            CalendarEvent(id: 2, title: "Holiday", start: instant("2026-11-25T00:00:00Z"), end: instant("2026-11-26T00:00:00Z"), allDay: true),
        ], origin: .cache)))
        _ = try widget.receive(delivered(TodoItemsLoaded(items: [
            TodoItem(id: 7, title: "Buy milk", due: date("2026-11-22")),
            TodoItem(id: 8, title: "Done already", done: true, due: date("2026-11-27")),
        ], origin: .cache)))
        var shown = text(widget)
        #expect(shown.contains { $0.hasSuffix("•22") })
        #expect(shown.contains { $0.contains("•25") && !$0.contains("•27") }, "a done todo marks nothing")
        #expect(shown.contains("09:30–10:00 Standup"))
        #expect(shown.contains("[ ] Buy milk"))
        #expect(!text(widget, Self.short).contains("09:30–10:00 Standup"), "no agenda in a short pane")

        _ = try widget.receive(delivered(TodoItemCompleted(item: TodoItem(id: 7, title: "Buy milk", done: true, due: date("2026-11-22")))))
        _ = try widget.receive(delivered(TodoItemCreated(item: TodoItem(id: -1, title: "New", due: date("2026-11-27")))))
        shown = text(widget)
        #expect(!shown.contains("[ ] Buy milk"))
        #expect(shown.contains { $0.contains("•27") })
        _ = try widget.press(.right, log: log)
        _ = try widget.press(.right, log: log)
        _ = try widget.press(.right, log: log)
        #expect(text(widget).contains("all day Holiday"))
    }

    @Test("each instance of a repeating event marks its day; a change of the event waits for its instances from the server")
    func repeatingInstances() throws {
        let log = CommandLog()
        var widget = try mounted(log: log)
        func instance(_ day: String) -> CalendarEvent {
            var event = CalendarEvent(id: 5, title: "Yoga", start: instant("2026-11-\(day)T18:00:00Z"), end: instant("2026-11-\(day)T19:00:00Z"))
            event.recurrence = "FREQ=WEEKLY"
            event.instanceStart = event.start
            return event
        }
        _ = try widget.receive(delivered(CalendarEventsLoaded(range: DayRange(first: "2026-11-01", last: "2026-11-30"),
                                                              events: ["08", "15", "22", "29"].map(instance), origin: .server)))
        var shown = text(widget)
        for day in ["8", "15", "22", "29"] { #expect(shown.contains { $0.contains("•" + day) }, "\(day)") }
        #expect(shown.contains("18:00–19:00 Yoga"))
        // The event as a whole changed (its instances are the server's to list): what was known of it goes.
        var series = instance("08")
        series.instanceStart = nil
        _ = try widget.receive(delivered(CalendarEventUpdated(event: series)))
        shown = text(widget)
        #expect(!shown.contains("18:00–19:00 Yoga"))
        #expect(!shown.contains { $0.contains("•15") })
    }

    @Test("an instance whose reminder went off is marked in the agenda; one missed while closed is not")
    func remindedInstance() throws {
        let log = CommandLog()
        var widget = try mounted(log: log)
        var yoga = CalendarEvent(id: 5, title: "Yoga", start: instant("2026-11-22T18:00:00Z"), end: instant("2026-11-22T19:00:00Z"))
        yoga.recurrence = "FREQ=WEEKLY"
        yoga.instanceStart = yoga.start
        let swim = CalendarEvent(id: 6, title: "Swim", start: instant("2026-11-22T08:00:00Z"), end: instant("2026-11-22T09:00:00Z"))
        _ = try widget.receive(delivered(CalendarEventsLoaded(range: DayRange(first: "2026-11-01", last: "2026-11-30"),
                                                              events: [yoga, swim], origin: .server)))
        func style(of title: String) throws -> Style {
            let buffer = render(widget, size: Self.tall, focused: false)
            let row = try #require(buffer.lines.firstIndex { $0.contains(title) })
            let column = try #require(buffer.lines[row].firstRange(of: title)).lowerBound.utf16Offset(in: buffer.lines[row])
            return buffer[column, row].style
        }
        #expect(try style(of: "Yoga") == Theme.dark[.text])
        func reminder(_ event: CalendarEvent) -> CalendarReminder {
            CalendarReminder(at: instant("2026-11-22T07:45:00Z"), id: event.id, instanceStart: event.instanceStart, title: event.title,
                             start: event.start, end: event.end)
        }
        _ = try widget.receive(delivered(CalendarRemindersDue(reminders: [reminder(swim)], missed: true)))
        _ = try widget.receive(delivered(CalendarRemindersDue(reminders: [reminder(yoga)], missed: false)))
        #expect(try style(of: "Yoga") == Theme.dark[.warning])
        #expect(try style(of: "Swim") == Theme.dark[.text])
    }

    @Test("a subscribed calendar's events are marked in its colour (the time), their titles as text; a long title is cut with …")
    func calendarColourAndCutTitles() throws {
        let log = CommandLog()
        var widget = try mounted(log: log)
        var rota = CalendarEvent(id: 7, title: "On-call handover", start: instant("2026-11-22T08:00:00Z"), end: instant("2026-11-22T09:00:00Z"))
        (rota.calendar, rota.colour, rota.readOnly) = (3, "#3366cc", true)
        let long = CalendarEvent(id: 8, title: "A planning meeting whose title is far longer than the pane is wide, and then some",
                                 start: instant("2026-11-22T10:00:00Z"), end: instant("2026-11-22T11:00:00Z"))
        _ = try widget.receive(delivered(CalendarEventsLoaded(range: DayRange(first: "2026-11-01", last: "2026-11-30"),
                                                              events: [rota, long], origin: .server)))
        let buffer = render(widget, size: Self.tall, focused: false)
        let row = try #require(buffer.lines.firstIndex { $0.contains("On-call") })
        let time = try #require(buffer.lines[row].firstRange(of: "08:00")).lowerBound.utf16Offset(in: buffer.lines[row])
        #expect(buffer[time, row].style.foreground == .palette(62))
        let title = try #require(buffer.lines[row].firstRange(of: "On-call")).lowerBound.utf16Offset(in: buffer.lines[row])
        #expect(buffer[title, row].style == Theme.dark[.text])
        let cut = try #require(buffer.lines.first { $0.contains("A planning") })
        #expect(cut.trimmingCharacters(in: .whitespaces).hasSuffix("…"))
    }

    @Test("v switches to the agenda (the days ahead with something planned, next month's asked for) and to the week, side by side; the view is kept in the layout")
    func agendaAndWeekViews() throws {
        let log = CommandLog()
        var widget = try mounted(log: log)
        widget.resize(to: Size(width: 80, height: 16))
        func event(_ id: Int64, _ day: String, _ title: String) -> CalendarEvent {
            CalendarEvent(id: id, title: title, start: instant("\(day)T09:00:00Z"), end: instant("\(day)T10:00:00Z"))
        }
        _ = try widget.receive(delivered(CalendarEventsLoaded(range: DayRange(first: "2026-11-01", last: "2026-11-30"),
                                                              events: [event(1, "2026-11-24", "Dentist"), event(2, "2026-11-28", "Party")],
                                                              origin: .server)))
        _ = try widget.press(.char("v"), log: log)
        #expect(widget.view == .agenda && widget.config["view"] == "agenda")
        #expect(log.commands.last == .calendar(.load(DayRange(first: "2026-12-01", last: "2026-12-31"))))
        _ = try widget.receive(delivered(CalendarEventsLoaded(range: DayRange(first: "2026-12-01", last: "2026-12-31"),
                                                              events: [event(3, "2026-12-03", "Flight")], origin: .server)))
        var shown = render(widget, size: Size(width: 80, height: 16)).lines.map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(Array(shown.prefix(9)) == [
            "From Sun 22 Nov",
            "Sun 22 Nov · today", "Nothing planned. n adds an event.",
            "Tue 24 Nov", "09:00–10:00 Dentist",
            "Sat 28 Nov", "09:00–10:00 Party",
            "Thu 3 Dec", "09:00–10:00 Flight",
        ])
        _ = try widget.press(.char("v"), log: log)
        #expect(widget.view == .week)
        shown = render(widget, size: Size(width: 80, height: 16)).lines
        #expect(shown[0].trimmingCharacters(in: .whitespaces) == "Week of Mon 16 Nov")
        #expect(shown[1].trimmingCharacters(in: .whitespaces).hasPrefix("Mon 16") && shown[1].contains("Sun 22"))
        // Down a week: the 24th's column has its event.
        _ = try widget.handle(.key(.down))
        shown = render(widget, size: Size(width: 80, height: 16)).lines
        let column = try #require(shown[1].range(of: "Tue 24")).lowerBound.utf16Offset(in: shown[1])
        #expect(shown[2].dropFirst(column).hasPrefix("09:00 Den… "))
        // Too narrow for seven columns: the week is a list of its days.
        let narrow = render(widget, size: Size(width: 40, height: 16)).lines.map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(Array(narrow.prefix(5)) == ["Week of Mon 23 Nov", "Mon 23 Nov", "Tue 24 Nov", "09:00–10:00 Dentist", "Wed 25 Nov"])
        _ = try widget.press(.char("v"), log: log)
        #expect(widget.view == .month && CalendarWidget(config: widget.config).view == .month)
        #expect(CalendarWidget(config: ["view": "week"]).view == .week)
    }

    @Test("n adds an all-day or timed event on the selected day, in the clock's time zone")
    func newEvents() throws {
        let log = CommandLog()
        let berlin = CanvasClock(now: Fixed.clock.now, timeZone: TimeZone(identifier: "Europe/Berlin")!)
        var widget = try mounted(log: log, clock: berlin)
        _ = try widget.press(.char("n"), log: log)
        #expect(widget.capturesText)
        for character in "Party" { _ = try widget.press(.char(character), log: log) }
        _ = try widget.press(.enter, log: log)
        #expect(log.commands.last == .calendar(.create(NewCalendarEvent(title: "Party", start: "2026-11-22T00:00:00Z",
                                                                         end: "2026-11-23T00:00:00Z", allDay: true))))
        _ = try widget.press(.char("n"), log: log)
        for character in "09:30-11:00 Review" { _ = try widget.press(.char(character), log: log) }
        _ = try widget.press(.enter, log: log)
        #expect(log.commands.last == .calendar(.create(NewCalendarEvent(title: "Review", start: "2026-11-22T08:30:00Z",
                                                                         end: "2026-11-22T10:00:00Z", allDay: false))))
        _ = try widget.press(.char("n"), log: log)
        for character in "25:00 Nope" { _ = try widget.press(.char(character), log: log) }
        _ = try widget.press(.enter, log: log)
        #expect(text(widget).contains { $0.hasPrefix("'25:00' is not a time") })
        _ = try widget.press(.escape, log: log)
        #expect(!widget.capturesText)
    }

    @Test("a new event may repeat (every weekday, every 2 weeks…) in the clock's zone and have a reminder (remind 15m, 2h, 1d), in either order; a wrong one is named")
    func repetitionAndReminder() throws {
        let berlin = CanvasClock(now: Fixed.clock.now, timeZone: TimeZone(identifier: "Europe/Berlin")!)
        let day = Fixed.today
        var event = try EventEntry.parse("09:30-09:45 Stand-up every weekday remind 10m", on: day, clock: berlin)
        #expect(event.title == "Stand-up" && event.start == "2026-11-22T08:30:00Z" && event.end == "2026-11-22T08:45:00Z")
        #expect(event.recurrence == "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR" && event.timeZone == "Europe/Berlin" && event.reminders == [10])
        event = try EventEntry.parse("Bins remind 1d every 2 weeks", on: day, clock: berlin)
        #expect(event.title == "Bins" && event.allDay == true && event.recurrence == "FREQ=WEEKLY;INTERVAL=2" && event.reminders == [1440])
        #expect(event.timeZone == nil)
        // A title that merely holds the words stays whole.
        #expect(try EventEntry.parse("Every day matters", on: day, clock: berlin).recurrence == nil)
        #expect(try EventEntry.parse("Read every book", on: day, clock: berlin).title == "Read every book")
        #expect(throws: EventEntryProblem.badRepetition("3 fortnights")) { try EventEntry.parse("Swim every 3 fortnights", on: day, clock: berlin) }
        #expect(throws: EventEntryProblem.badRepetition("weekday please")) { try EventEntry.parse("Swim every weekday please", on: day, clock: berlin) }
        #expect(throws: EventEntryProblem.badReminder("15x")) { try EventEntry.parse("Swim remind 15x", on: day, clock: berlin) }
        #expect(throws: EventEntryProblem.badReminder("29d")) { try EventEntry.parse("Swim remind 29d", on: day, clock: berlin) }
    }
}
