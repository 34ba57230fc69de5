import CalendarItems
import CalendarTime
import ICalendar
import ServerAPI
import SystemZones

/// Calendar events: each is its owner's, an iCalendar resource (`EventResource`) with the columns
/// a range is found by (times as UTC ISO text, so ranges compare as text); lists go by start then
/// id, a repeating event once per instance; a change records its live event in its transaction.
extension BFFStore {
    /// Adds `resource` as a new event of `owner`'s.
    /// - Throws: `BFFStoreError.quotaReached` past `CalendarLimits.eventsPerUser`;
    ///   `BFFStoreError.conflict` when they have an event with its UID.
    package func createCalendarEvent(owner: Int64, resource: EventResource) async throws -> CalendarEvent {
        // The owner's lock: instances creating at once cannot both take the last place.
        try await keyedWrite(.lock("calendar.owner.\(owner)", next: Self.insertEvent(owner: owner, resource: resource).then { id in
            .done(resource.apiEvent(id: id))
        }))
    }

    /// What an import did: events added, events replaced (their UID was there), and the mistakes
    /// that kept others out.
    package struct ImportOutcome: Sendable, Equatable {
        package var added = 0
        package var replaced = 0
    }

    /// Adds each resource, or replaces the event of `owner`'s with its UID: as a calendar program
    /// imports a file again. One transaction; the quota counts what is added.
    package func importCalendarEvents(owner: Int64, resources: [EventResource]) async throws -> ImportOutcome {
        var plan: Plan<ImportOutcome> = .done(ImportOutcome())
        for resource in resources {
            plan = plan.then { outcome in
                .run("SELECT id FROM calendar_events WHERE owner_id = \(owner) AND uid = \(resource.uid)") { rows in
                    var next = outcome
                    if let id = try rows.first?.integer(0) {
                        next.replaced += 1
                        return Self.replaceEvent(id: id, owner: owner, resource: resource).then { [next] _ in .done(next) }
                    }
                    next.added += 1
                    return Self.insertEvent(owner: owner, resource: resource).then { [next] _ in .done(next) }
                }
            }
        }
        return try await runWrite(.lock("calendar.owner.\(owner)", next: plan))
    }

    /// The event with this id if `owner` owns it, as one event (a repeating one's first instance).
    package func calendarEvent(id: Int64, owner: Int64) async throws -> CalendarEvent? {
        try await calendarResource(id: id, owner: owner).map { $0.apiEvent(id: id) }
    }

    /// The event with this id if `owner` owns it, as iCalendar.
    package func calendarResource(id: Int64, owner: Int64) async throws -> EventResource? {
        try await runRead(Plan.run("SELECT \(storedColumns) FROM calendar_events WHERE id = \(id) AND owner_id = \(owner)") { rows in
            .done(try rows.compactMap(StoredEvent.init(row:)).first?.resource)
        }, snapshot: false)
    }

    /// A page of `owner`'s events that reach into `from`…`to` (either open), as iCalendar, by id
    /// after `after`; and whether more follow.
    package func calendarResources(owner: Int64, from: UTCInstant?, to: UTCInstant?, after: Int64?, limit: Int) async throws
        -> (items: [(id: Int64, resource: EventResource)], more: Bool) {
        var statement: SQLStatement = "SELECT \(storedColumns) FROM calendar_events WHERE owner_id = \(owner) AND id > \(after ?? 0)"
        if let to { statement += " AND start_at <= \(to)" }
        if let from { statement += " AND (series_end IS NULL OR series_end > \(from) OR start_at >= \(from))" }
        statement += " ORDER BY id LIMIT \(limit + 1)"
        return try await runRead(Plan.run(statement) { rows in
            let items = try rows.compactMap(StoredEvent.init(row:)).map { (id: $0.id, resource: $0.resource) }
            return .done((Array(items.prefix(limit)), rows.count > limit))
        }, snapshot: false)
    }

