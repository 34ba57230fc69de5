import CalendarTime
import HummingbirdTesting
import ServerAPI
import TestSupport
import Testing

/// `GET /api/calendar/reminders`: the moments an event's alarms go off, of each instance, on
/// both engines; the caller's alone; paged; bounded.
@Suite("BFF reminders")
struct RemindersTests {
    static let calendar = """
        BEGIN:VCALENDAR\r
        VERSION:2.0\r
        PRODID:-//test//EN\r
        BEGIN:VEVENT\r
        UID:standup\r
        DTSTAMP:20261101T000000Z\r
        SUMMARY:Stand-up\r
        LOCATION:Room 4\r
        DTSTART;TZID=Europe/Paris:20261123T090000\r
        DURATION:PT15M\r
        RRULE:FREQ=WEEKLY;BYDAY=MO;COUNT=3\r
        BEGIN:VALARM\r
        ACTION:DISPLAY\r
        TRIGGER:-PT15M\r
        DESCRIPTION:Stand-up\r
        END:VALARM\r
        END:VEVENT\r
        BEGIN:VEVENT\r
        UID:standup\r
        DTSTAMP:20261101T000000Z\r
        RECURRENCE-ID;TZID=Europe/Paris:20261130T090000\r
        SUMMARY:Stand-up (moved)\r
        DTSTART;TZID=Europe/Paris:20261130T100000\r
        DURATION:PT15M\r
        BEGIN:VALARM\r
        ACTION:DISPLAY\r
        TRIGGER:-PT5M\r
        END:VALARM\r
        END:VEVENT\r
        BEGIN:VEVENT\r
        UID:dentist\r
        DTSTAMP:20261101T000000Z\r
        SUMMARY:Dentist\r
        DTSTART:20261125T140000Z\r
        DTEND:20261125T150000Z\r
        BEGIN:VALARM\r
        ACTION:DISPLAY\r
        TRIGGER;RELATED=END:PT0S\r
        DESCRIPTION:Pay at the desk\r
        END:VALARM\r
        BEGIN:VALARM\r
        ACTION:DISPLAY\r
        TRIGGER;VALUE=DATE-TIME:20261124T180000Z\r
        END:VALARM\r
        END:VEVENT\r
        BEGIN:VEVENT\r
        UID:holiday\r
        DTSTAMP:20261101T000000Z\r
        SUMMARY:Holiday\r
        DTSTART;VALUE=DATE:20261201\r
        BEGIN:VALARM\r
        ACTION:DISPLAY\r
        TRIGGER:-P1D\r
        REPEAT:2\r
        DURATION:PT5M\r
        END:VALARM\r
        END:VEVENT\r
        BEGIN:VEVENT\r
        UID:quiet\r
        DTSTAMP:20261101T000000Z\r
        SUMMARY:No reminder\r
        DTSTART:20261126T100000Z\r
        DTEND:20261126T110000Z\r
        END:VEVENT\r
        END:VCALENDAR\r

        """

