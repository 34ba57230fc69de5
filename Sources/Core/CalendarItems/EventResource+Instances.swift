import CalendarTime
import ICalendar
import Recurrence
import ServerAPI

/// What the database keeps beside an event's text, to find the events a range needs without
/// reading the others.
public struct EventIndex: Equatable, Sendable {
    /// The first instance's.
    public let title: String
    public let start: UTCInstant
    public let end: UTCInstant
    public let allDay: Bool
    /// When its last instance ends; nil when it repeats without end, or past what one request
    /// works out (`EventLimits.instancesPerEvent`).
    public let seriesEnd: UTCInstant?
    public let repeats: Bool
}

extension EventResource {
    /// The first moment of the years an event may have (1), and the first after them (10000).
    public static let earliestMoment = UTCInstant(day: CalendarDate(year: 1, month: 1, day: 1)!).secondsSinceEpoch
    public static let latestMoment = UTCInstant(day: CalendarDate(year: 9999, month: 12, day: 31)!).secondsSinceEpoch + 86_400

    public var index: EventIndex {
        let forever = master?.rule.map { $0.end == .never } ?? false
        let limit = forever ? 2 : EventLimits.instancesPerEvent
        var budget = RecurrenceRule.maximumWork
        let all = occurrences(from: Self.earliestMoment, before: Self.latestMoment, limit: limit, budget: &budget)
        let first = all.min { $0.start < $1.start }
        let start = first.map(\.start) ?? utc(of: (master ?? changes[0]).start!)
        let end = first.map(\.end) ?? start
        // Without end, or past what a walk may spend, it has no last instance known; but a rule
        // without end whose walk finds nothing after its start (`FREQ=SECONDLY;BYMONTH=2;BYMONTHDAY=30`)
        // is taken to end there, rather than be walked in vain for every range.
        let open = (forever && all.count - changes.count >= limit) || (!forever && (budget <= 0 || all.count - changes.count >= limit))
        return EventIndex(title: first?.entry.summary ?? (master ?? changes[0]).summary,
                          start: UTCInstant(secondsSinceEpoch: start), end: UTCInstant(secondsSinceEpoch: max(start, end)),
                          allDay: first?.isAllDay ?? ((master ?? changes[0]).start?.isDate ?? false),
                          seriesEnd: open ? nil : UTCInstant(secondsSinceEpoch: all.map(\.end).max() ?? end), repeats: repeats)
    }

    /// The event as one API event, its first instance's times: what a change's answer and the
    /// live event say.
    public func apiEvent(id: Int64) -> CalendarEvent {
        apiEvent(id: id, index: index)
    }

    /// `apiEvent(id:)` of an index already worked out.
    public func apiEvent(id: Int64, index: EventIndex) -> CalendarEvent {
        let entry = master ?? changes[0]
        var event = CalendarEvent(id: id, title: Self.shown(index.title, length: CalendarLimits.titleLength.upperBound) ?? Self.untitled,
                                  start: index.start, end: index.end, allDay: index.allDay)
        describe(&event, from: entry)
        return event
    }

    /// The API's events of the instances that overlap `from`…`to` (both inclusive): starting by
    /// `to`, and not ended before `from` (one ending exactly at `from` does not overlap, unless
    /// it is an instant at `from`); by start, the first `limit` of them that start at or after
    /// `after` (where a page of a list ended). The walks of its rules spend `budget`; when it runs
    /// out, the instances past it are missing.
    public func apiEvents(id: Int64, from: UTCInstant, to: UTCInstant, after: UTCInstant? = nil, limit: Int = EventLimits.instancesPerEvent,
                          budget: inout Int) -> [CalendarEvent] {
        var found: [Occurrence] = []
        if !repeats && changes.isEmpty {
            // One instance: one walk for it, from as far back as it may reach.
            found = occurrences(from: from.secondsSinceEpoch - longestInstance, before: to.secondsSinceEpoch + 1, limit: 1, budget: &budget)
                .filter { occurrence in
                    (occurrence.end > from.secondsSinceEpoch || occurrence.start >= from.secondsSinceEpoch)
                        && after.map { occurrence.start >= $0.secondsSinceEpoch } ?? true
                }
        } else {
            if after.map({ $0 <= from }) ?? true {
                // Those that started before the range and are still on at its start.
                found += occurrences(from: from.secondsSinceEpoch - longestInstance, before: from.secondsSinceEpoch, budget: &budget)
                    .filter { $0.end > from.secondsSinceEpoch }
            }
            let start = max(from, after ?? from)
            found += occurrences(from: start.secondsSinceEpoch, before: to.secondsSinceEpoch + 1, limit: limit, budget: &budget)
        }
        // Each entry's words once (the event's, or an instance changed on its own), not each instance's.
        var shown: [ICalDateTime?: CalendarEvent] = [:]
        return found.prefix(limit).map { occurrence in
            var event = shown[occurrence.entry.recurrenceID] ?? describing(occurrence.entry, id: id)
            shown[occurrence.entry.recurrenceID] = event
            event.start = UTCInstant(secondsSinceEpoch: occurrence.start)
            event.end = UTCInstant(secondsSinceEpoch: max(occurrence.start, occurrence.end))
            event.allDay = occurrence.isAllDay
            event.instanceStart = occurrence.originalStart.map(UTCInstant.init(secondsSinceEpoch:))
            return event
        }
    }

