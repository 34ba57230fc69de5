import CalendarTime

/// A `DATE` or `DATE-TIME` value with what it is relative to (RFC 5545 sections 3.3.4, 3.3.5):
/// a whole day, a wall-clock time anywhere (floating), a UTC time, or a time in a named zone.
public enum ICalDateTime: Hashable, Sendable {
    case date(CalendarDate)
    case floating(LocalDateTime)
    case utc(LocalDateTime)
    case zoned(LocalDateTime, zone: String)

    /// Reads a property's value with its `VALUE` and `TZID` parameters: `DTSTART;TZID=Europe/Paris:20261130T090000`.
    public init(_ property: ICalProperty) throws(ICalError) {
        guard let value = Self(value: property.value, isDate: property.parameter("VALUE")?.uppercased() == "DATE", zone: property.parameter("TZID")) else {
            throw ICalError(line: property.line, "\(property.name):\(property.value.prefix(40)): a date (20261130) or date-time (20261130T090000, with Z for UTC)")
        }
        self = value
    }

    /// `20261130`, `20261130T090000`, `20261130T090000Z`; a date-time with a zone unless it is UTC's.
    public init?(value: String, isDate: Bool = false, zone: String? = nil) {
        if let date = CalendarDate(basic: value) {
            self = .date(date)
        } else if isDate {
            return nil
        } else if value.hasSuffix("Z"), let moment = LocalDateTime(basic: value.dropLast()) {
            self = .utc(moment)
        } else if let moment = LocalDateTime(basic: value) {
            self = zone.map { $0.isEmpty ? .floating(moment) : .zoned(moment, zone: $0) } ?? .floating(moment)
        } else {
            return nil
        }
    }

    /// Its wall-clock time (midnight for a day), whatever it is relative to.
    public var clock: LocalDateTime {
        switch self {
        case .date(let date): LocalDateTime(date)
        case .floating(let moment), .utc(let moment), .zoned(let moment, _): moment
        }
    }

    public var isDate: Bool {
        if case .date = self { true } else { false }
    }

    /// The same kind of value at another wall-clock time (a day stays a day).
    public func at(_ clock: LocalDateTime) -> ICalDateTime {
        switch self {
        case .date: .date(clock.date)
        case .floating: .floating(clock)
        case .utc: .utc(clock)
        case .zoned(_, let zone): .zoned(clock, zone: zone)
        }
    }

    /// The property `name` holding this value, with `VALUE=DATE` or `TZID` as it needs.
    public func property(_ name: String) -> ICalProperty {
        switch self {
        case .date(let date):
            ICalProperty(name: name, parameters: [ICalParameter(name: "VALUE", values: ["DATE"])], value: date.basic)
        case .floating(let moment):
            ICalProperty(name: name, value: moment.basic)
        case .utc(let moment):
            ICalProperty(name: name, value: moment.basic + "Z")
        case .zoned(let moment, let zone):
            ICalProperty(name: name, parameters: [ICalParameter(name: "TZID", values: [zone])], value: moment.basic)
        }
    }
}

/// A `DURATION` (RFC 5545 section 3.3.6): `PT1H30M`, `-PT15M`, `P1W`, `P1DT12H`.
public struct ICalDuration: Hashable, Sendable {
    /// Whole days, which are calendar days: a day across a change to summer time is 23 hours.
    public var days: Int
    /// Seconds beyond the days.
    public var seconds: Int
    public var isNegative: Bool

    public init(days: Int = 0, seconds: Int = 0, isNegative: Bool = false) {
        self.days = days
        self.seconds = seconds
        self.isNegative = isNegative
    }

    /// At most this many days: a duration past it is a mistake, and would overflow day arithmetic.
    static let maximumDays = 100 * 366

    public init?(_ text: String) {
        var rest = Substring(text)
        isNegative = rest.first == "-"
        if rest.first == "-" || rest.first == "+" { rest = rest.dropFirst() }
        guard rest.first == "P" else { return nil }
        rest = rest.dropFirst()
        days = 0
        seconds = 0
        var inTime = false
        var sawPart = false
        var timeParts = 0
        while let next = rest.first {
            if next == "T" {
                guard !inTime else { return nil }
                inTime = true
                rest = rest.dropFirst()
                continue
            }
            let digits = rest.prefix { ("0"..."9").contains($0) }
            guard (1...7).contains(digits.count), let number = Int(digits), let unit = rest.dropFirst(digits.count).first else { return nil }
            switch (inTime, unit) {
            case (false, "W"): days += number * 7
            case (false, "D"): days += number
            case (true, "H"): seconds += number * 3600
            case (true, "M"): seconds += number * 60
            case (true, "S"): seconds += number
            default: return nil
            }
            sawPart = true
            if inTime { timeParts += 1 }
            rest = rest.dropFirst(digits.count + 1)
        }
        guard sawPart, !inTime || timeParts > 0, days + seconds / 86_400 <= Self.maximumDays else { return nil }
    }

    /// `PT1H30M`, `-P1D`.
    public var text: String {
        var out = isNegative ? "-P" : "P"
        if days > 0 { out += days % 7 == 0 && seconds == 0 ? "\(days / 7)W" : "\(days)D" }
        if seconds > 0 {
            out += "T"
            if seconds >= 3600 { out += "\(seconds / 3600)H" }
            if seconds % 3600 >= 60 { out += "\(seconds % 3600 / 60)M" }
            if seconds % 60 > 0 { out += "\(seconds % 60)S" }
        }
        if days == 0 && seconds == 0 { out += "T0S" }
        return out
    }

    /// `moment` moved by this duration on its own clock: days as calendar days, then the seconds.
    public func added(to moment: LocalDateTime) -> LocalDateTime {
        let sign = isNegative ? -1 : 1
        let day = LocalDateTime(date: moment.date.adding(days: sign * days), secondsIntoDay: moment.secondsIntoDay)!
        return day.adding(seconds: Int64(sign * seconds))
    }
}
