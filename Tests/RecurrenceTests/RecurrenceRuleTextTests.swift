import CalendarTime
import Recurrence
import Testing

@Suite("A recurrence rule's text")
struct RecurrenceRuleTextTests {
    @Test func readsEveryPartAndWritesThemBackInTheRFCsOrder() throws {
        let rule = try RecurrenceRule(parsing: "byday=2MO,-1FR,SU;freq=monthly;interval=2;until=20261231T235959Z;bymonth=1,6;bysetpos=-1;wkst=SU")
        #expect(rule.frequency == .monthly && rule.interval == 2 && rule.weekStart == .sunday)
        #expect(rule.byDay == [.init(.monday, ordinal: 2), .init(.friday, ordinal: -1), .init(.sunday)])
        #expect(rule.end == .until(.utc(LocalDateTime(date: "2026-12-31", hour: 23, minute: 59, second: 59)!)))
        #expect(rule.text == "FREQ=MONTHLY;INTERVAL=2;UNTIL=20261231T235959Z;BYDAY=2MO,-1FR,SU;BYMONTH=1,6;BYSETPOS=-1;WKST=SU")
        #expect(try RecurrenceRule(parsing: rule.text) == rule)
        #expect(try RecurrenceRule(parsing: "FREQ=DAILY;UNTIL=20261231").end == .until(.date("2026-12-31")))
        #expect(try RecurrenceRule(parsing: "FREQ=YEARLY;BYWEEKNO=-53,1;BYYEARDAY=-366,366;BYMONTHDAY=-31,31;BYHOUR=0,23;BYMINUTE=59;BYSECOND=60").text
            == "FREQ=YEARLY;BYSECOND=60;BYMINUTE=59;BYHOUR=0,23;BYMONTHDAY=-31,31;BYYEARDAY=-366,366;BYWEEKNO=-53,1")
    }

    @Test(arguments: [
        ("", "FREQ is missing: a rule says how often (FREQ=DAILY, WEEKLY, MONTHLY, YEARLY, …)"),
        ("FREQ=FORTNIGHTLY", "FREQ=FORTNIGHTLY: one of SECONDLY, MINUTELY, HOURLY, DAILY, WEEKLY, MONTHLY, YEARLY"),
        ("FREQ=DAILY;FREQ=WEEKLY", "FREQ is given twice"),
        ("FREQ=DAILY;COUNT", "COUNT: a part is NAME=VALUE"),
        ("FREQ=DAILY;COUNT=0", "COUNT=0: a whole number from 1 to 100000"),
        ("FREQ=DAILY;COUNT=9999999999999999999999", "COUNT=9999999999999999999999: a whole number from 1 to 100000"),
        ("FREQ=DAILY;INTERVAL=-1", "INTERVAL=-1: a whole number from 1 to 10000"),
        ("FREQ=DAILY;COUNT=3;UNTIL=20261231", "COUNT and UNTIL are both given: a rule ends one way"),
        ("FREQ=DAILY;UNTIL=20260230", "UNTIL=20260230: a date (20261231) or date-time (20261231T235959Z)"),
        ("FREQ=MONTHLY;BYMONTHDAY=0", "BYMONTHDAY=0: a day of the month is 1 to 31 or -31 to -1"),
        ("FREQ=MONTHLY;BYMONTHDAY=32", "BYMONTHDAY=32: a day of the month is 1 to 31 or -31 to -1"),
        ("FREQ=YEARLY;BYMONTH=13", "BYMONTH=13: months are 1 to 12"),
        ("FREQ=MONTHLY;BYDAY=54MO", "BYDAY=54MO: days are MO, TU, WE, TH, FR, SA or SU, each after an optional position from 1 to 53 or -53 to -1 (2MO, -1FR)"),
        ("FREQ=MONTHLY;BYDAY=MON", "BYDAY=MON: days are MO, TU, WE, TH, FR, SA or SU, each after an optional position from 1 to 53 or -53 to -1 (2MO, -1FR)"),
        ("FREQ=WEEKLY;WKST=XX", "WKST=XX: one of MO, TU, WE, TH, FR, SA, SU"),
        ("FREQ=WEEKLY;X-NAME=1", "X-NAME is not a part of a rule"),
        ("FREQ=MONTHLY;BYWEEKNO=1", "BYWEEKNO is only for FREQ=YEARLY"),
        ("FREQ=WEEKLY;BYMONTHDAY=1", "BYMONTHDAY is not for FREQ=WEEKLY"),
    ])
    func aMistakeIsNamedByItsPart(_ text: String, _ message: String) {
        #expect(throws: RecurrenceRuleError(description: message)) { try RecurrenceRule(parsing: text) }
    }

    @Test func eachValueCountsOnceAndARuleMadeInCodeIsBroughtWithinBounds() throws {
        #expect(try RecurrenceRule(parsing: "FREQ=DAILY;BYHOUR=9,9,9;BYMINUTE=0,30,0").text == "FREQ=DAILY;BYMINUTE=0,30;BYHOUR=9")
        let start = LocalDateTime(date: "2026-11-01", hour: 9, minute: 0)!
        let range = start...LocalDateTime(date: "2026-12-31", hour: 0, minute: 0)!
        // Values no parser would give: no trap, and a list of only impossible values matches nothing.
        #expect(RecurrenceRule(frequency: .daily, byHour: [24]).instances(from: start, in: range).isEmpty)
        #expect(RecurrenceRule(frequency: .yearly, byMonth: [-1, 13]).instances(from: start, in: range).isEmpty)
        #expect(RecurrenceRule(frequency: .monthly, byMonthDay: [Int.min, 0, 15]).instances(from: start, in: range).map(\.date)
            == ["2026-11-15", "2026-12-15"])
        #expect(RecurrenceRule(frequency: .daily, interval: .max).instances(from: start, in: range) == [start])
    }

    @Test func plainAndPositionedWeekdaysAreOneList() throws {
        // Every Monday and the last Wednesday of November 2026 (RFC 5545; dateutil gives none).
        let rule = try RecurrenceRule(parsing: "FREQ=MONTHLY;BYDAY=MO,-1WE")
        let start = LocalDateTime(date: "2026-11-01", hour: 9, minute: 0)!
        #expect(rule.instances(from: start, in: start...LocalDateTime(date: "2026-11-30", hour: 23, minute: 0)!).map(\.date.day) == [2, 9, 16, 23, 25, 30])
    }

    @Test func aStartTheRuleWouldNotGiveIsTheFirstOfItsCount() throws {
        // Sunday 1 November, then Mondays: three in all.
        let set = RecurrenceSet(start: LocalDateTime(date: "2026-11-01", hour: 9, minute: 0)!, rule: try RecurrenceRule(parsing: "FREQ=WEEKLY;BYDAY=MO;COUNT=3"))
        #expect(set.instances(in: set.start...LocalDateTime(date: "2027-01-01", hour: 0, minute: 0)!).map(\.date) == ["2026-11-01", "2026-11-02", "2026-11-09"])
    }

    @Test func aRuleOfEverySecondIsExpandedForTheRangeAskedOnlyAndOfMinutesFromYearsBefore() throws {
        // 31 million candidates a year: the instances asked for come from the range's start, no
        // more than the limit, and nothing before the range is kept.
        let everySecond = try RecurrenceRule(parsing: "FREQ=YEARLY;BYDAY=MO,TU,WE,TH,FR,SA,SU;BYHOUR=" + (0...23).map(String.init).joined(separator: ",")
            + ";BYMINUTE=" + (0...59).map(String.init).joined(separator: ",") + ";BYSECOND=" + (0...59).map(String.init).joined(separator: ","))
        let start = LocalDateTime(date: "2026-01-01", hour: 0, minute: 0)!
        let noon = LocalDateTime(date: "2026-06-01", hour: 12, minute: 0)!
        let found = everySecond.instances(from: start, in: noon...LocalDateTime(date: "2026-12-31", hour: 0, minute: 0)!, limit: 5)
        #expect(found == (0..<5).map { noon.adding(seconds: Int64($0)) })
        // Every 7 minutes since 2020: a day of 2026 has the same grid, walked from near the day.
        let sevenMinutes = try RecurrenceRule(parsing: "FREQ=MINUTELY;INTERVAL=7")
        let since = LocalDateTime(date: "2020-01-01", hour: 0, minute: 0)!
        let day = LocalDateTime(date: "2026-11-30", hour: 0, minute: 0)!...LocalDateTime(date: "2026-11-30", hour: 23, minute: 59, second: 59)!
        let grid = sevenMinutes.instances(from: since, in: day)
        #expect(grid.count >= 205 && grid.allSatisfy { ($0.secondsSinceEpoch - since.secondsSinceEpoch) % 420 == 0 })
        #expect(grid.first.map { $0.secondsSinceEpoch - day.lowerBound.secondsSinceEpoch < 420 } == true)
    }

    @Test func aRuleThatCanNeverHappenEndsAtTheRangesEnd() throws {
        let start = LocalDateTime(date: "2026-01-01", hour: 9, minute: 0)!
        let end = LocalDateTime(date: "2036-01-01", hour: 0, minute: 0)!
        for text in ["FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30", "FREQ=DAILY;BYMONTH=2;BYMONTHDAY=31", "FREQ=HOURLY;INTERVAL=2;BYHOUR=4",
                     "FREQ=MINUTELY;INTERVAL=2;BYMINUTE=1", "FREQ=SECONDLY;BYSECOND=60"] {
            let clock = ContinuousClock()
            let started = clock.now
            #expect(try RecurrenceRule(parsing: text).instances(from: start, in: start...end).isEmpty, "\(text)")
            #expect(clock.now - started < .seconds(5), "\(text)")
        }
    }
}
