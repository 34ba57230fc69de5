import CalendarTime
import ICalendar
import Recurrence
import ServerAPI

/// One event as the server keeps it: a calendar object resource as CalDAV has them (RFC 4791
/// section 4.1), the components of one UID — the event and the instances of it changed on their
/// own (`RECURRENCE-ID`) — with the time zone definitions they use. Every property is kept as it
/// came, those the dashboard does not show among them.
public struct EventResource: Sendable {
    public let uid: String
    /// The event itself: the only one that does not repeat, or the series; nil when only changed
    /// instances came (an invitation to one instance of someone else's series).
    public let master: CalendarEntry?
    /// Its instances changed on their own.
    public let changes: [CalendarEntry]
    /// The `VTIMEZONE`s its `TZID`s name, as they came.
    public let timeZones: [ICalComponent]
    let zones: CalendarZones

    /// The calendar's own zone, for floating times and days: UTC, as the API's all-day events.
    static let home = ZoneRules(fixed: 0)

    /// Reads a resource: a `VCALENDAR` whose events all have one UID.
    /// - Throws: `ICalError` naming the line of a mistake, or of a second UID.
    public init(calendar: ICalComponent, zones database: @escaping @Sendable (String) -> ZoneRules?) throws(ICalError) {
        var entries: [CalendarEntry] = []
        for component in calendar.components(named: "VEVENT") { entries.append(try CalendarEntry(component)) }
        guard let first = entries.first else { throw ICalError(line: calendar.line, "the calendar holds no event (BEGIN:VEVENT)") }
        if let other = entries.first(where: { $0.uid != first.uid }) {
            throw ICalError(line: other.component.line, "a second UID (\(other.uid.prefix(60))) in one event's resource")
        }
        let masters = entries.filter { $0.recurrenceID == nil }
        guard masters.count <= 1 else { throw ICalError(line: masters[1].component.line, "UID \(first.uid.prefix(60)) is used by two events") }
        guard entries.count <= EventLimits.changedInstances + 1 else {
            throw ICalError(line: entries[EventLimits.changedInstances + 1].component.line,
                            "more than \(EventLimits.changedInstances) instances of one event changed on their own")
        }
        for entry in entries {
            guard entry.start != nil else { throw ICalError(line: entry.component.line, "an event has no start (DTSTART)") }
        }
        uid = first.uid
        master = masters.first
        changes = entries.filter { $0.recurrenceID != nil }
        timeZones = calendar.components(named: "VTIMEZONE")
        zones = CalendarZones(calendar: calendar, database: database)
    }

    /// The resources of an imported calendar, one per UID, in the order they first come; each
    /// resource or the mistake that kept it out.
    public static func resources(in calendar: ICalComponent, zones database: @escaping @Sendable (String) -> ZoneRules?)
        -> [Result<EventResource, ICalError>] {
        var order: [String] = []
        var byUID: [String: [ICalComponent]] = [:]
        var failures: [ICalError] = []
        for component in calendar.components where component.name == "VEVENT" {
            guard let uid = component["UID"]?.value, !uid.isEmpty else {
                failures.append(ICalError(line: component.line, "BEGIN:VEVENT has no UID: every event needs one"))
                continue
            }
            if byUID[uid] == nil { order.append(uid) }
            byUID[uid, default: []].append(component)
        }
        let results = order.map { uid -> Result<EventResource, ICalError> in
            let events = byUID[uid] ?? []
            let used = Set(events.flatMap { $0.properties.compactMap { $0.parameter("TZID") } })
            let zones = calendar.components(named: "VTIMEZONE").filter { $0["TZID"].map { used.contains($0.value) } ?? false }
            let own = ICalComponent(name: "VCALENDAR", properties: calendar.properties, components: zones + events, line: events[0].line)
            return Result { () throws(ICalError) in try EventResource(calendar: own, zones: database) }
        }
        return failures.map { .failure($0) } + results
    }

    /// As a `VCALENDAR` of its own.
    public var calendar: ICalComponent {
        let events = (master.map { [$0] } ?? []) + changes
        return ICalComponent(name: "VCALENDAR", properties: [
            ICalProperty(name: "VERSION", value: "2.0"), ICalProperty(name: "PRODID", value: Self.productID),
        ], components: timeZones + events.map(\.component))
    }

    /// As iCalendar text.
    public var text: String { ICalendarText.write([calendar]) }

    public static let productID = "-//TermCanvas//TermCanvas//EN"

    /// Whether it has more than one instance: a rule, or dates added.
    public var repeats: Bool {
        guard let master else { return false }
        return master.rule != nil || !master.added.isEmpty
    }

    /// Every entry, the event first.
    var entries: [CalendarEntry] { (master.map { [$0] } ?? []) + changes }

    /// The zone of the event's start: its `TZID` when the database or the calendar knows it.
    public var timeZone: String? {
        guard case .zoned(_, let name)? = (master ?? changes.first)?.start, zones.zone(name) != nil else { return nil }
        return name
    }

    /// Its instances starting at or after `from` and before `to` (seconds since 1970 UTC), at most
    /// `limit` of each entry.
    func occurrences(from: Int64, before to: Int64, limit: Int = EventLimits.instancesPerEvent) -> [Occurrence] {
        var budget = RecurrenceRule.maximumWork
        return occurrences(from: from, before: to, limit: limit, budget: &budget)
    }

    /// As `occurrences(from:before:limit:)`, spending at most `budget` (see `RecurrenceRule`'s).
    func occurrences(from: Int64, before to: Int64, limit: Int = EventLimits.instancesPerEvent, budget: inout Int) -> [Occurrence] {
        var expansion = CalendarOccurrences(zone: zones.zone, home: Self.home)
        expansion.limit = limit
        return expansion.starting(from: from, before: to, in: entries, budget: &budget)
    }
}

/// What one event may hold, so that an imported calendar cannot spend the server.
public enum EventLimits {
    /// Instances changed on their own, per event.
    public static let changedInstances = 1_000
    /// Instances of one event worked out for one request: a rule every second gives this many and
    /// no more.
    public static let instancesPerEvent = 10_000
    /// Bytes of one event's iCalendar text: an import sends a few in each request of 64 KiB.
    public static let resourceBytes = 60 * 1024
}
