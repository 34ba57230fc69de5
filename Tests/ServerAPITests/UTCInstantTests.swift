import CalendarTime
import Foundation
import ServerAPI
import Testing

@Suite("UTC instants")
struct UTCInstantTests {
    @Test(arguments: [
        ("2026-11-22T09:30:00Z", "2026-11-22T09:30:00Z"),
        ("2026-11-22T09:30:00+01:00", "2026-11-22T08:30:00Z"),
        ("2026-11-22T00:30:00+01:00", "2026-11-21T23:30:00Z"),
        ("2026-12-31T23:30:00-01:00", "2027-01-01T00:30:00Z"),
        ("2026-11-22T09:30:00.123456Z", "2026-11-22T09:30:00Z"),
        ("2024-02-29T12:00:00Z", "2024-02-29T12:00:00Z"),
        ("1969-12-31T23:59:59Z", "1969-12-31T23:59:59Z"),
        ("0001-01-01T00:00:00Z", "0001-01-01T00:00:00Z"),
    ])
    func readsAnyZoneAndWritesUTC(_ text: String, _ utc: String) throws {
        let instant = try #require(UTCInstant(iso: text))
        #expect(instant.iso == utc)
        #expect(UTCInstant(iso: instant.iso) == instant)
    }

    @Test(arguments: [
        "2026-11-22T09:30:00", "2026-11-22 09:30:00Z", "2026-02-30T09:30:00Z", "2026-11-22T24:00:00Z", "2026-11-22T09:60:00Z",
        "2026-11-22T09:30:60Z", "2026-11-22T09:30:00+1:00", "2026-11-22T09:30:00+01:60", "2026-11-22T09:30:00.Z",
        "2026-11-22T09:30:00.1234567890Z", "2025-02-29T00:00:00Z", "+026-11-22T09:30:00Z", "2026-11-22T09:30:00Zjunk", "",
    ])
    func refusesWhatIsNotOne(_ text: String) {
        #expect(UTCInstant(iso: text) == nil)
    }

    @Test func agreesWithFoundationOnEveryDayOfFourHundredYears() throws {
        // 1 Jan 1970 to 31 Dec 2369, a whole Gregorian cycle, one moment a day at a shifting time.
        var seconds: Int64 = 0
        for day in 0..<146_097 {
            seconds = Int64(day) * 86_400 + Int64(day % 86_400)
            let instant = UTCInstant(secondsSinceEpoch: seconds)
            let foundation = Date(timeIntervalSince1970: Double(seconds)).ISO8601Format()
            #expect(instant.iso == foundation)
            if instant.iso != foundation { return }
        }
    }

    @Test func splitsIntoItsDayAndTime() throws {
        let instant = try #require(UTCInstant(iso: "1969-12-31T23:00:00Z"))
        #expect(instant.day == CalendarDate(iso: "1969-12-31"))
        #expect(instant.secondsIntoDay == 23 * 3600)
        #expect(UTCInstant(day: instant.day, seconds: instant.secondsIntoDay) == instant)
        #expect(instant.adding(seconds: 3600).iso == "1970-01-01T00:00:00Z")
        #expect(UTCInstant(iso: "2026-11-22T09:30:00+01:00")! < UTCInstant(iso: "2026-11-22T09:00:00Z")!)
    }

    @Test func travelsAsItsText() throws {
        let instant = try #require(UTCInstant(iso: "2026-11-22T09:30:00Z"))
        #expect(String(decoding: try JSONEncoder().encode([instant]), as: UTF8.self) == #"["2026-11-22T09:30:00Z"]"#)
        #expect(try JSONDecoder().decode([UTCInstant].self, from: Data(#"["2026-11-22T10:30:00+01:00"]"#.utf8)) == [instant])
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([UTCInstant].self, from: Data(#"["tomorrow"]"#.utf8)) }
    }
}
