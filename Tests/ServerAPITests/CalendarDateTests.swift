import CalendarTime
import Foundation
import ServerAPI
import Testing

@Suite("Calendar dates")
struct CalendarDateTests {
    func date(_ iso: String) throws -> CalendarDate {
        try #require(CalendarDate(iso: iso), "\(iso) should parse")
    }

    @Test(arguments: ["2026-11-22", "1970-01-01", "2000-02-29", "2024-02-29", "0001-01-01", "0000-03-01", "9999-12-31", "2026-01-09"])
    func isoRoundTrip(text: String) throws {
        let parsed = try date(text)
        #expect(parsed.iso == text)
        #expect(parsed.description == text)
        #expect(CalendarDate(iso: parsed.iso) == parsed)
    }

    @Test func parsedComponents() throws {
        let parsed = try date("2026-11-02")
        #expect((parsed.year, parsed.month, parsed.day) == (2026, 11, 2))
        #expect(CalendarDate(year: 2026, month: 11, day: 2) == parsed)
        #expect(CalendarDate(year: 7, month: 3, day: 4)?.iso == "0007-03-04")
    }

    @Test(arguments: [
        "2026-02-29", "2100-02-29", "1900-02-29", "2026-13-01", "2026-00-10", "2026-04-31", "2026-01-32", "2026-01-00",
        "2026-1-1", "2026-01-1", "26-01-01", "02026-01-01", "2026/01/01", "", "2026-01", "2026-01-01-01",
        "2026-01-01T00:00", " 2026-01-01", "2026-01-01 ", "abcd-ef-gh", "+026-01-01", "2026-+1-01", "2026-01-+1",
    ])
    func invalidDatesAreRejected(text: String) {
        #expect(CalendarDate(iso: text) == nil)
    }

    @Test func componentValidation() {
        #expect(CalendarDate(year: 2024, month: 2, day: 29) != nil)
        #expect(CalendarDate(year: 2000, month: 2, day: 29) != nil)
        #expect(CalendarDate(year: 2026, month: 2, day: 29) == nil)
        #expect(CalendarDate(year: 2026, month: 2, day: 0) == nil)
        #expect(CalendarDate(year: 2026, month: 0, day: 1) == nil)
        #expect(CalendarDate(year: 2026, month: 13, day: 1) == nil)
        #expect(CalendarDate(year: 2026, month: 6, day: 31) == nil)
    }

    @Test func leapYearsAndMonthLengths() {
        #expect(CalendarDate.isLeap(2024))
        #expect(CalendarDate.isLeap(2000))
        #expect(!CalendarDate.isLeap(1900))
        #expect(!CalendarDate.isLeap(2026))
        #expect((1...12).map { CalendarDate.daysIn(month: $0, year: 2026) } == [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31])
        #expect(CalendarDate.daysIn(month: 2, year: 2024) == 29)
    }

    @Test(arguments: [
        ("2026-11-22", 7), ("1970-01-01", 4), ("2000-02-29", 2), ("2000-01-01", 6),
        ("1969-12-31", 3), ("2026-01-01", 4), ("1600-03-01", 3), ("0001-01-01", 1), ("9999-12-31", 5),
    ])
    func weekdayOfKnownDates(text: String, weekday: Int) throws {
        #expect(try date(text).weekday == weekday)
    }

    @Test(arguments: [
        ("1970-01-01", 0), ("1969-12-31", -1), ("2000-01-01", 10957), ("2000-02-29", 11016),
        ("2026-11-22", 20779), ("1600-03-01", -135080), ("0001-01-01", -719162), ("9999-12-31", 2932896),
    ])
    func daysSinceEpochOfKnownDates(text: String, days: Int) throws {
        let parsed = try date(text)
        #expect(parsed.daysSinceEpoch == days)
        #expect(CalendarDate(daysSinceEpoch: days) == parsed)
    }

