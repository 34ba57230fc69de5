import CalendarTime
import Foundation
import ICalendar
import TestSupport
import Testing

/// Calendars as programs export them (a web calendar's team calendar with its VTIMEZONE, a
/// desktop program's personal one with LF line ends), their instances over a year against python
/// `icalendar` with dateutil's `rruleset` (`Fixtures/oracle.py`, pinned by `CalendarOracle`): the
/// same events at the same moments, an instance moved on its own, dates taken out and added, a
/// weekly event at 02:30 across the night the clocks skip it, all-day events on 29 February.
@Suite("A calendar's instances against python icalendar and dateutil")
struct CalendarOccurrencesTests {
    static let fixtures = CalendarOracle.fixtures

    @Sendable static func zone(_ name: String) -> ZoneRules? {
        guard ZoneRules.isZoneName(name), let bytes = FileManager.default.contents(atPath: "/usr/share/zoneinfo/\(name)") else { return nil }
        return try? ZoneRules(tzif: Array(bytes))
    }

    @Test(arguments: ["team.ics", "personal.ics", "office.ics"])
    func aYearOfInstancesAgreesWithIcalendarAndDateutil(_ file: String) async throws {
        let text = try String(contentsOf: Self.fixtures.appendingPathComponent(file), encoding: .utf8)
        let calendar = try #require(try ICalendarText.read(text).first)
        let entries = try calendar.components.filter { $0.name == "VEVENT" || $0.name == "VTODO" }.map { try CalendarEntry($0) }
        let home = try #require(Self.zone("Europe/Paris"))
        let from = UTCInstant(iso: "2026-11-01T00:00:00Z")!, to = UTCInstant(iso: "2027-11-01T00:00:00Z")!
        let zones = CalendarZones(calendar: calendar, database: Self.zone)
        let ours = CalendarOccurrences(zone: zones.zone, home: home)
            .starting(from: from.secondsSinceEpoch, before: to.secondsSinceEpoch, in: entries)
            .map { [$0.uid, UTCInstant(secondsSinceEpoch: $0.start).iso] }

        let theirs = try await CalendarOracle.instances(of: Self.fixtures.appendingPathComponent(file), home: "Europe/Paris", from: from.iso, to: to.iso)
        #expect(ours.count > 2)  // a comparison of two empty lists would prove nothing
        #expect(ours == theirs, "first apart: \(zip(ours, theirs).first { $0 != $1 }.map { "\($0) against \($1)" } ?? "counts \(ours.count) and \(theirs.count)")")
    }

