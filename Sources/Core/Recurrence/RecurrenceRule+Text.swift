import CalendarTime

/// A rule that cannot be read, naming the part at fault: `BYMONTHDAY=32: a day of the month is 1 to 31 or -31 to -1`.
public struct RecurrenceRuleError: Error, Equatable, CustomStringConvertible {
    public let description: String

    public init(description: String) {
        self.description = description
    }
}

extension RecurrenceRule {
    /// Reads a rule's text (RFC 5545 section 3.3.10), `FREQ=MONTHLY;BYDAY=-1FR;COUNT=10`: parts
    /// in any order, names in any case, each at most once, every number within its bounds.
    public init(parsing text: String) throws(RecurrenceRuleError) {
        var parts: [String: String] = [:]
        for part in text.split(separator: ";") {  // a trailing ";" is common, and harmless
            let pair = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard pair.count == 2, !pair[0].isEmpty else { throw RecurrenceRuleError(description: "\(part): a part is NAME=VALUE") }
            let name = pair[0].uppercased()
            guard parts[name] == nil else { throw RecurrenceRuleError(description: "\(name) is given twice") }
            parts[name] = String(pair[1])
        }
        func fail(_ name: String, _ why: String) -> RecurrenceRuleError {
            RecurrenceRuleError(description: "\(name)=\(parts[name] ?? ""): \(why)")
        }
        func numbers(_ name: String, _ allowed: (Int) -> Bool, _ what: String) throws(RecurrenceRuleError) -> [Int] {
            guard let value = parts[name] else { return [] }
            var result: [Int] = []
            for item in value.split(separator: ",", omittingEmptySubsequences: false) {
                guard let number = Self.integer(item), allowed(number) else { throw fail(name, what) }
                result.append(number)
            }
            parts[name] = nil
            return result
        }

        guard let frequencyText = parts.removeValue(forKey: "FREQ") else {
            throw RecurrenceRuleError(description: "FREQ is missing: a rule says how often (FREQ=DAILY, WEEKLY, MONTHLY, YEARLY, …)")
        }
        guard let frequency = Frequency.allCases.first(where: { $0.name == frequencyText.uppercased() }) else {
            throw RecurrenceRuleError(description: "FREQ=\(frequencyText): one of SECONDLY, MINUTELY, HOURLY, DAILY, WEEKLY, MONTHLY, YEARLY")
        }
        self.init(frequency: frequency)
        if let value = parts["INTERVAL"] {
            guard let number = Self.integer(Substring(value)), (1...Self.maximumInterval).contains(number) else {
                throw fail("INTERVAL", "a whole number from 1 to \(Self.maximumInterval)")
            }
            interval = number
            parts["INTERVAL"] = nil
        }
        switch (parts["COUNT"], parts["UNTIL"]) {
        case (.some, .some):
            throw RecurrenceRuleError(description: "COUNT and UNTIL are both given: a rule ends one way")
        case (.some(let value), nil):
            guard let number = Self.integer(Substring(value)), (1...Self.maximumCount).contains(number) else {
                throw fail("COUNT", "a whole number from 1 to \(Self.maximumCount)")
            }
            end = .count(number)
            parts["COUNT"] = nil
        case (nil, .some(let value)):
            guard let until = Self.until(value) else { throw fail("UNTIL", "a date (20261231) or date-time (20261231T235959Z)") }
            end = .until(until)
            parts["UNTIL"] = nil
        case (nil, nil):
            break
        }
        bySecond = try numbers("BYSECOND", { (0...60).contains($0) }, "seconds are 0 to 60")
        byMinute = try numbers("BYMINUTE", { (0...59).contains($0) }, "minutes are 0 to 59")
        byHour = try numbers("BYHOUR", { (0...23).contains($0) }, "hours are 0 to 23")
        byMonthDay = try numbers("BYMONTHDAY", Self.signed(31), "a day of the month is 1 to 31 or -31 to -1")
        byYearDay = try numbers("BYYEARDAY", Self.signed(366), "a day of the year is 1 to 366 or -366 to -1")
        byWeekNo = try numbers("BYWEEKNO", Self.signed(53), "a week is 1 to 53 or -53 to -1")
        byMonth = try numbers("BYMONTH", { (1...12).contains($0) }, "months are 1 to 12")
        bySetPos = try numbers("BYSETPOS", Self.signed(366), "a position is 1 to 366 or -366 to -1")
        if let value = parts["BYDAY"] {
            for item in value.split(separator: ",", omittingEmptySubsequences: false) {
                guard let day = Self.weekdayNumber(item) else {
                    throw fail("BYDAY", "days are MO, TU, WE, TH, FR, SA or SU, each after an optional position from 1 to 53 or -53 to -1 (2MO, -1FR)")
                }
                byDay.append(day)
            }
            parts["BYDAY"] = nil
        }
        if let value = parts.removeValue(forKey: "WKST") {
            guard let day = Weekday.allCases.first(where: { $0.code == value.uppercased() }) else {
                throw RecurrenceRuleError(description: "WKST=\(value): one of MO, TU, WE, TH, FR, SA, SU")
            }
            weekStart = day
        }
        if let unknown = parts.keys.sorted().first {
            throw RecurrenceRuleError(description: "\(unknown) is not a part of a rule")
        }
        self = withinBounds.rule  // each value once: `BYHOUR=9,9,9,…` is `BYHOUR=9`
        if frequency != .yearly, !byWeekNo.isEmpty {
            throw RecurrenceRuleError(description: "BYWEEKNO is only for FREQ=YEARLY")
        }
        if [.daily, .weekly, .monthly].contains(frequency), !byYearDay.isEmpty {
            throw RecurrenceRuleError(description: "BYYEARDAY is not for FREQ=\(frequency.name)")
        }
        if frequency == .weekly, !byMonthDay.isEmpty {
            throw RecurrenceRuleError(description: "BYMONTHDAY is not for FREQ=WEEKLY")
        }
    }

