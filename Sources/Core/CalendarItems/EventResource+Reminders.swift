import CalendarTime
import ICalendar
import ServerAPI

extension EventResource {
    /// How far from its instance a reminder is looked for, either way: an alarm four weeks before
    /// an event is found, one a year before is not (it would make every look for reminders read
    /// a year of events).
    public static let reminderReach: Int64 = 28 * 86_400

    /// The reminders of its instances (their `VALARM`s) going off within `from`…`to` (both
    /// inclusive), by moment. Alarms at one moment are one reminder; an alarm at a set moment
    /// (`TRIGGER;VALUE=DATE-TIME`) is one of the entry's first instance. The walk spends `budget`.
    public func reminders(id: Int64, from: UTCInstant, to: UTCInstant, budget: inout Int) -> [CalendarReminder] {
        let alarms = entries.map { entry in (entry: entry, alarms: (try? entry.alarms()) ?? []) }
        guard alarms.contains(where: { !$0.alarms.isEmpty }) else { return [] }
        var found: [Int64: CalendarReminder] = [:]
        let range = from.secondsSinceEpoch...to.secondsSinceEpoch
        for (entry, entryAlarms) in alarms {
            for case .at(let moment) in entryAlarms.map(\.trigger) where range.contains(moment) {
                guard let start = entry.start else { continue }
                let first = utc(of: start)
                let length = entry.duration.map { Int64($0.days) * 86_400 + Int64($0.seconds) } ?? (start.isDate ? 86_400 : 0)
                let end = entry.end.map { max(first, utc(of: $0)) } ?? first + length
                found[moment] = found[moment] ?? reminder(of: entry, at: moment, start: first, end: end, allDay: start.isDate,
                                                          instanceStart: nil, id: id, alarm: nil)
            }
        }
        // The instances whose alarms can go off in the range, and no more: a rule every second
        // with an alarm a second before walks the range, not the weeks around it.
        let (early, late) = reach(of: alarms.flatMap(\.alarms))
        for occurrence in occurrences(from: range.lowerBound - late, before: range.upperBound + early + 1, budget: &budget) {
            let zone = zone(of: occurrence.entry)
            for alarm in alarms.first(where: { $0.entry.recurrenceID == occurrence.entry.recurrenceID })?.alarms ?? [] {
                if case .at = alarm.trigger { continue }
                for moment in alarm.moments(start: occurrence.start, end: occurrence.end, zone: zone) where range.contains(moment) {
                    found[moment] = found[moment] ?? reminder(
                        of: occurrence.entry, at: moment, start: occurrence.start, end: max(occurrence.start, occurrence.end),
                        allDay: occurrence.isAllDay, instanceStart: occurrence.originalStart, id: id, alarm: alarm)
                }
            }
        }
        return found.keys.sorted().compactMap { found[$0] }
    }

    /// How long before its instance's start (`early`) and after it (`late`) the alarms may go
    /// off, within `reminderReach`. Whole days are days on the zone's clock: two hours to spare
    /// for a change of its offset.
    private func reach(of alarms: [CalendarAlarm]) -> (early: Int64, late: Int64) {
        func seconds(_ duration: ICalDuration) -> Int64 {
            (Int64(duration.days) * 86_400 + Int64(duration.seconds)) * (duration.isNegative ? -1 : 1)
        }
        var (early, late): (Int64, Int64) = (0, 0)
        for alarm in alarms {
            let offsets: ClosedRange<Int64>
            let days: Bool
            switch alarm.trigger {
            case .at: continue
            case .fromStart(let duration):
                (offsets, days) = (seconds(duration)...seconds(duration), duration.days != 0)
            case .fromEnd(let duration):
                (offsets, days) = (seconds(duration)...seconds(duration) + longestInstance, duration.days != 0)
            }
            let repeated = alarm.interval.map { abs(seconds($0)) * Int64(alarm.repeats) } ?? 0
            let spare: Int64 = days || (alarm.interval?.days ?? 0) != 0 ? 7_200 : 0
            early = max(early, -offsets.lowerBound + spare)
            late = max(late, offsets.upperBound + repeated + spare)
        }
        return (min(early, Self.reminderReach), min(late, Self.reminderReach + longestInstance))
    }

    private func reminder(of entry: CalendarEntry, at moment: Int64, start: Int64, end: Int64, allDay: Bool, instanceStart: Int64?,
                          id: Int64, alarm: CalendarAlarm?) -> CalendarReminder {
        let title = Self.shown(entry.summary, length: CalendarLimits.titleLength.upperBound) ?? Self.untitled
        let text = alarm?.text.flatMap { Self.shown($0, length: CalendarLimits.descriptionLength.upperBound, lines: true) }
        return CalendarReminder(
            at: UTCInstant(secondsSinceEpoch: moment), id: id, instanceStart: instanceStart.map(UTCInstant.init(secondsSinceEpoch:)),
            title: title, start: UTCInstant(secondsSinceEpoch: start), end: UTCInstant(secondsSinceEpoch: end), allDay: allDay,
            location: entry.component["LOCATION"].flatMap {
                Self.shown(ICalText.unescape($0.value), length: CalendarLimits.locationLength.upperBound)
            },
            text: text == title ? nil : text)
    }

    /// The zone whose clock an entry's alarms count whole days on: its start's.
    private func zone(of entry: CalendarEntry) -> ZoneRules {
        guard case .zoned(_, let name)? = entry.start else { return Self.home }
        return zones.zone(name) ?? Self.home
    }
}
