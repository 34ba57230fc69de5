import CalendarTime
import Recurrence

/// The zones a calendar's `TZID`s name: the system's tz database's for the names it has (a
/// calendar's own definition of `Europe/Paris` is often years old), else the calendar's own
/// `VTIMEZONE` (Outlook's `W. Europe Standard Time`, a server's `Office Time`), its changes
/// worked out by the recurrence engine from 1900 to 2100.
public struct CalendarZones: Sendable {
    private let database: @Sendable (String) -> ZoneRules?
    private let defined: [String: ZoneRules]

    public init(calendar: ICalComponent, database: @escaping @Sendable (String) -> ZoneRules?) {
        self.database = database
        // Only the definitions the calendar's entries use, each worked out once.
        var used = Set<String>()
        for component in calendar.components where component.name != "VTIMEZONE" {
            for property in component.properties { if let id = property.parameter("TZID") { used.insert(id) } }
        }
        var defined: [String: ZoneRules] = [:]
        for timezone in calendar.components(named: "VTIMEZONE") {
            guard let id = timezone["TZID"]?.value, used.contains(id), defined[id] == nil, database(id) == nil,
                  let rules = Self.rules(of: timezone) else { continue }
            defined[id] = rules
        }
        self.defined = defined
    }

    public func zone(_ id: String) -> ZoneRules? {
        database(id) ?? defined[id]
    }

    /// The years a definition is worked out for: past them, its last offset stays.
    static let years = 1900...2100
    /// Changes of one observance, at most: two a year over `years`, and some to spare.
    static let maximumChanges = 1_000
    /// Observances of one definition, at most: real ones have a few, history included.
    static let maximumObservances = 200

    /// A `VTIMEZONE`'s changes: each `STANDARD` and `DAYLIGHT` observance's onsets (its start,
    /// `RRULE`, `RDATE`), each at its local time on the offset before it (`TZOFFSETFROM`).
    /// Nil for a definition it cannot read.
    static func rules(of timezone: ICalComponent) -> ZoneRules? {
        var changes: [(utc: Int64, offset: Int)] = []
        var earliest: (onset: LocalDateTime, offsetBefore: Int)?
        let first = LocalDateTime(CalendarDate(year: years.lowerBound, month: 1, day: 1)!)
        let last = LocalDateTime(CalendarDate(year: years.upperBound, month: 12, day: 31)!)
        let observances = timezone.components.filter { $0.name == "STANDARD" || $0.name == "DAYLIGHT" }
        guard observances.count <= maximumObservances else { return nil }
        for observance in observances {
            guard let startProperty = observance["DTSTART"], let start = LocalDateTime(basic: startProperty.value),
                  let before = observance["TZOFFSETFROM"].flatMap({ offset($0.value) }), let after = observance["TZOFFSETTO"].flatMap({ offset($0.value) })
            else { return nil }
            var onsets = [start]
            if let rule = observance["RRULE"].flatMap({ try? RecurrenceRule(parsing: $0.value) }), start <= last {
                // An UNTIL in UTC is on the offset before each onset.
                onsets += rule.instances(from: start, in: max(start, first)...last, limit: maximumChanges) { $0.adding(seconds: Int64(before)) }
                    .filter { $0 != start }
            }
            for property in observance.all("RDATE") {
                onsets += property.value.split(separator: ",").compactMap { LocalDateTime(basic: $0) }
            }
            for onset in onsets {
                changes.append((onset.secondsSinceEpoch - Int64(before), after))
                if earliest.map({ onset < $0.onset }) ?? true { earliest = (onset, before) }
            }
        }
        guard let earliest else { return nil }
        return ZoneRules(changes: changes, initialOffset: earliest.offsetBefore)
    }

    /// `+0100`, `-0530`, `+013045`: seconds east of UTC.
    static func offset(_ text: String) -> Int? {
        let characters = Array(text.utf8)
        guard characters.count == 5 || characters.count == 7, characters[0] == UInt8(ascii: "+") || characters[0] == UInt8(ascii: "-"),
              characters.dropFirst().allSatisfy({ (48...57).contains($0) }) else { return nil }
        let digits = characters.dropFirst().map { Int($0 - 48) }
        let seconds = (digits[0] * 10 + digits[1]) * 3600 + (digits[2] * 10 + digits[3]) * 60 + (digits.count == 6 ? digits[4] * 10 + digits[5] : 0)
        guard seconds < 24 * 3600 else { return nil }
        return characters[0] == UInt8(ascii: "-") ? -seconds : seconds
    }
}
