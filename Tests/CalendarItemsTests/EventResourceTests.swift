@testable import CalendarItems
import CalendarTime
import Foundation
import ICalendar
import Recurrence
import ServerAPI
import Testing

/// An event as the server keeps it: what the database indexes of it, its instances as the API
/// shows them, and its changes of one instance, the following or all, each read back as
/// iCalendar text as a calendar program would.
@Suite("An event's iCalendar resource")
struct EventResourceTests {
    @Sendable static func zone(_ name: String) -> ZoneRules? {
        guard ZoneRules.isZoneName(name), let bytes = FileManager.default.contents(atPath: "/usr/share/zoneinfo/\(name)") else { return nil }
        return try? ZoneRules(tzif: Array(bytes))
    }

    static func resource(_ lines: String) throws -> EventResource {
        let text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:a@example.org\r\nSUMMARY:stand-up\r\n\(lines)END:VEVENT\r\nEND:VCALENDAR\r\n"
        return try EventResource(calendar: ICalendarText.read(text)[0], zones: zone)
    }

    /// A weekly stand-up at 09:00 in Paris, ten of them, the fourth taken out.
    static func standUp() throws -> EventResource {
        try resource("""
            DTSTART;TZID=Europe/Paris:20261102T090000\r
            DTEND;TZID=Europe/Paris:20261102T091500\r
            RRULE:FREQ=WEEKLY;BYDAY=MO;COUNT=10\r
            EXDATE;TZID=Europe/Paris:20261123T090000\r
            X-TEAM-ROOM:4\r

            """)
    }

    static func instant(_ iso: String) -> UTCInstant { UTCInstant(iso: iso)! }

    func starts(_ resource: EventResource, from: String = "2026-10-01T00:00:00Z", to: String = "2027-06-01T00:00:00Z") -> [String] {
        var budget = RecurrenceRule.maximumWork
        return resource.apiEvents(id: 1, from: Self.instant(from), to: Self.instant(to), budget: &budget).map(\.start.iso)
    }

    @Test func theIndexSaysWhereAnEventCanReach() throws {
        let standUp = try Self.standUp().index
        #expect(standUp.start.iso == "2026-11-02T08:00:00Z")
        #expect(standUp.end.iso == "2026-11-02T08:15:00Z")
        #expect(standUp.seriesEnd?.iso == "2027-01-04T08:15:00Z")
        #expect(standUp.repeats)
        #expect(try Self.resource("DTSTART:20261102T090000Z\r\nRRULE:FREQ=DAILY\r\n").index.seriesEnd == nil)
        // A rule without end that never happens after its start ends there, rather than be walked for every range.
        let never = try Self.resource("DTSTART:20261101T000000Z\r\nDURATION:PT1H\r\nRRULE:FREQ=SECONDLY;BYMONTH=2;BYMONTHDAY=30\r\n").index
        #expect(never.seriesEnd?.iso == "2026-11-01T01:00:00Z")
        let once = try Self.resource("DTSTART;VALUE=DATE:20261225\r\n").index
        #expect(once.allDay && once.start.iso == "2026-12-25T00:00:00Z" && once.seriesEnd?.iso == "2026-12-26T00:00:00Z" && !once.repeats)
    }

    @Test func thisOneMovesAloneAndOthersKeepTheirPlace() throws {
        let standUp = try Self.standUp()
        var late = try #require(standUp.apiEvent(id: 1, instance: Self.instant("2026-11-16T08:00:00Z")))
        late.title = "stand-up (late)"
        late.start = Self.instant("2026-11-16T09:30:00Z")
        late.end = Self.instant("2026-11-16T09:45:00Z")
        let changed = try #require(standUp.changingOne(Self.instant("2026-11-16T08:00:00Z"), to: late, stamp: Self.instant("2026-11-28T00:00:00Z")))
        #expect(starts(changed).contains("2026-11-16T09:30:00Z") && !starts(changed).contains("2026-11-16T08:00:00Z"))
        #expect(starts(changed).count == 9)
        // Written as a calendar program writes it: the instance on its own, named by its start on the event's clock.
        let text = changed.text
        #expect(text.contains("RECURRENCE-ID;TZID=Europe/Paris:20261116T090000\r\n"))
        #expect(text.contains("DTSTART;TZID=Europe/Paris:20261116T103000\r\n"))
        #expect(text.contains("X-TEAM-ROOM:4\r\n"))
        // Read back, it is the same event.
        let again = try EventResource(calendar: ICalendarText.read(text)[0], zones: Self.zone)
        #expect(starts(again) == starts(changed))
        // Taken out: an EXDATE, and its change gone.
        let removed = try #require(changed.removingOne(Self.instant("2026-11-16T08:00:00Z")))
        #expect(starts(removed).count == 8)
        #expect(removed.changes.isEmpty)
        #expect(changed.changingOne(Self.instant("2026-11-17T08:00:00Z"), to: late, stamp: Self.instant("2026-11-28T00:00:00Z")) == nil)
    }

