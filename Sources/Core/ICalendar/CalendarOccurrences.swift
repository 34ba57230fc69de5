import CalendarTime
import Recurrence

/// One instance of an event or a task, as moments.
public struct Occurrence: Hashable, Sendable {
    public let uid: String
    /// Seconds since 1970 UTC (a floating or all-day entry's on the clock of the calendar's zone).
    public let start: Int64
    public let end: Int64
    public let isAllDay: Bool
    /// The start the rule gives this instance, on the entry's own clock: its `RECURRENCE-ID`;
    /// nil for an entry that does not repeat.
    public let recurrenceID: LocalDateTime?
    /// The moment `recurrenceID` names (seconds since 1970 UTC): which instance this is, wherever
    /// a change moved it.
    public let originalStart: Int64?
    /// The entry it is of: an instance changed on its own is its own entry.
    public let entry: CalendarEntry
}

/// The instances of a calendar's events and tasks that start within a range: each repeating
/// entry's set (its start, `RRULE`, `RDATE`, less `EXDATE`) on its own clock, instances changed on
/// their own (`RECURRENCE-ID`) in place of those the rule gives, all turned into moments by their
/// zones.
public struct CalendarOccurrences {
    /// A zone by its `TZID`; nil for one the system's database does not have.
    public let zone: (String) -> ZoneRules?
    /// The calendar's own zone, for floating and all-day entries and for unknown `TZID`s.
    public let home: ZoneRules
    /// At most this many instances of one entry in a range.
    public var limit = 10_000

    public init(zone: @escaping (String) -> ZoneRules?, home: ZoneRules) {
        self.zone = zone
        self.home = home
    }

    /// The instances of `entries` starting at or after `from` and before `to` (seconds since 1970
    /// UTC), ordered by start.
    public func starting(from: Int64, before to: Int64, in entries: [CalendarEntry]) -> [Occurrence] {
        var budget = RecurrenceRule.maximumWork * max(1, entries.count)
        return starting(from: from, before: to, in: entries, budget: &budget)
    }

    /// As `starting(from:before:in:)`, the rules' walks spending at most `budget` in all (see
    /// `RecurrenceRule`'s): one budget for a calendar's many events.
    public func starting(from: Int64, before to: Int64, in entries: [CalendarEntry], budget: inout Int) -> [Occurrence] {
        guard from < to else { return [] }
        var found: [Occurrence] = []
        let changed = Dictionary(grouping: entries.filter { $0.recurrenceID != nil }, by: \.uid)
        for entry in entries where entry.recurrenceID == nil {
            guard let start = entry.start else { continue }
            let rules = self.rules(of: start)
            let clockStart = start.clock
            let length = self.length(of: entry, rules: rules)
            // Changed instances, by the start the rule gives them on this entry's clock.
            var replaced: [LocalDateTime: CalendarEntry] = [:]
            for change in changed[entry.uid] ?? [] {
                if let id = change.recurrenceID { replaced[clock(of: id, on: rules)] = change }
            }
            let set = RecurrenceSet(start: clockStart, rule: entry.rule, added: entry.added.map { clock(of: $0, on: rules) },
                                    removed: entry.removed.map { clock(of: $0, on: rules) })
            let repeats = entry.rule != nil || !entry.added.isEmpty
            let onClock = repeats ? instances(of: set, rules: rules, from: from, before: to, leavingOut: replaced, budget: &budget)
                : (from..<to).contains(rules.utc(of: clockStart)) ? [clockStart] : []
            for instance in onClock {
                found.append(Occurrence(uid: entry.uid, start: rules.utc(of: instance), end: end(of: instance, length: length, rules: rules),
                                        isAllDay: start.isDate, recurrenceID: repeats ? instance : nil,
                                        originalStart: repeats ? rules.utc(of: instance) : nil, entry: entry))
            }
            for (id, change) in replaced {
                guard let changeStart = change.start else { continue }
                let changeRules = self.rules(of: changeStart)
                let moment = changeRules.utc(of: changeStart.clock)
                guard moment >= from, moment < to else { continue }
                found.append(Occurrence(uid: entry.uid, start: moment,
                                        end: end(of: changeStart.clock, length: self.length(of: change, rules: changeRules), rules: changeRules),
                                        isAllDay: changeStart.isDate, recurrenceID: id, originalStart: rules.utc(of: id), entry: change))
            }
        }
        return found.sorted { ($0.start, $0.uid) < ($1.start, $1.uid) }
    }

