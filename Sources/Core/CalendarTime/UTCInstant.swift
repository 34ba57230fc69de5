import FoundationEssentials

/// A moment, to the second, as the APIs carry it: ISO 8601 in UTC on the wire,
/// `2026-11-22T09:30:00Z`, a form that also sorts as text (the databases compare it so).
///
/// It reads any ISO 8601 date-time with a zone (`…+01:00`, `…Z`, with or without fractional
/// seconds, which are dropped); day arithmetic is `CalendarDate`'s.
public struct UTCInstant: Hashable, Comparable, Sendable, TextCoded {
    public let secondsSinceEpoch: Int64

    public init(secondsSinceEpoch: Int64) {
        self.secondsSinceEpoch = secondsSinceEpoch
    }

    /// `date`, to the second below.
    public init(_ date: Date) {
        secondsSinceEpoch = Int64(date.timeIntervalSince1970.rounded(.down))
    }

    public static var now: UTCInstant { UTCInstant(Date()) }

    /// The moment `seconds` into a UTC day.
    public init(day: CalendarDate, seconds: Int = 0) {
        secondsSinceEpoch = Int64(day.daysSinceEpoch) * 86_400 + Int64(seconds)
    }

    /// Parses an ISO 8601 date-time with a zone; nil when it is not one (or names no real day or time).
    public init?(iso text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count >= 20, bytes[10] == UInt8(ascii: "T"), bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
              let day = CalendarDate(iso: String(decoding: bytes[0..<10], as: UTF8.self)),
              let hour = Self.number(bytes, 11..<13), let minute = Self.number(bytes, 14..<16), let second = Self.number(bytes, 17..<19),
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
        let offset: Int
        if zone.elementsEqual("Z".utf8) {
            offset = 0
        } else if zone.count == 6, zone.first == UInt8(ascii: "+") || zone.first == UInt8(ascii: "-"),
                  bytes[index + 3] == UInt8(ascii: ":"),
                  let hours = Self.number(bytes, index + 1..<index + 3), let minutes = Self.number(bytes, index + 4..<index + 6),
                  hours < 24, minutes < 60 {
            offset = (zone.first == UInt8(ascii: "+") ? 1 : -1) * (hours * 3600 + minutes * 60)
        } else {
            return nil
        }
        self.init(day: day, seconds: hour * 3600 + minute * 60 + second - offset)
    }

    /// Its UTC day.
    public var day: CalendarDate {
        CalendarDate(daysSinceEpoch: Int(secondsSinceEpoch.floorDivided(by: 86_400).0))
    }

    /// Seconds since its UTC day began, 0..<86 400.
    public var secondsIntoDay: Int {
        Int(secondsSinceEpoch.floorDivided(by: 86_400).1)
    }

    public func adding(seconds: Int64) -> UTCInstant {
        UTCInstant(secondsSinceEpoch: secondsSinceEpoch + seconds)
    }

    /// `YYYY-MM-DDTHH:MM:SSZ`.
    public var iso: String {
        let time = secondsIntoDay
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(day.iso)T\(two(time / 3600)):\(two(time / 60 % 60)):\(two(time % 60))Z"
    }

    public var description: String { iso }

    public static func < (lhs: UTCInstant, rhs: UTCInstant) -> Bool {
        lhs.secondsSinceEpoch < rhs.secondsSinceEpoch
    }

    public static func parse(_ text: String) -> Self? { UTCInstant(iso: text) }
    public static let expected = "an ISO 8601 date-time like 2026-11-22T09:30:00Z"

    private static func number(_ bytes: [UInt8], _ range: Range<Int>) -> Int? {
        var value = 0
        for byte in bytes[range] {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }
}

/// `"2026-11-22T09:30:00Z"` in code.
extension UTCInstant: ExpressibleByStringLiteral {}