    @Test func theFollowingBecomeAnEventOfTheirOwnCountedAsTheRuleCounts() throws {
        let standUp = try Self.standUp()
        let split = Self.instant("2026-12-14T08:00:00Z")
        let before = try #require(standUp.apiEvent(id: 1, instance: split))
        var after = before
        after.start = Self.instant("2026-12-14T08:30:00Z")
        after.end = Self.instant("2026-12-14T08:45:00Z")
        let kept = try #require(standUp.endingBefore(split))
        let following = try #require(standUp.following(split, uid: "b@example.org", to: after, before: before, stamp: Self.instant("2026-11-28T00:00:00Z")))
        // COUNT counts the instance taken out: six before the split, four from it.
        #expect(kept.master?.rule?.end == .count(6))
        #expect(following.master?.rule?.end == .count(4))
        #expect(starts(kept) == ["2026-11-02", "2026-11-09", "2026-11-16", "2026-11-30", "2026-12-07"].map { $0 + "T08:00:00Z" })
        #expect(starts(following) == ["2026-12-14", "2026-12-21", "2026-12-28", "2027-01-04"].map { $0 + "T08:30:00Z" })
        #expect(following.uid == "b@example.org")
        #expect(following.text.contains("X-TEAM-ROOM:4\r\n"))
        // Without a count, the first ends the instant before the split, in UTC as RFC 5545 asks of a zoned start.
        let open = try Self.resource("DTSTART;TZID=Europe/Paris:20261102T090000\r\nRRULE:FREQ=WEEKLY\r\n")
        #expect(try #require(open.endingBefore(split)).master?.component["RRULE"]?.value == "FREQ=WEEKLY;UNTIL=20261214T075959Z")
        // From the first instance on, nothing would be left of the first.
        #expect(standUp.endingBefore(Self.instant("2026-11-02T08:00:00Z")) == nil)
    }

    @Test func allMoveByAsMuchOnTheEventsClockAcrossSummerTime() throws {
        let standUp = try Self.resource("DTSTART;TZID=Europe/Paris:20270301T090000\r\nDTEND;TZID=Europe/Paris:20270301T091500\r\nRRULE:FREQ=WEEKLY;COUNT=6\r\n"
                                         + "EXDATE;TZID=Europe/Paris:20270315T090000\r\n")
        let before = try #require(standUp.apiEvent(id: 1, instance: Self.instant("2027-03-08T08:00:00Z")))
        var after = before
        after.start = Self.instant("2027-03-08T07:45:00Z")
        after.end = Self.instant("2027-03-08T08:00:00Z")
        let moved = try #require(standUp.changingAll(from: before, to: after, stamp: Self.instant("2026-11-28T00:00:00Z")))
        // 08:45 in Paris every week: 07:45 UTC in winter, 06:45 in summer; the instance taken out stays out.
        #expect(starts(moved) == ["2027-03-01T07:45:00Z", "2027-03-08T07:45:00Z", "2027-03-22T07:45:00Z", "2027-03-29T06:45:00Z", "2027-04-05T06:45:00Z"])
        #expect(moved.text.contains("EXDATE;TZID=Europe/Paris:20270315T084500\r\n"))
        // The rule as written is kept as written.
        var renamed = before
        renamed.title = "x"
        #expect(try #require(standUp.changingAll(from: before, to: renamed, stamp: Self.instant("2026-11-28T00:00:00Z"))).master?.component["RRULE"]?.value
            == "FREQ=WEEKLY;COUNT=6")
    }

    @Test func oneBudgetForARequestsWalks() throws {
        let busy = try Self.resource("DTSTART:20260101T000000Z\r\nRRULE:FREQ=MINUTELY;COUNT=100000\r\n")
        var budget = 50_000
        let events = busy.apiEvents(id: 1, from: Self.instant("2026-03-10T00:00:00Z"), to: Self.instant("2026-03-11T00:00:00Z"), budget: &budget)
        #expect(budget <= 0)
        #expect(events.isEmpty)
        var plenty = RecurrenceRule.maximumWork
        #expect(busy.apiEvents(id: 1, from: Self.instant("2026-01-01T00:00:00Z"), to: Self.instant("2026-01-01T00:09:59Z"), budget: &plenty).count == 10)
    }

    @Test func anImportNamesWhatItLeavesOutByLine() throws {
        let large = String(repeating: "x", count: EventLimits.resourceBytes)
        let text = "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:big\r\nDTSTART:20261101T090000Z\r\nDESCRIPTION:\(large)\r\nEND:VEVENT\r\n"
            + "BEGIN:VTODO\r\nUID:t\r\nSUMMARY:fine\r\nEND:VTODO\r\nBEGIN:VEVENT\r\nUID:nostart\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
        let read = CalendarImport(try ICalendarText.read(text), zones: Self.zone)
        #expect(read.events.isEmpty)
        #expect(read.tasks.map(\.uid) == ["t"])
        #expect(read.problems.map(\.line) == [2, 11])
        #expect(read.problems.first?.message.contains("larger than 60 KiB") == true)
    }

    @Test func wordsFromOtherProgramsAreShownAsTheAPIAllows() {
        #expect(EventResource.shown("a\u{1B}[31mb\tc", length: 200) == "a [31mb c")
        #expect(EventResource.shown(" \u{7}\n ", length: 200) == nil)
        #expect(EventResource.shown(String(repeating: "é", count: 300), length: 200)?.count == 200)
        #expect(EventResource.shown("line one\nline two\u{0}", length: 200, lines: true) == "line one\nline two ")
    }
}
