import AppModel
import CanvasCore
import CanvasStyle
import CanvasUI
import Foundation
import ServerAPI
import Testing
@testable import Widgets

@MainActor
@Suite("Calendar: choosing, editing, moving and deleting an event; of a repeating one, which instances")
struct CalendarEditTests {
    static let size = Size(width: 60, height: 18)
    static let november = DayRange(first: "2026-11-01", last: "2026-11-30")

    /// A weekly stand-up's instance on Sunday 22 November 09:30–10:00, and a one-off lunch.
    static var standUp: CalendarEvent {
        var event = CalendarEvent(id: 5, title: "Stand-up", start: instant("2026-11-22T09:30:00Z"), end: instant("2026-11-22T10:00:00Z"))
        event.recurrence = "FREQ=WEEKLY"
        event.instanceStart = event.start
        return event
    }
    static let lunch = CalendarEvent(id: 6, title: "Lunch", start: instant("2026-11-22T12:00:00Z"), end: instant("2026-11-22T13:00:00Z"))

    func loaded(_ events: [CalendarEvent], log: CommandLog, clock: CanvasClock = Fixed.clock) throws -> CalendarWidget {
        var widget = CalendarWidget()
        log.record(try widget.mount(WidgetContext(pane: 1, bus: EventBus(now: clock.now), clock: clock, logger: Fixed.logger)))
        widget.resize(to: Self.size)
        _ = try widget.receive(delivered(CalendarEventsLoaded(range: Self.november, events: events, origin: .server)))
        log.commands = []
        return widget
    }

    func lines(_ widget: CalendarWidget) -> [String] {
        render(widget, size: Self.size).lines.map { $0.trimmingCharacters(in: .whitespaces) }
    }

    /// The style of the first cell of `title` as drawn in a focused pane.
    func style(of title: String, in widget: CalendarWidget) throws -> Style {
        let buffer = render(widget, size: Self.size)
        let row = try #require(buffer.lines.firstIndex { $0.contains(title) })
        let column = try #require(buffer.lines[row].firstRange(of: title)).lowerBound.utf16Offset(in: buffer.lines[row])
        return buffer[column, row].style
    }

    @Test("the day's first event is chosen and marked in a focused pane; j and k move the choice, within the day")
    func choosing() throws {
        let log = CommandLog()
        var widget = try loaded([Self.standUp, Self.lunch], log: log)
        #expect(try style(of: "Stand-up", in: widget) == Theme.dark[.selection])
        #expect(try style(of: "Lunch", in: widget) == Theme.dark[.text])
        try widget.press(.char("j"), log: log)
        try widget.press(.char("j"), log: log)
        #expect(try style(of: "Lunch", in: widget) == Theme.dark[.selection])
        #expect(try style(of: "Stand-up", in: widget) == Theme.dark[.text])
        try widget.press(.char("k"), log: log)
        #expect(try style(of: "Stand-up", in: widget) == Theme.dark[.selection])
        let unfocused = render(widget, size: Self.size, focused: false)
        let row = try #require(unfocused.lines.firstIndex { $0.contains("Stand-up") })
        let column = try #require(unfocused.lines[row].firstRange(of: "Stand-up")).lowerBound.utf16Offset(in: unfocused.lines[row])
        #expect(unfocused[column, row].style != Theme.dark[.selection], "an unfocused pane marks no choice")
        #expect(log.commands.isEmpty)
    }

    @Test("> on an instance of a weekly event asks which; o moves this one alone a day later, and the selection follows it")
    func movingOneInstance() throws {
        let log = CommandLog()
        var widget = try loaded([Self.standUp, Self.lunch], log: log)
        try widget.press(.char(">"), log: log)
        #expect(log.commands.isEmpty, "nothing is sent before the answer")
        #expect(lines(widget).contains("Change \u{201C}Stand-up\u{201D}, which repeats:"))
        #expect(lines(widget).contains("o this one · f this and the following · a all · Esc none"))
        // In a narrow pane the answers wrap between them: none is cut.
        let narrow = render(widget, size: Size(width: 30, height: 18)).lines.map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(Array(narrow.suffix(3)) == ["o this one", "f this and the following", "a all · Esc none"])
        try widget.press(.char("o"), log: log)
        let moved = CalendarEventPatch(start: "2026-11-23T09:30:00Z", end: "2026-11-23T10:00:00Z")
        #expect(log.commands == [.calendar(.update(id: 5, moved, of: CalendarInstances(.this, from: instant("2026-11-22T09:30:00Z"))))])
        #expect(widget.selected == date("2026-11-23"))
        #expect(widget.chosen == Self.standUp.key)
        #expect(!lines(widget).contains { $0.contains("which repeats") })
    }

    @Test("Esc answers none: nothing is sent; f and a send the following and all")
    func otherAnswers() throws {
        let log = CommandLog()
        var widget = try loaded([Self.standUp], log: log)
        try widget.press(.char("<"), log: log)
        try widget.press(Key(.escape), log: log)
        #expect(log.commands.isEmpty && widget.mode == .browse && widget.selected == date("2026-11-22"))
        try widget.press(.char("d"), log: log)
        try widget.press(.char("f"), log: log)
        #expect(log.commands == [.calendar(.delete(id: 5, of: CalendarInstances(.following, from: instant("2026-11-22T09:30:00Z"))))])
        try widget.press(.char("<"), log: log)
        try widget.press(.char("a"), log: log)
        let earlier = CalendarEventPatch(start: "2026-11-21T09:30:00Z", end: "2026-11-21T10:00:00Z")
        #expect(log.commands.last == .calendar(.update(id: 5, earlier, of: CalendarInstances(.all, from: instant("2026-11-22T09:30:00Z")))))
    }

