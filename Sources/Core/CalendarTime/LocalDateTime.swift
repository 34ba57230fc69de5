/// A day and a time of day on a wall clock, in no zone: an iCalendar DATE-TIME without `Z` or
/// `TZID` ("floating"), or a zoned one before its zone is applied. Repetition is worked out in
/// these (a weekly 09:00 stays at 09:00 across a change to summer time); a zone turns the result
/// into moments.
public struct LocalDateTime: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let date: CalendarDate
    /// Seconds since the day began, 0..<86 400.
    public let secondsIntoDay: Int

    /// - Returns: nil unless `secondsIntoDay` is within the day.
    public init?(date: CalendarDate, secondsIntoDay: Int) {
        guard (0..<86_400).contains(secondsIntoDay) else { return nil }
        self.date = date
        self.secondsIntoDay = secondsIntoDay
    }

    /// - Returns: nil unless the hour, minute and second are on a clock (a leap second's 60 is not).
    public init?(date: CalendarDate, hour: Int, minute: Int, second: Int = 0) {
        guard (0..<24).contains(hour), (0..<60).contains(minute), (0..<60).contains(second) else { return nil }
        self.init(date: date, secondsIntoDay: hour * 3600 + minute * 60 + second)!
    }

    /// Midnight at the start of `date`.
    public init(_ date: CalendarDate) {
        self.date = date
        secondsIntoDay = 0
    }

    public var hour: Int { secondsIntoDay / 3600 }
    public var minute: Int { secondsIntoDay / 60 % 60 }
    public var second: Int { secondsIntoDay % 60 }

    /// Seconds since 1970-01-01T00:00:00 on this clock.
    public var secondsSinceEpoch: Int64 { Int64(date.daysSinceEpoch) * 86_400 + Int64(secondsIntoDay) }

    public init(secondsSinceEpoch seconds: Int64) {
        let (days, rest) = seconds.floorDivided(by: 86_400)
        date = CalendarDate(daysSinceEpoch: Int(days))
        secondsIntoDay = Int(rest)
    }

    public func adding(seconds: Int64) -> LocalDateTime {
        LocalDateTime(secondsSinceEpoch: secondsSinceEpoch + seconds)
    }

    public static func < (lhs: LocalDateTime, rhs: LocalDateTime) -> Bool {
        (lhs.date, lhs.secondsIntoDay) < (rhs.date, rhs.secondsIntoDay)
    }

    /// `2026-11-22T09:30:00`.
    public var description: String {
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(date.iso)T\(two(hour)):\(two(minute)):\(two(second))"
    }
}

/// iCalendar's basic forms (RFC 5545 sections 3.3.4 and 3.3.5): `20261130` and `20261130T090000`.
extension CalendarDate {
    /// `20261130`; nil unless it is eight digits naming a real day.
    public init?(basic text: some StringProtocol) {
        let digits = Array(text.utf8)
        guard digits.count == 8, let year = Self.number(digits[0..<4]), let month = Self.number(digits[4..<6]),
              let day = Self.number(digits[6..<8]) else { return nil }
        self.init(year: year, month: month, day: day)
    }

    public var basic: String { String(iso.filter { $0 != "-" }) }

    static func number(_ digits: ArraySlice<UInt8>) -> Int? {
        guard digits.allSatisfy({ (48...57).contains($0) }) else { return nil }
        return digits.reduce(0) { $0 * 10 + Int($1 - 48) }
    }
}

extension LocalDateTime {
    /// `20261130T090000`; a leap second's `60` is read as the second before it, and nothing past it.
    public init?(basic text: some StringProtocol) {
        let characters = Array(text.utf8)
        guard characters.count == 15, characters[8] == UInt8(ascii: "T"), let date = CalendarDate(basic: text.prefix(8)),
              let hour = CalendarDate.number(characters[9..<11]), let minute = CalendarDate.number(characters[11..<13]),
              let second = CalendarDate.number(characters[13..<15]), second <= 60
        else { return nil }
        self.init(date: date, hour: hour, minute: minute, second: min(second, 59))
    }

    public var basic: String { String(description.filter { $0 != "-" && $0 != ":" }) }
}