    /// One page of the instances of `owner`'s events that overlap the query's range, by start then
    /// id, and whether more follow. An instance overlaps when it starts by `to` and has not ended
    /// before `from` (one ending exactly at `from` does not, unless it is an instant at `from`).
    /// Events that do not repeat are paged by the database; repeating ones that can reach the
    /// range are expanded from where the page starts, their walks spending at most
    /// `CalendarLimits.workPerRequest` in all.
    /// - Throws: `BFFStoreError.tooMuchWork` when the page needs more than that.
    package func calendarEvents(owner: Int64, query: CalendarQuery) async throws -> (items: [CalendarEvent], more: Bool) {
        var single: SQLStatement = "SELECT \(storedColumns) FROM calendar_events WHERE owner_id = \(owner) AND repeats = \(false)"
        var repeating: SQLStatement = "SELECT \(storedColumns) FROM calendar_events WHERE owner_id = \(owner) AND repeats = \(true)"
        if let to = query.to {
            single += " AND start_at <= \(to)"
            repeating += " AND start_at <= \(to)"
        }
        if let from = query.from {
            single += " AND (end_at > \(from) OR start_at >= \(from))"
            repeating += " AND (series_end IS NULL OR series_end > \(from) OR start_at >= \(from))"
        }
        if let after = query.after {
            single += " AND (start_at > \(after.start) OR (start_at = \(after.start) AND id > \(after.id)))"
        }
        single += " ORDER BY start_at, id LIMIT \(query.limit + 1)"
        let from = query.from ?? UTCInstant(secondsSinceEpoch: EventResource.earliestMoment)
        let to = query.to ?? UTCInstant(secondsSinceEpoch: EventResource.latestMoment)
        let plan = Plan.run(single) { [repeating] singleRows in
            Plan.run(repeating) { repeatingRows in
                // One budget for the walks of every rule (`RecurrenceRule.maximumWork`): rules that
                // never happen or happen every second cannot make a request take seconds.
                var budget = CalendarLimits.workPerRequest
                var items = try singleRows.compactMap(StoredEvent.init(row:)).flatMap { $0.resource.apiEvents(id: $0.id, from: from, to: to, budget: &budget) }
                // Of each repeating event, the instances of this page at most: one more than a page
                // after where the last ended (one of them may be that last).
                for stored in try repeatingRows.compactMap(StoredEvent.init(row:)) {
                    let instances = stored.resource.apiEvents(id: stored.id, from: from, to: to, after: query.after?.start, limit: query.limit + 2,
                                                              budget: &budget)
                    guard budget > 0 else { throw BFFStoreError.tooMuchWork }
                    items += instances.filter { event in
                        query.after.map { (event.start, event.id) > ($0.start, $0.id) } ?? true
                    }
                }
                items.sort { ($0.start, $0.id, $0.instanceStart ?? $0.start) < ($1.start, $1.id, $1.instanceStart ?? $1.start) }
                return .done((Array(items.prefix(query.limit)), items.count > query.limit))
            }
        }
        return try await runRead(plan, snapshot: true)
    }

    /// What a change makes of an event: the event changed (answered with the instance changed,
    /// when one alone was), or ended before an instance with the rest a new event of its own.
    package enum EventRewrite: Sendable {
        case replace(EventResource, answerInstance: UTCInstant?)
        case split(kept: EventResource, following: EventResource)
    }

    /// Replaces `owner`'s event by what `change` makes of it (which validates); nil when there is
    /// no such event of theirs. The answer is the event, the instance changed, or the new event.
    package func updateCalendarEvent(id: Int64, owner: Int64, applying change: @escaping @Sendable (EventResource) throws -> EventRewrite)
        async throws -> CalendarEvent? {
        try await keyedWrite(.lock("calendar.owner.\(owner)", next: Plan.run("""
            SELECT \(storedColumns) FROM calendar_events WHERE id = \(id) AND owner_id = \(owner)\(.forUpdate)
            """) { rows -> Plan<CalendarEvent?> in
            guard let current = try rows.compactMap(StoredEvent.init(row:)).first else { return .done(nil) }
            switch try change(current.resource) {
            case .replace(let resource, let instance):
                return Self.replaceEvent(id: id, owner: owner, resource: resource).then { _ in
                    .done(instance.flatMap { resource.apiEvent(id: id, instance: $0) } ?? resource.apiEvent(id: id))
                }
            case .split(let kept, let following):
                return Self.replaceEvent(id: id, owner: owner, resource: kept).then { _ in
                    Self.insertEvent(owner: owner, resource: following).then { newID in .done(following.apiEvent(id: newID)) }
                }
            }
        }))
    }