    /// The rule as text, its parts in RFC 5545's order: `FREQ=WEEKLY;COUNT=10;BYDAY=TU,TH`.
    public var text: String {
        var parts = ["FREQ=\(frequency.name)"]
        if interval != 1 { parts.append("INTERVAL=\(interval)") }
        switch end {
        case .never: break
        case .count(let count): parts.append("COUNT=\(count)")
        case .until(.date(let date)): parts.append("UNTIL=\(date.basic)")
        case .until(.local(let moment)): parts.append("UNTIL=\(moment.basic)")
        case .until(.utc(let moment)): parts.append("UNTIL=\(moment.basic)Z")
        }
        func list(_ name: String, _ values: [Int]) {
            if !values.isEmpty { parts.append("\(name)=" + values.map(String.init).joined(separator: ",")) }
        }
        list("BYSECOND", bySecond)
        list("BYMINUTE", byMinute)
        list("BYHOUR", byHour)
        if !byDay.isEmpty {
            parts.append("BYDAY=" + byDay.map { ($0.ordinal.map(String.init) ?? "") + $0.weekday.code }.joined(separator: ","))
        }
        list("BYMONTHDAY", byMonthDay)
        list("BYYEARDAY", byYearDay)
        list("BYWEEKNO", byWeekNo)
        list("BYMONTH", byMonth)
        list("BYSETPOS", bySetPos)
        if weekStart != .monday { parts.append("WKST=\(weekStart.code)") }
        return parts.joined(separator: ";")
    }

    /// Past these, a rule is a mistake or an attack, not a calendar.
    static let maximumInterval = 10_000
    static let maximumCount = 100_000

    /// A decimal integer with an optional sign, at most six digits (`Int` alone would take `+` and
    /// more digits than any part allows).
    private static func integer(_ text: Substring) -> Int? {
        let digits = text.first == "-" || text.first == "+" ? text.dropFirst() : text
        guard (1...6).contains(digits.count), digits.allSatisfy({ ("0"..."9").contains($0) }), let value = Int(digits) else { return nil }
        return text.first == "-" ? -value : value
    }

    private static func weekdayNumber(_ text: Substring) -> WeekdayNumber? {
        guard text.count >= 2, let weekday = Weekday.allCases.first(where: { $0.code == text.suffix(2).uppercased() }) else { return nil }
        let position = text.dropLast(2)
        guard !position.isEmpty else { return WeekdayNumber(weekday) }
        guard let ordinal = integer(position), (1...53).contains(abs(ordinal)) else { return nil }
        return WeekdayNumber(weekday, ordinal: ordinal)
    }

    /// `20261231`, `20261231T235959` or `20261231T235959Z`.
    static func until(_ text: String) -> Until? {
        if let date = CalendarDate(basic: text) { return .date(date) }
        if text.hasSuffix("Z") { return LocalDateTime(basic: text.dropLast()).map { .utc($0) } }
        return LocalDateTime(basic: text).map { .local($0) }
    }
}