    @Test func dayByDayWalkMatchesTheCalendar() throws {
        // From 1887-11-12 to 2106-11-24 one day at a time: the day count round-trips, the next day
        // is the calendar's next day, and the weekday steps through 1...7.
        var current = CalendarDate(daysSinceEpoch: -30_000)
        #expect(current.iso == "1887-11-12")
        for days in -30_000..<50_000 {
            try #require(current.daysSinceEpoch == days, "\(current)")
            let next = CalendarDate(daysSinceEpoch: days + 1)
            let expected = current.day < current.daysInMonth
                ? CalendarDate(year: current.year, month: current.month, day: current.day + 1)
                : current.month < 12
                    ? CalendarDate(year: current.year, month: current.month + 1, day: 1)
                    : CalendarDate(year: current.year + 1, month: 1, day: 1)
            try #require(next == expected, "after \(current)")
            try #require(next.weekday == current.weekday % 7 + 1, "after \(current)")
            try #require(current < next)
            current = next
        }
        #expect(current.iso == "2106-11-24")
    }

    @Test func daysSinceEpochRoundTripsOverAWideRange() throws {
        for days in stride(from: -800_000, through: 3_000_000, by: 997) {
            let converted = CalendarDate(daysSinceEpoch: days)
            try #require(converted.daysSinceEpoch == days)
            try #require(CalendarDate(year: converted.year, month: converted.month, day: converted.day) == converted)
        }
    }

    @Test(arguments: [
        ("2026-01-31", 1, "2026-02-01"), ("2026-12-31", 1, "2027-01-01"), ("2024-02-28", 1, "2024-02-29"),
        ("2024-02-29", 1, "2024-03-01"), ("2026-02-28", 1, "2026-03-01"), ("2026-03-01", -1, "2026-02-28"),
        ("1970-01-01", -1, "1969-12-31"), ("2026-11-22", 365, "2027-11-22"), ("2024-01-01", 366, "2025-01-01"),
        ("2026-11-22", -20779, "1970-01-01"), ("2026-11-22", 0, "2026-11-22"), ("2026-11-22", 40, "2027-01-01"),
    ])
    func addingDays(start: String, days: Int, expected: String) throws {
        #expect(try date(start).adding(days: days).iso == expected)
    }

    @Test(arguments: [
        ("2026-01-31", 1, "2026-02-28"), ("2024-01-31", 1, "2024-02-29"), ("2026-05-31", 1, "2026-06-30"),
        ("2026-03-31", -1, "2026-02-28"), ("2026-01-15", -1, "2025-12-15"), ("2026-01-15", -13, "2024-12-15"),
        ("2026-11-22", 2, "2027-01-22"), ("2026-11-22", 12, "2027-11-22"), ("2026-11-22", -24, "2024-11-22"),
        ("2024-02-29", 12, "2025-02-28"), ("2024-02-29", 48, "2028-02-29"), ("2026-12-31", 0, "2026-12-31"),
    ])
    func addingMonthsClampsToTheMonthEnd(start: String, months: Int, expected: String) throws {
        #expect(try date(start).adding(months: months).iso == expected)
    }

    @Test func addingMonthsBeforeYearZero() throws {
        let result = try date("0000-01-31").adding(months: -1)
        #expect((result.year, result.month, result.day) == (-1, 12, 31))
        let back = result.adding(months: 14)
        #expect((back.year, back.month, back.day) == (1, 2, 28))
    }

    @Test func monthHelpersAndOrdering() throws {
        let day = try date("2024-02-17")
        #expect(day.firstOfMonth.iso == "2024-02-01")
        #expect(day.daysInMonth == 29)
        #expect(try date("2026-01-31") < date("2026-02-01"))
        #expect(try date("2025-12-31") < date("2026-01-01"))
        #expect(try !(date("2026-01-01") < date("2026-01-01")))
        #expect(try [date("2026-03-01"), date("2025-12-31"), date("2026-01-15")].sorted().map(\.iso)
            == ["2025-12-31", "2026-01-15", "2026-03-01"])
    }

    @Test func codableAsAnISOString() throws {
        let data = try JSONEncoder().encode([date("2026-11-22")])
        #expect(String(decoding: data, as: UTF8.self) == #"["2026-11-22"]"#)
        #expect(try JSONDecoder().decode([CalendarDate].self, from: data) == [date("2026-11-22")])
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode([CalendarDate].self, from: Data(#"["2026-02-30"]"#.utf8))
        }
    }
}
