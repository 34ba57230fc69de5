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
