import CalendarTime
import Foundation
import ICalendar
import Testing

@Suite("Reminders")
struct CalendarAlarmTests {
    static let paris = CalendarOccurrencesTests.zone("Europe/Paris")!

    static func moment(_ iso: String) -> Int64 { UTCInstant(iso: iso)!.secondsSinceEpoch }

    static func alarm(_ lines: String...) throws -> CalendarAlarm {
        try CalendarAlarm(try #require(try ICalendarText.read((["BEGIN:VALARM"] + lines + ["END:VALARM"]).joined(separator: "\r\n")).first))
    }

    /// RFC 5545's examples of VALARM (section 3.6.6), on an instance from 09:00 to 10:00 UTC.
    @Test func triggersBeforeOrAfterTheStartOrTheEndOrAtAMomentWithRepeats() throws {
        let start = Self.moment("2026-11-30T09:00:00Z"), end = Self.moment("2026-11-30T10:00:00Z")
        #expect(try Self.alarm("ACTION:DISPLAY", "TRIGGER:-PT30M", "REPEAT:2", "DURATION:PT15M", "DESCRIPTION:Breakfast meeting")
            .moments(start: start, end: end, zone: Self.paris).map { UTCInstant(secondsSinceEpoch: $0).iso }
            == ["2026-11-30T08:30:00Z", "2026-11-30T08:45:00Z", "2026-11-30T09:00:00Z"])
        #expect(try Self.alarm("ACTION:AUDIO", "TRIGGER;VALUE=DATE-TIME:19970317T133000Z", "REPEAT:4", "DURATION:PT15M")
            .moments(start: start, end: end, zone: Self.paris).last == Self.moment("1997-03-17T14:30:00Z"))
        #expect(try Self.alarm("ACTION:DISPLAY", "TRIGGER;RELATED=END:-P2D").moments(start: start, end: end, zone: Self.paris)
            == [Self.moment("2026-11-28T10:00:00Z")])
        // A day before 09:00 Paris time on the Sunday the clocks changed is 09:00 the day before, not
        // 24 hours before (08:00 on that Saturday's clock).
        let afterTheChange = Self.moment("2027-03-28T07:00:00Z")
        #expect(try Self.alarm("TRIGGER:-P1D").moments(start: afterTheChange, end: afterTheChange, zone: Self.paris) == [Self.moment("2027-03-27T08:00:00Z")])
    }

    @Test func aMistakeIsNamedByItsLine() {
        #expect(throws: ICalError(line: 1, "BEGIN:VALARM has no TRIGGER: a reminder says when")) { try Self.alarm("ACTION:DISPLAY") }
        #expect(throws: ICalError(line: 2, "TRIGGER:soon: a duration before or after (-PT15M, PT0S, -P1D)")) { try Self.alarm("TRIGGER:soon") }
        #expect(throws: ICalError(line: 3, "REPEAT:1000000: from 0 to 100, with a DURATION between the reminders")) {
            try Self.alarm("TRIGGER:-PT5M", "REPEAT:1000000", "DURATION:PT1M")
        }
        #expect(throws: ICalError(line: 3, "REPEAT:3: from 0 to 100, with a DURATION between the reminders")) { try Self.alarm("TRIGGER:-PT5M", "REPEAT:3") }
    }

    @Test func theTeamCalendarsRemindersOfAWeekAreEachStandUpsTenMinutesBefore() throws {
        let text = try String(contentsOf: CalendarOccurrencesTests.fixtures.appendingPathComponent("team.ics"), encoding: .utf8)
        let entries = try ICalendarText.read(text)[0].components.filter { $0.name == "VEVENT" }.map { try CalendarEntry($0) }
        let reminders = CalendarOccurrences(zone: CalendarOccurrencesTests.zone, home: Self.paris)
            .reminders(from: Self.moment("2026-11-16T00:00:00Z"), before: Self.moment("2026-11-21T00:00:00Z"), in: entries)
        // Monday to Friday at 09:20 Paris time, but Wednesday's stand-up moved to 11:00 has no alarm of its own.
        #expect(reminders.map { UTCInstant(secondsSinceEpoch: $0.moment).iso }
            == ["2026-11-16T08:20:00Z", "2026-11-17T08:20:00Z", "2026-11-19T08:20:00Z", "2026-11-20T08:20:00Z"])
        #expect(reminders.allSatisfy { $0.alarm.text == "This is an event reminder" && $0.occurrence.entry.summary == "Stand-up" })
    }
}