    /// Deletes `owner`'s event, or what `remaining` leaves of it (nil: all of it); returns whether
    /// there was one.
    package func deleteCalendarEvent(id: Int64, owner: Int64, remaining: @escaping @Sendable (EventResource) throws -> EventResource? = { _ in nil })
        async throws -> Bool {
        try await keyedWrite(.lock("calendar.owner.\(owner)", next: Plan.run("""
            SELECT \(storedColumns) FROM calendar_events WHERE id = \(id) AND owner_id = \(owner)\(.forUpdate)
            """) { rows -> Plan<Bool> in
            guard let current = try rows.compactMap(StoredEvent.init(row:)).first else { return .done(false) }
            if let left = try remaining(current.resource) {
                return Self.replaceEvent(id: id, owner: owner, resource: left).then { _ in .done(true) }
            }
            return .run("DELETE FROM calendar_events WHERE id = \(id) AND owner_id = \(owner)") { _ in
                .record(.calendarEventDeleted, owner: owner, data: DeletedEntity(id: id), then: .done(true))
            }
        }))
    }

    /// Inserts `resource` as `owner`'s, within the quota; its id.
    private static func insertEvent(owner: Int64, resource: EventResource) -> Plan<Int64> {
        .run("SELECT COUNT(*) FROM calendar_events WHERE owner_id = \(owner)") { rows in
            try Self.checkQuota(rows, CalendarLimits.eventsPerUser, of: "calendar events")
            let index = resource.index
            return .run("""
                INSERT INTO calendar_events (owner_id, title, start_at, end_at, all_day, uid, ical, series_end, repeats, created_at, updated_at)
                VALUES (\(owner), \(index.title), \(index.start), \(index.end), \(index.allDay), \(resource.uid), \(resource.text),
                    \(index.seriesEnd), \(index.repeats), \(.now), \(.now)) RETURNING id
                """) { rows in
                guard let id = try rows.first?.integer(0) else { throw BFFStoreError.unreadableRow("calendar_events, just written") }
                return .record(.calendarEventCreated, owner: owner, data: resource.apiEvent(id: id), then: .done(id))
            }
        }
    }

    private static func replaceEvent(id: Int64, owner: Int64, resource: EventResource) -> Plan<Void> {
        let index = resource.index
        return .run("""
            UPDATE calendar_events SET title = \(index.title), start_at = \(index.start), end_at = \(index.end), all_day = \(index.allDay),
                uid = \(resource.uid), ical = \(resource.text), series_end = \(index.seriesEnd), repeats = \(index.repeats),
                updated_at = \(.now) WHERE id = \(id)
            """) { _ in .record(.calendarEventUpdated, owner: owner, data: resource.apiEvent(id: id), then: .done(())) }
    }
}

/// The columns of a stored event, in the order `StoredEvent.init(row:)` reads them.
private let storedColumns: SQLStatement = "id, title, start_at, end_at, all_day, uid, ical"

/// A row of `calendar_events` read as iCalendar.
private struct StoredEvent {
    let id: Int64
    let resource: EventResource

    /// Nil for a row that cannot be read as an event (its times or its text written by hand): it
    /// is left out rather than shown wrong. A row from before events were iCalendar (no text) is
    /// the event its columns describe.
    init?(row: SQLRow) throws {
        id = try row.integer(0)
        if let text = try row.optionalText(6) {
            guard let calendar = (try? ICalendarText.read(text))?.first,
                  let resource = try? EventResource(calendar: calendar, zones: SystemZones.zone) else { return nil }
            self.resource = resource
        } else {
            guard let start = UTCInstant(iso: try row.text(2)), let end = UTCInstant(iso: try row.text(3)) else { return nil }
            let event = CalendarEvent(id: id, title: try row.text(1), start: start, end: end, allDay: try row.bool(4))
            resource = EventResource.new(uid: try row.optionalText(5) ?? "termcanvas-event-\(id)", event: event, stamp: start, zones: SystemZones.zone)
        }
    }
}