    @Test("e begins with the event's times and title; a new title alone changes the title; new times change the times")
    func editing() throws {
        let log = CommandLog()
        var widget = try loaded([Self.lunch], log: log)
        try widget.press(.char("e"), log: log)
        guard case .input(let entry, let editing) = widget.mode else { Issue.record("no edit"); return }
        #expect(entry.field.text == "12:00-13:00 Lunch" && editing == Self.lunch)
        for _ in 0..<5 { try widget.press(Key(.backspace), log: log) }
        for character in "Team lunch" { try widget.press(.char(character), log: log) }
        // Backspace took "Lunch"; the field had "12:00-13:00 " left.
        try widget.press(Key(.enter), log: log)
        #expect(log.commands == [.calendar(.update(id: 6, CalendarEventPatch(title: "Team lunch"), of: nil))], "a one-off event is not asked about")

        try widget.press(.char("e"), log: log)
        try widget.press(Key(.home), log: log)
        for _ in 0..<11 { try widget.press(Key(.delete), log: log) }
        for character in "12:30-13:30" { try widget.press(.char(character), log: log) }
        try widget.press(Key(.enter), log: log)
        #expect(log.commands.last == .calendar(.update(id: 6, CalendarEventPatch(start: "2026-11-22T12:30:00Z", end: "2026-11-22T13:30:00Z"), of: nil)))
    }

    @Test("an edit that changes nothing sends nothing; a reminder or a repetition of a repeating event is refused by name")
    func editingRefusals() throws {
        let log = CommandLog()
        var widget = try loaded([Self.standUp], log: log)
        try widget.press(.char("e"), log: log)
        try widget.press(Key(.enter), log: log)
        #expect(log.commands.isEmpty && widget.mode == .browse)
        try widget.press(.char("e"), log: log)
        for character in " every day" { try widget.press(.char(character), log: log) }
        try widget.press(Key(.enter), log: log)
        guard case .input(let entry, _) = widget.mode else { Issue.record("the edit closed"); return }
        #expect(entry.problem == EventEntryProblem.repeatsAlready.description)
        #expect(log.commands.isEmpty)
    }

    @Test("d on a one-off event asks y/n; an event of a subscription, or none, is not changed, and the pane says why")
    func deletingAndRefusing() throws {
        let log = CommandLog()
        var holiday = CalendarEvent(id: 9, title: "Holiday", start: instant("2026-11-22T00:00:00Z"), end: instant("2026-11-23T00:00:00Z"), allDay: true)
        (holiday.calendar, holiday.readOnly) = (3, true)
        var widget = try loaded([holiday, Self.lunch], log: log)
        try widget.press(.char("d"), log: log)
        #expect(lines(widget).contains { $0.hasPrefix("\u{201C}Holiday\u{201D} is in a subscription") })
        try widget.press(.char("j"), log: log)
        try widget.press(.char("d"), log: log)
        #expect(lines(widget).contains("Delete \u{201C}Lunch\u{201D}? y/n"))
        try widget.press(.char("y"), log: log)
        #expect(log.commands == [.calendar(.delete(id: 6, of: nil))])
        try widget.press(.right, log: log)
        try widget.press(.char(">"), log: log)
        #expect(lines(widget).contains("Nothing on Mon 23 Nov to change: n adds an event."))
        #expect(log.commands.count == 1, "moving to Monday asked for nothing new; the move sent nothing")
    }

    @Test("a move keeps the local time across the change to summer time, in the clock's zone")
    func movingAcrossSummerTime() throws {
        let paris = try #require(TimeZone(identifier: "Europe/Paris"))
        let clock = CanvasClock(now: { Date(timeIntervalSince1970: 1_774_612_800) }, timeZone: paris) // 2026-03-27 12:00 UTC
        // Saturday 28 March 09:00 in Paris (08:00 UTC); summer time begins on the 29th.
        let yoga = CalendarEvent(id: 4, title: "Yoga", start: instant("2026-03-28T08:00:00Z"), end: instant("2026-03-28T09:00:00Z"))
        let change = EventChange.moving(yoga, days: 1, clock: clock)
        #expect(change.kind == .patch(CalendarEventPatch(start: "2026-03-29T07:00:00Z", end: "2026-03-29T08:00:00Z")))
    }

    @Test("an instance changed alone replaces that instance; one deleted alone leaves the others")
    func instancesInTheAgenda() throws {
        let log = CommandLog()
        var next = Self.standUp
        (next.start, next.end, next.instanceStart) = (instant("2026-11-29T09:30:00Z"), instant("2026-11-29T10:00:00Z"), instant("2026-11-29T09:30:00Z"))
        var widget = try loaded([Self.standUp, next], log: log)
        var moved = Self.standUp
        (moved.start, moved.end) = (instant("2026-11-22T11:00:00Z"), instant("2026-11-22T11:30:00Z"))
        _ = try widget.receive(delivered(CalendarEventUpdated(event: moved)))
        #expect(widget.agenda.events.count == 2)
        #expect(widget.agenda.events[Self.standUp.key]?.start == moved.start)
        _ = try widget.receive(delivered(CalendarEventDeleted(id: 5, instances: CalendarInstances(.this, from: next.instanceStart!))))
        #expect(Array(widget.agenda.events.keys) == [Self.standUp.key])
    }
}