    /// An API event of `entry`'s words (its times to be set).
    private func describing(_ entry: CalendarEntry, id: Int64) -> CalendarEvent {
        var event = CalendarEvent(id: id, title: Self.shown(entry.summary, length: CalendarLimits.titleLength.upperBound) ?? Self.untitled,
                                  start: UTCInstant(secondsSinceEpoch: 0), end: UTCInstant(secondsSinceEpoch: 0))
        describe(&event, from: entry)
        return event
    }

    /// The fields beyond times an API event has of `entry`.
    private func describe(_ event: inout CalendarEvent, from entry: CalendarEntry) {
        event.uid = uid
        event.recurrence = master?.component["RRULE"]?.value
        event.timeZone = timeZone
        event.location = entry.component["LOCATION"].flatMap { Self.shown(ICalText.unescape($0.value), length: CalendarLimits.locationLength.upperBound) }
        event.description = entry.component["DESCRIPTION"].flatMap {
            Self.shown(ICalText.unescape($0.value), length: CalendarLimits.descriptionLength.upperBound, lines: true)
        }
        let before = ((try? entry.alarms()) ?? []).compactMap { alarm -> Int? in
            guard case .fromStart(let duration) = alarm.trigger, duration.isNegative || (duration.days == 0 && duration.seconds == 0) else { return nil }
            return (duration.days * 86_400 + duration.seconds) / 60
        }
        event.reminders = before.isEmpty ? nil : Array(Set(before)).sorted(by: >)
    }

    /// What an imported event with no words in its `SUMMARY` is called.
    static let untitled = "(no title)"

    /// Text of an imported event as the API's rules for its field allow (what an event made
    /// through the API has already): control characters as spaces (line breaks kept in `lines`),
    /// no blank text, at most `length` characters, the last `…` when cut.
    static func shown(_ text: String, length: Int, lines: Bool = false) -> String? {
        var clean = String(String.UnicodeScalarView(text.unicodeScalars.map { scalar in
            guard scalar.properties.generalCategory == .control, !(lines && scalar == "\n") || scalar == "\u{0}" else { return scalar }
            return " "
        }))
        guard clean.contains(where: { !$0.isWhitespace }) else { return nil }
        if clean.count > length { clean = String(clean.prefix(length - 1)) + "…" }
        return clean
    }

    /// How long its longest instance may last, in seconds, a day to spare for zones' offsets:
    /// how far before a range an instance may start and still reach into it.
    var longestInstance: Int64 {
        entries.map { entry -> Int64 in
            guard let start = entry.start else { return 0 }
            if let end = entry.end { return max(0, end.clock.secondsSinceEpoch - start.clock.secondsSinceEpoch) }
            if let duration = entry.duration { return Int64(duration.days) * 86_400 + Int64(duration.seconds) }
            return start.isDate ? 86_400 : 0
        }.max().map { $0 + 86_400 } ?? 0
    }

    /// The moment a value names (a day: its midnight on the calendar's clock).
    func utc(of value: ICalDateTime) -> Int64 {
        switch value {
        case .utc(let clock): clock.secondsSinceEpoch
        case .zoned(let clock, let zone): (zones.zone(zone) ?? Self.home).utc(of: clock)
        case .date, .floating: Self.home.utc(of: value.clock)
        }
    }
}

extension EventResource {
    /// The API's event of the instance the repetition starts at `original`, wherever a change
    /// moved it; nil when there is none.
    public func apiEvent(id: Int64, instance original: UTCInstant) -> CalendarEvent? {
        guard let start = master?.start else { return nil }
        let clock = clock(of: original.secondsSinceEpoch, in: start)
        let moment = changes.first { $0.recurrenceID.map(recurrenceClock) == clock }?.start.map(utc(of:)) ?? original.secondsSinceEpoch
        let instant = UTCInstant(secondsSinceEpoch: moment)
        var budget = RecurrenceRule.maximumWork
        return apiEvents(id: id, from: instant, to: instant, budget: &budget).first { $0.instanceStart == original && $0.start == instant }
    }
}
