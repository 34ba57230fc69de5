import CalendarTime

/// A reminder of an event or task (`VALARM`, RFC 5545 section 3.6.6): when it goes off, relative
/// to the instance's start or end or at a set moment, and how often again after that.
public struct CalendarAlarm: Hashable, Sendable {
    public enum Trigger: Hashable, Sendable {
        /// Before (negative) or after the instance's start.
        case fromStart(ICalDuration)
        /// Before or after the instance's end.
        case fromEnd(ICalDuration)
        /// At a moment (seconds since 1970 UTC), whatever the instance.
        case at(Int64)
    }

    public let trigger: Trigger
    /// Goes off this many more times, `interval` apart.
    public let repeats: Int
    public let interval: ICalDuration?
    /// `DISPLAY`, `AUDIO`, `EMAIL`: the dashboard shows each of them.
    public let action: String
    /// What to say: its `DESCRIPTION`, else the entry's summary.
    public let text: String?

    /// At most this many repeats: a reminder every minute for a year is a mistake, not a wish.
    static let maximumRepeats = 100

    /// Reads a `VALARM`; a mistake is named with its line.
    public init(_ component: ICalComponent) throws(ICalError) {
        guard let trigger = component["TRIGGER"] else { throw ICalError(line: component.line, "BEGIN:VALARM has no TRIGGER: a reminder says when") }
        if trigger.parameter("VALUE")?.uppercased() == "DATE-TIME" || trigger.value.hasSuffix("Z") {
            guard case .utc(let moment)? = ICalDateTime(value: trigger.value) else {
                throw ICalError(line: trigger.line, "TRIGGER:\(trigger.value.prefix(40)): a moment in UTC (20261130T083000Z)")
            }
            self.trigger = .at(moment.secondsSinceEpoch)
        } else {
            guard let duration = ICalDuration(trigger.value) else {
                throw ICalError(line: trigger.line, "TRIGGER:\(trigger.value.prefix(40)): a duration before or after (-PT15M, PT0S, -P1D)")
            }
            self.trigger = trigger.parameter("RELATED")?.uppercased() == "END" ? .fromEnd(duration) : .fromStart(duration)
        }
        var repeats = 0
        let interval = component["DURATION"].flatMap { ICalDuration($0.value) }
        if let given = component["REPEAT"] {
            guard let number = Int(given.value), (0...Self.maximumRepeats).contains(number), number == 0 || interval != nil else {
                throw ICalError(line: given.line, "REPEAT:\(given.value.prefix(20)): from 0 to \(Self.maximumRepeats), with a DURATION between the reminders")
            }
            repeats = number
        }
        self.repeats = repeats
        self.interval = repeats > 0 ? interval : nil
        action = component["ACTION"]?.value.uppercased() ?? "DISPLAY"
        text = component["DESCRIPTION"].map { ICalText.unescape($0.value) }
    }

    /// When it goes off for an instance starting at `start` and ending at `end` (seconds since
    /// 1970 UTC), on the clock of `zone` for durations of whole days; in order.
    public func moments(start: Int64, end: Int64, zone: ZoneRules) -> [Int64] {
        let first: Int64
        switch trigger {
        case .at(let moment): first = moment
        case .fromStart(let duration): first = Self.moved(start, by: duration, zone: zone)
        case .fromEnd(let duration): first = Self.moved(end, by: duration, zone: zone)
        }
        var found = [first]
        if let interval {
            for _ in 0..<repeats { found.append(Self.moved(found[found.count - 1], by: interval, zone: zone)) }
        }
        return found
    }

    /// `moment` moved by `duration`: its days as calendar days on the zone's clock, its seconds exactly.
    static func moved(_ moment: Int64, by duration: ICalDuration, zone: ZoneRules) -> Int64 {
        guard duration.days != 0 else { return moment + Int64(duration.isNegative ? -duration.seconds : duration.seconds) }
        return zone.utc(of: duration.added(to: zone.local(ofUTC: moment)))
    }
}

extension CalendarEntry {
    /// Its reminders, in order.
    public func alarms() throws(ICalError) -> [CalendarAlarm] {
        var found: [CalendarAlarm] = []
        for component in component.components(named: "VALARM") { found.append(try CalendarAlarm(component)) }
        return found
    }
}

/// A reminder due: which instance, which alarm, and when.
public struct Reminder: Hashable, Sendable {
    public let occurrence: Occurrence
    public let alarm: CalendarAlarm
    /// Seconds since 1970 UTC.
    public let moment: Int64
}

extension CalendarOccurrences {
    /// The reminders going off at or after `from` and before `to`, in order: of the instances
    /// starting up to `lookAhead` seconds after `to` (a reminder a week before an event is due
    /// a week before it), each entry's alarms read as `alarms` says.
    public func reminders(from: Int64, before to: Int64, in entries: [CalendarEntry], lookAhead: Int64 = 35 * 86_400) -> [Reminder] {
        guard from < to, lookAhead >= 0 else { return [] }
        var found: [Reminder] = []
        for occurrence in starting(from: from - lookAhead, before: to + lookAhead, in: entries) {
            guard let alarms = try? occurrence.entry.alarms() else { continue }
            for alarm in alarms {
                for moment in alarm.moments(start: occurrence.start, end: occurrence.end, zone: home) where moment >= from && moment < to {
                    found.append(Reminder(occurrence: occurrence, alarm: alarm, moment: moment))
                }
            }
        }
        return found.sorted { ($0.moment, $0.occurrence.start, $0.occurrence.uid) < ($1.moment, $1.occurrence.start, $1.occurrence.uid) }
    }
}
