import CalendarTime
import Recurrence
import Testing

/// RFC 5545's own examples (section 3.8.5.3), each with the instances the RFC lists. Their
/// `DTSTART` is in America/New_York; a `UNTIL` in UTC is read here on the event's clock, which
/// moves no instance of these examples.
@Suite("RFC 5545's examples of repetition")
struct RFC5545ExamplesTests {
    struct Example: CustomTestStringConvertible, Sendable {
        let title: String
        let start: String
        let rule: String
        let expected: [String]
        /// Only the first instances are listed (the rule goes on): compare those.
        var openEnded = false

        var testDescription: String { title }
    }

    static let examples: [Example] = [
        Example(title: "daily for 10 occurrences", start: "1997-09-02T09:00:00", rule: "FREQ=DAILY;COUNT=10",
                expected: (2...11).map { "1997-09-\($0 < 10 ? "0" : "")\($0)T09:00:00" }),
        Example(title: "every 10 days, 5 occurrences", start: "1997-09-02T09:00:00", rule: "FREQ=DAILY;INTERVAL=10;COUNT=5",
                expected: ["1997-09-02", "1997-09-12", "1997-09-22", "1997-10-02", "1997-10-12"].map { "\($0)T09:00:00" }),
        Example(title: "weekly for 10 occurrences", start: "1997-09-02T09:00:00", rule: "FREQ=WEEKLY;COUNT=10",
                expected: ["1997-09-02", "1997-09-09", "1997-09-16", "1997-09-23", "1997-09-30", "1997-10-07", "1997-10-14", "1997-10-21",
                           "1997-10-28", "1997-11-04"].map { "\($0)T09:00:00" }),
        Example(title: "every other week on Monday, Wednesday and Friday until 24 December 1997", start: "1997-09-01T09:00:00",
                rule: "FREQ=WEEKLY;INTERVAL=2;UNTIL=19971224T000000Z;WKST=SU;BYDAY=MO,WE,FR",
                expected: ["1997-09-01", "1997-09-03", "1997-09-05", "1997-09-15", "1997-09-17", "1997-09-19", "1997-09-29", "1997-10-01",
                           "1997-10-03", "1997-10-13", "1997-10-15", "1997-10-17", "1997-10-27", "1997-10-29", "1997-10-31", "1997-11-10",
                           "1997-11-12", "1997-11-14", "1997-11-24", "1997-11-26", "1997-11-28", "1997-12-08", "1997-12-10", "1997-12-12",
                           "1997-12-22"].map { "\($0)T09:00:00" }),
        Example(title: "weekly on Tuesday and Thursday for five weeks", start: "1997-09-02T09:00:00", rule: "FREQ=WEEKLY;COUNT=10;WKST=SU;BYDAY=TU,TH",
                expected: ["1997-09-02", "1997-09-04", "1997-09-09", "1997-09-11", "1997-09-16", "1997-09-18", "1997-09-23", "1997-09-25",
                           "1997-09-30", "1997-10-02"].map { "\($0)T09:00:00" }),
        Example(title: "monthly on the first Friday for 10 occurrences", start: "1997-09-05T09:00:00", rule: "FREQ=MONTHLY;COUNT=10;BYDAY=1FR",
                expected: ["1997-09-05", "1997-10-03", "1997-11-07", "1997-12-05", "1998-01-02", "1998-02-06", "1998-03-06", "1998-04-03",
                           "1998-05-01", "1998-06-05"].map { "\($0)T09:00:00" }),
        Example(title: "every other month on the first and last Sunday for 10 occurrences", start: "1997-09-07T09:00:00",
                rule: "FREQ=MONTHLY;INTERVAL=2;COUNT=10;BYDAY=1SU,-1SU",
                expected: ["1997-09-07", "1997-09-28", "1997-11-02", "1997-11-30", "1998-01-04", "1998-01-25", "1998-03-01", "1998-03-29",
                           "1998-05-03", "1998-05-31"].map { "\($0)T09:00:00" }),
        Example(title: "monthly on the second-to-last Monday for 6 months", start: "1997-09-22T09:00:00", rule: "FREQ=MONTHLY;COUNT=6;BYDAY=-2MO",
                expected: ["1997-09-22", "1997-10-20", "1997-11-17", "1997-12-22", "1998-01-19", "1998-02-16"].map { "\($0)T09:00:00" }),
        Example(title: "monthly on the third-to-the-last day", start: "1997-09-28T09:00:00", rule: "FREQ=MONTHLY;BYMONTHDAY=-3",
                expected: ["1997-09-28", "1997-10-29", "1997-11-28", "1997-12-29", "1998-01-29", "1998-02-26"].map { "\($0)T09:00:00" },
                openEnded: true),
        Example(title: "monthly on the 2nd and 15th for 10 occurrences", start: "1997-09-02T09:00:00", rule: "FREQ=MONTHLY;COUNT=10;BYMONTHDAY=2,15",
                expected: ["1997-09-02", "1997-09-15", "1997-10-02", "1997-10-15", "1997-11-02", "1997-11-15", "1997-12-02", "1997-12-15",
                           "1998-01-02", "1998-01-15"].map { "\($0)T09:00:00" }),
        Example(title: "yearly in June and July for 10 occurrences", start: "1997-06-10T09:00:00", rule: "FREQ=YEARLY;COUNT=10;BYMONTH=6,7",
                expected: (1997...2001).flatMap { ["\($0)-06-10T09:00:00", "\($0)-07-10T09:00:00"] }),
        Example(title: "every third year on the 1st, 100th and 200th day for 10 occurrences", start: "1997-01-01T09:00:00",
                rule: "FREQ=YEARLY;INTERVAL=3;COUNT=10;BYYEARDAY=1,100,200",
                expected: ["1997-01-01", "1997-04-10", "1997-07-19", "2000-01-01", "2000-04-09", "2000-07-18", "2003-01-01", "2003-04-10",
                           "2003-07-19", "2006-01-01"].map { "\($0)T09:00:00" }),
        Example(title: "every 20th Monday of the year", start: "1997-05-19T09:00:00", rule: "FREQ=YEARLY;BYDAY=20MO",
                expected: ["1997-05-19", "1998-05-18", "1999-05-17"].map { "\($0)T09:00:00" }, openEnded: true),
        Example(title: "Monday of week number 20", start: "1997-05-12T09:00:00", rule: "FREQ=YEARLY;BYWEEKNO=20;BYDAY=MO",
                expected: ["1997-05-12", "1998-05-11", "1999-05-17"].map { "\($0)T09:00:00" }, openEnded: true),
        Example(title: "every Thursday in March", start: "1997-03-13T09:00:00", rule: "FREQ=YEARLY;BYMONTH=3;BYDAY=TH",
                expected: ["1997-03-13", "1997-03-20", "1997-03-27", "1998-03-05", "1998-03-12", "1998-03-19", "1998-03-26", "1999-03-04",
                           "1999-03-11", "1999-03-18", "1999-03-25"].map { "\($0)T09:00:00" }, openEnded: true),
        Example(title: "every Friday the 13th (its start, which is none, left out)", start: "1997-09-02T09:00:00", rule: "FREQ=MONTHLY;BYDAY=FR;BYMONTHDAY=13",
                expected: ["1998-02-13", "1998-03-13", "1998-11-13", "1999-08-13", "2000-10-13"].map { "\($0)T09:00:00" }, openEnded: true),
        Example(title: "the first Saturday after the first Sunday of the month", start: "1997-09-13T09:00:00",
                rule: "FREQ=MONTHLY;BYDAY=SA;BYMONTHDAY=7,8,9,10,11,12,13",
                expected: ["1997-09-13", "1997-10-11", "1997-11-08", "1997-12-13", "1998-01-10", "1998-02-07", "1998-03-07", "1998-04-11",
                           "1998-05-09", "1998-06-13"].map { "\($0)T09:00:00" }, openEnded: true),
        Example(title: "U.S. presidential election day", start: "1996-11-05T09:00:00", rule: "FREQ=YEARLY;INTERVAL=4;BYMONTH=11;BYDAY=TU;BYMONTHDAY=2,3,4,5,6,7,8",
                expected: ["1996-11-05", "2000-11-07", "2004-11-02"].map { "\($0)T09:00:00" }, openEnded: true),
        Example(title: "the third of Tuesday, Wednesday or Thursday into the month, for 3 months", start: "1997-09-04T09:00:00",
                rule: "FREQ=MONTHLY;COUNT=3;BYDAY=TU,WE,TH;BYSETPOS=3",
                expected: ["1997-09-04", "1997-10-07", "1997-11-06"].map { "\($0)T09:00:00" }),
        Example(title: "the second-to-last weekday of the month", start: "1997-09-29T09:00:00", rule: "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-2",
                expected: ["1997-09-29", "1997-10-30", "1997-11-27", "1997-12-30", "1998-01-29", "1998-02-26", "1998-03-30"].map { "\($0)T09:00:00" },
                openEnded: true),
        Example(title: "every 3 hours from 09:00 to 17:00 on one day", start: "1997-09-02T09:00:00", rule: "FREQ=HOURLY;INTERVAL=3;UNTIL=19970902T170000Z",
                expected: ["1997-09-02T09:00:00", "1997-09-02T12:00:00", "1997-09-02T15:00:00"]),
        Example(title: "every 15 minutes for 6 occurrences", start: "1997-09-02T09:00:00", rule: "FREQ=MINUTELY;INTERVAL=15;COUNT=6",
                expected: ["09:00", "09:15", "09:30", "09:45", "10:00", "10:15"].map { "1997-09-02T\($0):00" }),
        Example(title: "every hour and a half for 4 occurrences", start: "1997-09-02T09:00:00", rule: "FREQ=MINUTELY;INTERVAL=90;COUNT=4",
                expected: ["09:00", "10:30", "12:00", "13:30"].map { "1997-09-02T\($0):00" }),
        Example(title: "every 20 minutes from 09:00 to 16:40 every day", start: "1997-09-02T09:00:00",
                rule: "FREQ=DAILY;BYHOUR=9,10,11,12,13,14,15,16;BYMINUTE=0,20,40",
                expected: (9...16).flatMap { hour in [0, 20, 40].map { "1997-09-02T\(hour < 10 ? "0" : "")\(hour):\($0 == 0 ? "00" : "\($0)"):00" } }
                    + ["1997-09-03T09:00:00"], openEnded: true),
        Example(title: "WKST=MO: weekly on Tuesday and Sunday, every other week", start: "1997-08-05T09:00:00", rule: "FREQ=WEEKLY;INTERVAL=2;COUNT=4;BYDAY=TU,SU;WKST=MO",
                expected: ["1997-08-05", "1997-08-10", "1997-08-19", "1997-08-24"].map { "\($0)T09:00:00" }),
        Example(title: "WKST=SU: the same rule, another week start", start: "1997-08-05T09:00:00", rule: "FREQ=WEEKLY;INTERVAL=2;COUNT=4;BYDAY=TU,SU;WKST=SU",
                expected: ["1997-08-05", "1997-08-17", "1997-08-19", "1997-08-31"].map { "\($0)T09:00:00" }),
        Example(title: "a day that does not exist is skipped (30 February)", start: "2007-01-15T09:00:00", rule: "FREQ=MONTHLY;BYMONTHDAY=15,30;COUNT=5",
                expected: ["2007-01-15", "2007-01-30", "2007-02-15", "2007-03-15", "2007-03-30"].map { "\($0)T09:00:00" }),
    ]

