/// ISO 8601 date-times as the calendar API takes them (`2026-11-22T09:30:00+01:00`, `…Z`, with or
/// without fractional seconds) and as it stores and returns them: UTC to the second,
/// `YYYY-MM-DDTHH:MM:SSZ`, so that SQL compares them correctly as text.
enum ISODateTime {
    /// The UTC form of `text`, or nil when it is not a valid date-time with a zone.
    static func utc(_ text: String) -> String? {
        seconds(text).map(format)
    }

    /// Seconds since 1970-01-01T00:00:00Z of a valid date-time with a zone.
    static func seconds(_ text: String) -> Int64? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 20, bytes[10] == UInt8(ascii: "T"), bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
              ISODate.isValid(String(decoding: bytes[0..<10], as: UTF8.self)),
              let year = number(bytes, 0..<4), let month = number(bytes, 5..<7), let day = number(bytes, 8..<10),
              let hour = number(bytes, 11..<13), let minute = number(bytes, 14..<16), let second = number(bytes, 17..<19),
              hour < 24, minute < 60, second < 60
        else { return nil }
        var index = 19
        if bytes[index] == UInt8(ascii: ".") {
            index += 1
            let digits = bytes[index...].prefix { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }.count
            guard (1...9).contains(digits) else { return nil }
            index += digits
        }
        let zone = bytes[index...]
        var offset: Int64 = 0
        if zone.elementsEqual("Z".utf8) {
            offset = 0
        } else if zone.count == 6, zone.first == UInt8(ascii: "+") || zone.first == UInt8(ascii: "-"),
                  bytes[index + 3] == UInt8(ascii: ":"),
                  let hours = number(bytes, index + 1..<index + 3), let minutes = number(bytes, index + 4..<index + 6),
                  hours < 24, minutes < 60 {
            offset = (zone.first == UInt8(ascii: "+") ? 1 : -1) * Int64(hours * 3600 + minutes * 60)
        } else {
            return nil
        }
        let days = daysFromCivil(year: year, month: month, day: day)
        return days * 86_400 + Int64(hour * 3600 + minute * 60 + second) - offset
    }

    /// `YYYY-MM-DDTHH:MM:SSZ` of a moment in seconds since the epoch.
    static func format(_ seconds: Int64) -> String {
        let days = seconds.floorDivided(by: 86_400)
        let time = Int(seconds - days * 86_400)
        let (year, month, day) = civil(fromDays: days)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let yearText = String(repeating: "0", count: max(0, 4 - String(year).count)) + String(year)
        return "\(yearText)-\(two(month))-\(two(day))T\(two(time / 3600)):\(two(time / 60 % 60)):\(two(time % 60))Z"
    }

    private static func number(_ bytes: [UInt8], _ range: Range<Int>) -> Int? {
        var value = 0
        for byte in bytes[range] {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's `days_from_civil`).
    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = y.floorDivided(by: 400)
        let yearOfEra = y - era * 400
        let monthIndex = Int64(month > 2 ? month - 3 : month + 9)
        let dayOfYear = (153 * monthIndex + 2) / 5 + Int64(day) - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The inverse of `daysFromCivil` (`civil_from_days`).
    private static func civil(fromDays days: Int64) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = z.floorDivided(by: 146_097)
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = Int(dayOfYear - (153 * monthIndex + 2) / 5 + 1)
        let month = Int(monthIndex < 10 ? monthIndex + 3 : monthIndex - 9)
        return (Int(yearOfEra + era * 400) + (month <= 2 ? 1 : 0), month, day)
    }
}

extension Int64 {
    /// Division rounding towards negative infinity, for dates before 1970.
    fileprivate func floorDivided(by divisor: Int64) -> Int64 {
        let quotient = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }
}
