import CalendarTime

/// An iCalendar recurrence rule (RFC 5545 section 3.3.10, `RRULE`), as a value: how often, how many
/// times or until when, and which days, hours and positions within each period. `instances(from:through:)`
/// expands it; `RecurrenceRule(parsing:)` reads the text and `text` writes it back.
public struct RecurrenceRule: Hashable, Sendable {
    /// In the order of their periods' lengths, longest first.
    public enum Frequency: Int, Comparable, Sendable, CaseIterable {
        case yearly, monthly, weekly, daily, hourly, minutely, secondly

        public static func < (lhs: Frequency, rhs: Frequency) -> Bool { lhs.rawValue < rhs.rawValue }

        /// `YEARLY`, `MONTHLY`, …
        public var name: String {
            switch self {
            case .yearly: "YEARLY"
            case .monthly: "MONTHLY"
            case .weekly: "WEEKLY"
            case .daily: "DAILY"
            case .hourly: "HOURLY"
            case .minutely: "MINUTELY"
            case .secondly: "SECONDLY"
            }
        }
    }

    /// A day of the week, Monday first (0) as ISO 8601 counts them.
    public enum Weekday: Int, Comparable, Sendable, CaseIterable {
        case monday, tuesday, wednesday, thursday, friday, saturday, sunday

        public static func < (lhs: Weekday, rhs: Weekday) -> Bool { lhs.rawValue < rhs.rawValue }

        /// `MO`, `TU`, …
        public var code: String { ["MO", "TU", "WE", "TH", "FR", "SA", "SU"][rawValue] }

        /// The weekday of `date`.
        public init(_ date: CalendarDate) {
            self = Weekday(rawValue: date.weekday - 1)!
        }
    }

    /// A `BYDAY` entry: a weekday, or its `ordinal`th within the month or year (`2MO`, `-1FR`).
    public struct WeekdayNumber: Hashable, Sendable {
        public var weekday: Weekday
        /// 1…53 from the start, -1…-53 from the end; nil for every such weekday.
        public var ordinal: Int?

        public init(_ weekday: Weekday, ordinal: Int? = nil) {
            self.weekday = weekday
            self.ordinal = ordinal
        }
    }

    /// `UNTIL`: a day, or a date-time on the event's own clock or in UTC (an event in a time zone
    /// must give UTC; the caller brings it to the event's clock before expanding).
    public enum Until: Hashable, Sendable {
        case date(CalendarDate)
        case local(LocalDateTime)
        case utc(LocalDateTime)
    }

    public enum End: Hashable, Sendable {
        case never
        /// At most this many instances, the first (`DTSTART`'s, when it fits the rule) among them.
        case count(Int)
        case until(Until)
    }

    public var frequency: Frequency
    /// Every `interval`th period: 1 is every one.
    public var interval: Int
    public var end: End
    public var bySecond: [Int]
    public var byMinute: [Int]
    public var byHour: [Int]
    public var byDay: [WeekdayNumber]
    /// 1…31 from the start of the month, -1…-31 from its end.
    public var byMonthDay: [Int]
    /// 1…366 from the start of the year, -1…-366 from its end.
    public var byYearDay: [Int]
    /// ISO-style week numbers, weeks starting on `weekStart`: 1…53, -1…-53.
    public var byWeekNo: [Int]
    public var byMonth: [Int]
    /// Which of each period's instances to keep, in order: 1 the first, -1 the last.
    public var bySetPos: [Int]
    public var weekStart: Weekday

    public init(frequency: Frequency, interval: Int = 1, end: End = .never, bySecond: [Int] = [], byMinute: [Int] = [], byHour: [Int] = [],
                byDay: [WeekdayNumber] = [], byMonthDay: [Int] = [], byYearDay: [Int] = [], byWeekNo: [Int] = [], byMonth: [Int] = [],
                bySetPos: [Int] = [], weekStart: Weekday = .monday) {
        self.frequency = frequency
        self.interval = interval
        self.end = end
        self.bySecond = bySecond
        self.byMinute = byMinute
        self.byHour = byHour
        self.byDay = byDay
        self.byMonthDay = byMonthDay
        self.byYearDay = byYearDay
        self.byWeekNo = byWeekNo
        self.byMonth = byMonth
        self.bySetPos = bySetPos
        self.weekStart = weekStart
    }
}