    /// The first `limit` instances of `set` whose moments are at or after `from` and before `to`,
    /// those changed on their own (`replaced`) left out. The range is brought to the entry's clock
    /// with the offsets its zone has near its ends; where they differ, the instances the range
    /// then holds beyond the moments asked for may use up the expansion's limit, and the walk goes
    /// on from the last.
    private func instances(of set: RecurrenceSet, rules: ZoneRules, from: Int64, before to: Int64,
                           leavingOut replaced: [LocalDateTime: CalendarEntry], budget: inout Int) -> [LocalDateTime] {
        // Offsets differ by at most 26 hours, and change at most once in two days: an instance two
        // days past either end is well inside or outside.
        let lower = LocalDateTime(secondsSinceEpoch: from + Int64(min(rules.offset(atUTC: from), rules.offset(atUTC: from + 2 * 86_400))))
        let upper = LocalDateTime(secondsSinceEpoch: to + Int64(max(rules.offset(atUTC: to), rules.offset(atUTC: to - 2 * 86_400))))
        var kept: [LocalDateTime] = []
        var next = lower
        while kept.count < limit, next <= upper, budget > 0 {
            let batch = set.instances(in: next...upper, limit: limit, budget: &budget, clockOfUTC: { rules.local(ofUTC: $0.secondsSinceEpoch) })
            for instance in batch where replaced[instance] == nil && (from..<to).contains(rules.utc(of: instance)) {
                kept.append(instance)
            }
            guard batch.count == limit, let last = batch.last else { break }
            next = last.adding(seconds: 1)
        }
        return Array(kept.prefix(limit))
    }

    /// The zone a value is on: its `TZID`'s, UTC's, or the calendar's own.
    private func rules(of value: ICalDateTime) -> ZoneRules {
        switch value {
        case .utc: ZoneRules(fixed: 0)
        case .zoned(_, let name): zone(name) ?? home
        case .date, .floating: home
        }
    }

    /// `value` on the clock of `rules`: a moment elsewhere is brought to it; a day is its midnight.
    private func clock(of value: ICalDateTime, on rules: ZoneRules) -> LocalDateTime {
        switch value {
        case .date(let date): LocalDateTime(date)
        case .floating(let clock): clock
        case .utc, .zoned: rules.local(ofUTC: self.rules(of: value).utc(of: value.clock))
        }
    }

    /// How long each instance lasts: to its end, or its duration; an all-day entry's day, or none.
    private enum Length {
        case exact(seconds: Int64)
        case nominal(ICalDuration)
    }

    private func length(of entry: CalendarEntry, rules: ZoneRules) -> Length {
        guard let start = entry.start else { return .exact(seconds: 0) }
        if let end = entry.end {
            if start.isDate || end.isDate {
                return .nominal(ICalDuration(days: max(0, end.clock.date.daysSinceEpoch - start.clock.date.daysSinceEpoch)))
            }
            return .exact(seconds: max(0, self.rules(of: end).utc(of: end.clock) - rules.utc(of: start.clock)))
        }
        if let duration = entry.duration { return .nominal(duration) }
        return start.isDate ? .nominal(ICalDuration(days: 1)) : .exact(seconds: 0)
    }

    private func end(of instance: LocalDateTime, length: Length, rules: ZoneRules) -> Int64 {
        switch length {
        case .exact(let seconds): rules.utc(of: instance) + seconds
        case .nominal(let duration): rules.utc(of: duration.added(to: instance))
        }
    }
}