    @Test func aLimitCountsTheInstancesOfTheRangeAsked() throws {
        // The range is widened on the entry's clock for its zone's offsets; what that brings in
        // beyond the moments asked for must not use up the limit (a page of a list would miss them).
        let entry = try CalendarEntry(ICalComponent(name: "VEVENT", properties: [
            ICalProperty(name: "UID", value: "s"), ICalProperty(name: "DTSTART", parameters: [ICalParameter(name: "TZID", values: ["Europe/Paris"])],
                                                                value: "20270328T000000"),
            ICalProperty(name: "RRULE", value: "FREQ=SECONDLY"),
        ]))
        var expansion = CalendarOccurrences(zone: Self.zone, home: try #require(Self.zone("UTC")))
        expansion.limit = 5
        // An hour after 01:00 UTC, when Paris goes from 02:00 to 03:00: its clock jumps an hour.
        let from = UTCInstant(iso: "2027-03-28T01:00:00Z")!.secondsSinceEpoch
        let found = expansion.starting(from: from, before: from + 3600, in: [entry]).map(\.start)
        #expect(found == (0..<5).map { from + Int64($0) })
        #expect(expansion.starting(from: from - 99, before: from + 3600, in: [entry]).map(\.start) == (0..<5).map { from - 99 + Int64($0) })
    }

    @Test func theTeamCalendarsInstancesAreWhereItsPeopleExpectThem() throws {
        let text = try String(contentsOf: Self.fixtures.appendingPathComponent("team.ics"), encoding: .utf8)
        let entries = try ICalendarText.read(text)[0].components.filter { $0.name == "VEVENT" }.map { try CalendarEntry($0) }
        let occurrences = CalendarOccurrences(zone: Self.zone, home: try #require(Self.zone("Europe/Paris")))
            .starting(from: UTCInstant(iso: "2026-11-01T00:00:00Z")!.secondsSinceEpoch, before: UTCInstant(iso: "2027-04-01T00:00:00Z")!.secondsSinceEpoch,
                      in: entries)
        func starts(_ uid: String) -> [String] { occurrences.filter { $0.uid == uid }.map { UTCInstant(secondsSinceEpoch: $0.start).iso } }
        // The stand-up moved on 18 November: at 11:00 Paris time, called what its change says.
        let moved = try #require(occurrences.first { $0.uid == "standup-7f3a@example.com" && $0.start == UTCInstant(iso: "2026-11-18T10:00:00Z")!.secondsSinceEpoch })
        #expect(moved.entry.summary == "Stand-up (late, after the review)")
        #expect(!starts("standup-7f3a@example.com").contains("2026-11-18T08:30:00Z"))
        #expect(!starts("standup-7f3a@example.com").contains("2026-12-25T08:30:00Z"))
        // 02:30 on 28 March 2027 does not exist in Paris: the instance is an hour later, 03:30 CEST.
        #expect(starts("backup-window@example.com").contains("2027-03-28T01:30:00Z"))
        #expect(starts("backup-window@example.com").contains("2027-03-21T01:30:00Z"))  // 02:30 CET
    }

    @Test func aZoneOnlyTheCalendarDefinesIsWorkedOutFromItsDefinition() throws {
        let text = try String(contentsOf: Self.fixtures.appendingPathComponent("office.ics"), encoding: .utf8)
        let calendar = try #require(try ICalendarText.read(text).first)
        let zones = CalendarZones(calendar: calendar, database: Self.zone)
        let office = try #require(zones.zone("Office Time"))
        let newYork = try #require(Self.zone("America/New_York"))
        for day in stride(from: 0, to: 3 * 366, by: 5) {
            let moment = UTCInstant(iso: "2026-01-01T12:00:00Z")!.secondsSinceEpoch + Int64(day) * 86_400
            #expect(office.offset(atUTC: moment) == newYork.offset(atUTC: moment), "\(UTCInstant(secondsSinceEpoch: moment))")
        }
        // Europe/Paris is the database's, summer time and all, not the file's one-offset stub.
        #expect(zones.zone("Europe/Paris")?.offset(atUTC: UTCInstant(iso: "2027-07-01T10:30:00Z")!.secondsSinceEpoch) == 7200)
        #expect(CalendarZones(calendar: ICalComponent(name: "VCALENDAR", components: [ICalComponent(name: "VTIMEZONE", properties: [
            ICalProperty(name: "TZID", value: "Broken"),
        ], components: [ICalComponent(name: "STANDARD", properties: [ICalProperty(name: "DTSTART", value: "22000101T000000"),
                                                                     ICalProperty(name: "TZOFFSETFROM", value: "+2500"),
                                                                     ICalProperty(name: "TZOFFSETTO", value: "+0100")])])]),
                              database: Self.zone).zone("Broken") == nil)
    }

    @Test func aRangeThatEndsBeforeItBeginsHasNothingInIt() throws {
        let occurrences = CalendarOccurrences(zone: Self.zone, home: try #require(Self.zone("Europe/Paris")))
        let entry = try CalendarEntry(ICalComponent(name: "VEVENT", properties: [ICalProperty(name: "UID", value: "x"),
                                                                                 ICalProperty(name: "DTSTART", value: "20261130T090000Z")]))
        #expect(occurrences.starting(from: 2_000_000_000, before: 1_000_000_000, in: [entry]).isEmpty)
        #expect(occurrences.reminders(from: 2_000_000_000, before: 1_000_000_000, in: [entry]).isEmpty)
        #expect(occurrences.reminders(from: 0, before: 1, in: [entry], lookAhead: -5).isEmpty)
    }

    @Test func zoneNamesStayInsideTheDatabase() {
        for good in ["Europe/Paris", "America/Argentina/Buenos_Aires", "Etc/GMT+5", "UTC"] { #expect(ZoneRules.isZoneName(good), "\(good)") }
        for bad in ["", "/etc/passwd", "../etc/passwd", "Europe/../../etc/passwd", "Europe//Paris", "Europe/Paris\0", "W. Europe Standard Time"] {
            #expect(!ZoneRules.isZoneName(bad), "\(bad)")
        }
    }
}