    @Test(arguments: examples)
    func expandsAsTheRFCLists(_ example: Example) throws {
        let rule = try RecurrenceRule(parsing: example.rule)
        let start = try #require(Self.moment(example.start))
        let last = try #require(Self.moment("2010-01-01T00:00:00"))
        let found = rule.instances(from: start, in: start...last, limit: example.openEnded ? example.expected.count : 1000).map(\.description)
        #expect(found == example.expected)
    }

    @Test func everyDayInJanuaryForThreeYears() throws {
        let rule = try RecurrenceRule(parsing: "FREQ=YEARLY;UNTIL=20000131T140000Z;BYMONTH=1;BYDAY=SU,MO,TU,WE,TH,FR,SA")
        let start = try #require(Self.moment("1998-01-01T09:00:00"))
        let found = rule.instances(from: start, in: start...(try #require(Self.moment("2010-01-01T00:00:00"))))
        #expect(found.count == 93)
        #expect(found.allSatisfy { $0.date.month == 1 && $0.hour == 9 })
        #expect(found.last?.description == "2000-01-31T09:00:00")
    }

    @Test func dailyUntilTheDayBeforeChristmas() throws {
        let rule = try RecurrenceRule(parsing: "FREQ=DAILY;UNTIL=19971224T000000Z")
        let start = try #require(Self.moment("1997-09-02T09:00:00"))
        let found = rule.instances(from: start, in: start...(try #require(Self.moment("2010-01-01T00:00:00"))))
        #expect(found.count == 113)
        #expect(found.last?.description == "1997-12-23T09:00:00")
    }

    static func moment(_ text: String) -> LocalDateTime? {
        guard let date = CalendarDate(iso: String(text.prefix(10))), text.count == 19 else { return nil }
        let clock = text.suffix(8).split(separator: ":").compactMap { Int($0) }
        guard clock.count == 3 else { return nil }
        return LocalDateTime(date: date, hour: clock[0], minute: clock[1], second: clock[2])
    }
}
