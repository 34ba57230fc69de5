/// A POSIX `TZ` rule, as the footer of a TZif file gives the years after its last transition:
/// `CET-1CEST,M3.5.0,M10.5.0/3` (standard time an hour east of UTC, summer time from the last
/// Sunday of March at 02:00 to the last Sunday of October at 03:00), `<+0330>-3:30` (no summer
/// time). The sign is POSIX's: west of UTC is positive.
struct PosixZoneRule: Hashable, Sendable {
    /// Seconds east of UTC.
    let standardOffset: Int
    let daylight: Daylight?

    struct Daylight: Hashable, Sendable {
        let offset: Int
        let start: Change
        let end: Change
    }

    /// When a change happens in a year: on a day, at a time of day on the clock in force before it.
    struct Change: Hashable, Sendable {
        enum Day: Hashable, Sendable {
            /// `Jn`: 1…365, 29 February never counted.
            case julian(Int)
            /// `n`: 0…365, 29 February counted.
            case zeroBased(Int)
            /// `Mm.w.d`: the `week`th (5: the last) `weekday` (0 Sunday) of `month`.
            case monthWeekDay(month: Int, week: Int, weekday: Int)
        }

        let day: Day
        /// Seconds after the day's midnight, -167…167 hours (RFC 8536's extension).
        let time: Int

        func date(in year: Int) -> CalendarDate {
            switch day {
            case .julian(let n):
                return CalendarDate(year: year, month: 1, day: 1)!.adding(days: n - 1 + (CalendarDate.isLeap(year) && n >= 60 ? 1 : 0))
            case .zeroBased(let n):
                return CalendarDate(year: year, month: 1, day: 1)!.adding(days: n)
            case .monthWeekDay(let month, let week, let weekday):
                let first = CalendarDate(year: year, month: month, day: 1)!
                let firstMatch = first.adding(days: (weekday - first.weekday % 7 + 7) % 7)
                var date = firstMatch.adding(days: (week - 1) * 7)
                while date.month != month { date = date.adding(days: -7) }
                return date
            }
        }
    }

    /// Seconds east of UTC at the UTC moment `seconds`.
    func offset(atUTC seconds: Int64) -> Int {
        guard let daylight else { return standardOffset }
        let year = LocalDateTime(secondsSinceEpoch: seconds + Int64(standardOffset)).date.year
        let start = Int64(daylight.start.date(in: year).daysSinceEpoch) * 86_400 + Int64(daylight.start.time) - Int64(standardOffset)
        let end = Int64(daylight.end.date(in: year).daysSinceEpoch) * 86_400 + Int64(daylight.end.time) - Int64(daylight.offset)
        let inDaylight = start < end ? (start <= seconds && seconds < end) : (seconds < end || seconds >= start)
        return inDaylight ? daylight.offset : standardOffset
    }

    /// Reads a rule; nil for one it cannot (the last transition's offset then stays).
    init?(_ text: String) {
        var rest = Substring(text)
        guard Self.name(&rest) != nil, let standard = Self.offset(&rest, hours: 0...24) else { return nil }
        standardOffset = -standard
        if rest.isEmpty {
            daylight = nil
            return
        }
        guard Self.name(&rest) != nil else { return nil }
        var daylightOffset = standardOffset + 3600
        if let first = rest.first, first != "," {
            guard let given = Self.offset(&rest, hours: 0...24) else { return nil }
            daylightOffset = -given
        }
        // Without rules, POSIX leaves them to the system; the tz database always gives them.
        guard rest.first == ",", let start = Self.change(&rest), rest.first == ",", let end = Self.change(&rest), rest.isEmpty else { return nil }
        daylight = Daylight(offset: daylightOffset, start: start, end: end)
    }

    private static func name(_ rest: inout Substring) -> Substring? {
        if rest.first == "<" {
            guard let close = rest.firstIndex(of: ">") else { return nil }
            let name = rest[rest.index(after: rest.startIndex)..<close]
            rest = rest[rest.index(after: close)...]
            return name
        }
        let name = rest.prefix { $0.isLetter }
        guard name.count >= 3 else { return nil }
        rest = rest.dropFirst(name.count)
        return name
    }

    /// `[+-]hh[:mm[:ss]]` in seconds.
    private static func offset(_ rest: inout Substring, hours: ClosedRange<Int>) -> Int? {
        var sign = 1
        if rest.first == "+" || rest.first == "-" {
            sign = rest.first == "-" ? -1 : 1
            rest = rest.dropFirst()
        }
        var parts: [Int] = []
        repeat {
            if !parts.isEmpty { rest = rest.dropFirst() }  // the ':'
            let digits = rest.prefix { ("0"..."9").contains($0) }
            guard (1...3).contains(digits.count), let value = Int(digits) else { return nil }
            parts.append(value)
            rest = rest.dropFirst(digits.count)
        } while rest.first == ":" && parts.count < 3
        guard hours.contains(parts[0]), parts.dropFirst().allSatisfy({ $0 < 60 }) else { return nil }
        return sign * (parts[0] * 3600 + (parts.count > 1 ? parts[1] * 60 : 0) + (parts.count > 2 ? parts[2] : 0))
    }

    /// `,Mm.w.d[/time]`, `,Jn[/time]` or `,n[/time]`.
    private static func change(_ rest: inout Substring) -> Change? {
        rest = rest.dropFirst()  // the ','
        let day: Change.Day
        func number() -> Int? {
            let digits = rest.prefix { ("0"..."9").contains($0) }
            guard (1...3).contains(digits.count) else { return nil }
            rest = rest.dropFirst(digits.count)
            return Int(digits)
        }
        switch rest.first {
        case "M":
            rest = rest.dropFirst()
            guard let month = number(), (1...12).contains(month), rest.first == "." else { return nil }
            rest = rest.dropFirst()
            guard let week = number(), (1...5).contains(week), rest.first == "." else { return nil }
            rest = rest.dropFirst()
            guard let weekday = number(), (0...6).contains(weekday) else { return nil }
            day = .monthWeekDay(month: month, week: week, weekday: weekday)
        case "J":
            rest = rest.dropFirst()
            guard let n = number(), (1...365).contains(n) else { return nil }
            day = .julian(n)
        default:
            guard let n = number(), (0...365).contains(n) else { return nil }
            day = .zeroBased(n)
        }
        var time = 7200
        if rest.first == "/" {
            rest = rest.dropFirst()
            guard let given = offset(&rest, hours: 0...167) else { return nil }
            time = given
        }
        return Change(day: day, time: time)
    }
}