    @Test("each instance's alarms, before or after its start or end or at a moment, repeated, a changed instance's own; by moment")
    func remindersOfARange() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addUsers("ann", "bob")
        try await harness.withServer { client in
            let ann = try await client.token(for: "ann")
            #expect(try await client.importCalendar(Self.calendar, token: ann).added == 4)
            let all = try await client.reminders(from: "2026-11-20", to: "2026-12-10", token: ann)
            #expect(all.map { "\($0.at.iso) \($0.title)" } == [
                "2026-11-23T07:45:00Z Stand-up",
                "2026-11-24T18:00:00Z Dentist",
                "2026-11-25T15:00:00Z Dentist",
                "2026-11-30T00:00:00Z Holiday",
                "2026-11-30T00:05:00Z Holiday",
                "2026-11-30T00:10:00Z Holiday",
                "2026-11-30T08:55:00Z Stand-up (moved)",
                "2026-12-07T07:45:00Z Stand-up",
            ])
            let first = try #require(all.first)
            #expect(first.start.iso == "2026-11-23T08:00:00Z" && first.end.iso == "2026-11-23T08:15:00Z")
            #expect(first.instanceStart?.iso == "2026-11-23T08:00:00Z" && first.location == "Room 4" && first.text == nil)
            #expect(all[2].text == "Pay at the desk")
            #expect(all[1].start.iso == "2026-11-25T14:00:00Z" && all[1].end.iso == "2026-11-25T15:00:00Z")
            #expect(all[6].instanceStart?.iso == "2026-11-30T08:00:00Z" && all[6].start.iso == "2026-11-30T09:00:00Z")
            #expect(all[3].allDay)

            // Page by page, the same; a range's end is its own (an alarm a day before an event
            // after it is found).
            #expect(try await client.reminders(from: "2026-11-20", to: "2026-12-10", limit: 3, token: ann) == all)
            #expect(try await client.reminders(from: "2026-11-29T12:00:00Z", to: "2026-11-30T00:05:00Z", token: ann).count == 2)

            // Nobody else's; a range longer than a month is refused, naming `to`.
            let bob = try await client.token(for: "bob")
            #expect(try await client.reminders(from: "2026-11-20", to: "2026-12-10", token: bob).isEmpty)
            let long = try await client.send(.get, APIPath.calendarReminders + "?from=2026-11-01&to=2027-01-01", token: ann)
            #expect(long.status == .badRequest && long.apiError?.field == "to")
            // One end alone is a day: up to `to`.
            let upTo = try await client.send(.get, APIPath.calendarReminders + "?to=2026-11-25T15:00:00Z", token: ann)
            #expect(try upTo.decode(Page<CalendarReminder>.self).items.map(\.at.iso) == ["2026-11-24T18:00:00Z", "2026-11-25T15:00:00Z"])
        }
    }

    @Test("an alarm on a rule every second is paged through the range, in bounded time")
    func aReminderEverySecond() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addUsers("ann")
        try await harness.withServer { client in
            let ann = try await client.token(for: "ann")
            let flood = "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:flood\r\nDTSTAMP:20261101T000000Z\r\nSUMMARY:flood\r\n"
                + "DTSTART:20261101T000000Z\r\nRRULE:FREQ=SECONDLY\r\nBEGIN:VALARM\r\nTRIGGER:-PT1S\r\nEND:VALARM\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
            #expect(try await client.importCalendar(flood, token: ann).added == 1)
            let clock = ContinuousClock()
            let started = clock.now
            let minutes = try await client.reminders(from: "2026-11-20T10:00:00Z", to: "2026-11-20T10:04:59Z", token: ann)
            #expect(minutes.count == 300)
            #expect(Set(minutes.map(\.at)).count == 300)
            #expect(clock.now - started < .seconds(10))
            // A page starts at its cursor, not where the range does: three hours are more
            // instances than one walk takes.
            let late = try await client.send(.get, APIPath.calendarReminders + "?from=2026-11-20T10:00:00Z&to=2026-11-20T13:00:00Z"
                                             + "&cursor=2026-11-20T12:58:20Z~\(try #require(minutes.first?.id))", token: ann)
            #expect(try late.decode(Page<CalendarReminder>.self).items.first?.at.iso == "2026-11-20T12:58:21Z")
        }
    }

    @Test("an event made with reminders has them as display alarms: listed with the event, going off for each instance; a wrong one is 400 naming reminders")
    func remindersOfANewEvent() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addUsers("ann")
        try await harness.withServer { client in
            let ann = try await client.token(for: "ann")
            let new = NewCalendarEvent(title: "Stand-up", start: "2026-11-23T09:00:00+01:00", end: "2026-11-23T09:15:00+01:00",
                                       recurrence: "FREQ=WEEKLY;COUNT=2", timeZone: "Europe/Paris", reminders: [10, 0, 10])
            let created = try await client.send(.post, APIPath.calendarEvents, token: ann, json: new)
            #expect(created.status == .created)
            #expect(try created.decode(CalendarEvent.self).reminders == [10, 0])
            #expect(try await client.instances(from: "2026-11-23", to: "2026-11-30", token: ann).map(\.reminders) == [[10, 0], [10, 0]])
            #expect(try await client.reminders(from: "2026-11-23", to: "2026-12-01", token: ann).map(\.at.iso)
                == ["2026-11-23T07:50:00Z", "2026-11-23T08:00:00Z", "2026-11-30T07:50:00Z", "2026-11-30T08:00:00Z"])
            for wrong in [[-1], [40_321], Array(1...11)] {
                var bad = new
                bad.reminders = wrong
                let refused = try await client.send(.post, APIPath.calendarEvents, token: ann, json: bad)
                #expect(refused.status == .badRequest && refused.apiError?.field == "reminders", "\(wrong)")
            }
        }
    }
}

extension TestClientProtocol {
    /// Every reminder going off within `from`…`to`, page by page.
    func reminders(from: String, to: String, limit: Int? = nil, token: String) async throws -> [CalendarReminder] {
        try await everyPage(of: APIPath.calendarReminders + "?from=\(from)&to=\(to)" + (limit.map { "&limit=\($0)" } ?? ""), token: token)
    }
}
