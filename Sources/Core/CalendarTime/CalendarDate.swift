/// A day in the proleptic Gregorian calendar, as a plain value with day arithmetic.
///
/// Conversions use the days-from-civil algorithm (H. Hinnant), so no time zone or locale is involved.
public struct CalendarDate: Hashable, Comparable, Sendable, TextCoded {
    public let year: Int
    public let month: Int
    public let day: Int

    /// - Returns: nil when the day does not exist (e.g. 2026-02-30).
    public init?(year: Int, month: Int, day: Int) {
        guard (1...12).contains(month), (1...Self.daysIn(month: month, year: year)).contains(day) else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// Parses an ISO 8601 date, `2026-11-22`.
    public init?(iso text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              parts.allSatisfy({ $0.allSatisfy { ("0"..."9").contains($0) } }),  // `Int` alone accepts a sign
              let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2])
        else { return nil }
        self.init(year: y, month: m, day: d)
    }

    public init(daysSinceEpoch days: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        day = doy - (153 * mp + 2) / 5 + 1
        month = mp < 10 ? mp + 3 : mp - 9
        year = yoe + era * 400 + (month <= 2 ? 1 : 0)
    }

    /// Days since 1970-01-01.
    public var daysSinceEpoch: Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// ISO weekday: 1 = Monday … 7 = Sunday.
    public var weekday: Int {
        let d = (daysSinceEpoch + 3) % 7  // 1970-01-01 was a Thursday
        return (d < 0 ? d + 7 : d) + 1
    }

    public func adding(days: Int) -> CalendarDate {
        CalendarDate(daysSinceEpoch: daysSinceEpoch + days)
    }

    /// The same day `months` later, clamped to the end of a shorter month.
    public func adding(months: Int) -> CalendarDate {
        let index = year * 12 + (month - 1) + months
        let y = index >= 0 ? index / 12 : (index - 11) / 12
        let m = index - y * 12 + 1
        return CalendarDate(year: y, month: m, day: min(day, Self.daysIn(month: m, year: y)))!
    }

    public var firstOfMonth: CalendarDate { CalendarDate(year: year, month: month, day: 1)! }
    public var daysInMonth: Int { Self.daysIn(month: month, year: year) }

    public static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    public static func isLeap(_ year: Int) -> Bool {
        (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    }

    public static func < (lhs: CalendarDate, rhs: CalendarDate) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    public var iso: String {
        let y = String(year), m = month < 10 ? "0\(month)" : "\(month)", d = day < 10 ? "0\(day)" : "\(day)"
        return "\(String(repeating: "0", count: max(0, 4 - y.count)))\(y)-\(m)-\(d)"
    }

    public var description: String { iso }

    public static func parse(_ text: String) -> Self? { CalendarDate(iso: text) }
    public static let expected = "an ISO 8601 date like 2026-11-22"
}

/// `"2026-11-22"` in code.
extension CalendarDate: ExpressibleByStringLiteral {}
