import CalendarItems
import CalendarTime
import ICalendar
import ServerAPI
import SystemZones

/// Calendar events: each is its owner's, an iCalendar resource (`EventResource`) with the columns
/// a range is found by (times as UTC ISO text, so ranges compare as text); lists go by start then
/// id, a repeating event once per instance; a change records its live event in its transaction.
extension BFFStore {
    /// Adds `resource` as a new event of `owner`'s, in `calendar` (nil: the one they make events
    /// in, their own unless `calendar connect` chose a synced one).
    /// - Throws: `BFFStoreError.quotaReached` past `CalendarLimits.eventsPerUser`;
    ///   `BFFStoreError.readOnlyCalendar` for a subscription; `BFFStoreError.noSuchCalendar`.
    package func createCalendarEvent(owner: Int64, resource: EventResource, calendar: Int64? = nil) async throws -> CalendarEvent {
        let event = try await offThePool { WrittenEvent(resource) }
        let chosen: Plan<Int64> = calendar.map { .done($0) } ?? .run("""
            SELECT u.default_calendar_id FROM users u WHERE u.id = \(owner)
                AND (u.default_calendar_id = 0 OR EXISTS (SELECT 1 FROM calendars c WHERE c.id = u.default_calendar_id))
            """) { rows in .done(try rows.first?.integer(0) ?? 0) }
        // The owner's lock: instances creating at once cannot both take the last place.
        return try await keyedWrite(.lock("calendar.owner.\(owner)", next: chosen.then { calendar in
            Self.synced(calendar, owner: owner, missing: BFFStoreError.noSuchCalendar).then { synced in
                Self.insert(event, owner: owner, calendar: calendar, synced: synced).then { id in
                    var made = event.apiEvent(id: id)
                    made.calendar = calendar == 0 ? nil : calendar
                    return .done(made)
                }
            }
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
        // Worked out before the transaction: it holds a connection, which waits for no expansion.
        for event in try await offThePool({ resources.map(WrittenEvent.init) }) {
            plan = plan.then { outcome in
                .run("SELECT id FROM calendar_events WHERE owner_id = \(owner) AND calendar_id = 0 AND uid = \(event.resource.uid)") { rows in
                    var next = outcome
                    if let id = try rows.first?.integer(0) {
                        next.replaced += 1
                        return Self.replace(id: id, owner: owner, with: event).then { [next] _ in .done(next) }
                    }
                    next.added += 1
                    return Self.insert(event, owner: owner, calendar: 0, synced: false).then { [next] _ in .done(next) }
                }
            }
        }
        return try await runWrite(.lock("calendar.owner.\(owner)", next: plan))
    }

    /// The event with this id if `owner` owns it, as one event (a repeating one's first instance).
    package func calendarEvent(id: Int64, owner: Int64) async throws -> CalendarEvent? {
        guard let stored = try await storedEvent(id: id, owner: owner) else { return nil }
        let looks = try await runRead(Self.calendarLooks(owner: owner), snapshot: false)
        return try await offThePool { stored.resource.map { stored.shown([$0.apiEvent(id: id)], looks: looks)[0] } }
    }

    /// The event with this id if `owner` owns it, as iCalendar.
    package func calendarResource(id: Int64, owner: Int64) async throws -> EventResource? {
        guard let stored = try await storedEvent(id: id, owner: owner) else { return nil }
        return try await offThePool { stored.resource }
    }

    private func storedEvent(id: Int64, owner: Int64) async throws -> StoredEvent? {
        try await runRead(Plan.run("SELECT \(storedColumns) FROM calendar_events WHERE id = \(id) AND owner_id = \(owner)") { rows in
            .done(try rows.map(StoredEvent.init(row:)).first)
        }, snapshot: false)
    }

    /// A page of `owner`'s own events (not their subscriptions') that reach into `from`…`to`
    /// (either open), as iCalendar, by id after `after`; and whether more follow.
    package func calendarResources(owner: Int64, from: UTCInstant?, to: UTCInstant?, after: Int64?, limit: Int) async throws
        -> (items: [(id: Int64, resource: EventResource)], more: Bool) {
        var statement: SQLStatement = """
            SELECT \(storedColumns) FROM calendar_events WHERE owner_id = \(owner) AND calendar_id = 0 AND id > \(after ?? 0)
            """
        if let to { statement += " AND start_at <= \(to)" }
        if let from { statement += " AND (series_end IS NULL OR series_end > \(from) OR start_at >= \(from))" }
        statement += " ORDER BY id LIMIT \(limit + 1)"
        let (stored, more) = try await runRead(Plan.run(statement) { rows in
            .done((Array(try rows.map(StoredEvent.init(row:)).prefix(limit)), rows.count > limit))
        }, snapshot: false)
        return (try await offThePool { stored.compactMap { event in event.resource.map { (id: event.id, resource: $0) } } }, more)
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
        let (singleRows, repeatingRows, looks) = try await runRead(Plan.run(single) { [repeating] singleRows in
            Plan.run(repeating) { repeatingRows in
                Self.calendarLooks(owner: owner).then { looks in
                    .done((try singleRows.map(StoredEvent.init(row:)), try repeatingRows.map(StoredEvent.init(row:)), looks))
                }
            }
        }, snapshot: true)
        // Worked out once the database's connection is free again, off the cooperative threads.
        // One budget for the walks of every rule (`RecurrenceRule.maximumWork`): rules that never
        // happen or happen every second cannot make a request take seconds.
        return try await offThePool {
            var budget = CalendarLimits.workPerRequest
            var items = singleRows.flatMap { stored in
                stored.resource.map { stored.shown($0.apiEvents(id: stored.id, from: from, to: to, budget: &budget), looks: looks) } ?? []
            }
            // Of each repeating event, the instances of this page at most: one more than a page
            // after where the last ended (one of them may be that last).
            for stored in repeatingRows {
                guard let resource = stored.resource else { continue }
                let instances = resource.apiEvents(id: stored.id, from: from, to: to, after: query.after?.start, limit: query.limit + 2,
                                                   budget: &budget)
                guard budget > 0 else { throw BFFStoreError.tooMuchWork }
                items += stored.shown(instances, looks: looks)
                    .filter { event in query.after.map { (event.start, event.id) > ($0.start, $0.id) } ?? true }
            }
            items.sort { ($0.start, $0.id, $0.instanceStart ?? $0.start) < ($1.start, $1.id, $1.instanceStart ?? $1.start) }
            return (Array(items.prefix(query.limit)), items.count > query.limit)
        }
    }

    /// One page of the reminders of `owner`'s events going off within the query's range, by
    /// moment then id, and whether more follow; the query's cursor names a reminder's moment
    /// (`at`) and event. Looked for in the events starting within `EventResource.reminderReach`
    /// of the range.
    /// - Throws: `BFFStoreError.tooMuchWork` when their walks need more than
    ///   `CalendarLimits.workPerRequest`.
    package func calendarReminders(owner: Int64, query: CalendarQuery) async throws -> (items: [CalendarReminder], more: Bool) {
        // A page starts where the last ended: its reminders are at or after the cursor's moment.
        let from = max(query.from ?? UTCInstant(secondsSinceEpoch: EventResource.earliestMoment), query.after?.start ?? .init(secondsSinceEpoch: 0))
        let to = query.to ?? UTCInstant(secondsSinceEpoch: EventResource.latestMoment)
        let reach = EventResource.reminderReach + Int64(CalendarLimits.maxDurationDays) * 86_400
        let earliest = UTCInstant(secondsSinceEpoch: from.secondsSinceEpoch - reach)
        let latest = UTCInstant(secondsSinceEpoch: to.secondsSinceEpoch + reach)
        let rows = try await runRead(Plan.run("""
            SELECT \(storedColumns) FROM calendar_events WHERE owner_id = \(owner) AND ical LIKE \("%BEGIN:VALARM%")
                AND start_at <= \(latest) AND (series_end IS NULL OR series_end > \(earliest) OR start_at >= \(earliest))
            """) { rows in .done(try rows.map(StoredEvent.init(row:))) }, snapshot: false)
        return try await offThePool {
            var budget = CalendarLimits.workPerRequest
            var items: [CalendarReminder] = []
            for stored in rows {
                guard let resource = stored.resource else { continue }
                items += resource.reminders(id: stored.id, from: from, to: to, budget: &budget)
                    .filter { reminder in query.after.map { (reminder.at, reminder.id) > ($0.start, $0.id) } ?? true }
                guard budget > 0 else { throw BFFStoreError.tooMuchWork }
            }
            items.sort { ($0.at, $0.id) < ($1.at, $1.id) }
            return (Array(items.prefix(query.limit)), items.count > query.limit)
        }
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
            guard let stored = try rows.map(StoredEvent.init(row:)).first, let current = stored.resource else { return .done(nil) }
            let rewrite = try change(current)
            return Self.synced(stored.calendar, owner: owner, missing: BFFStoreError.readOnlyCalendar).then { synced in
                switch rewrite {
                case .replace(let resource, let instance):
                    let event = WrittenEvent(resource)
                    return Self.replace(id: id, owner: owner, with: event, synced: synced ? stored.calendar : nil).then { _ in
                        .done(instance.flatMap { resource.apiEvent(id: id, instance: $0) } ?? event.apiEvent(id: id))
                    }
                case .split(let kept, let following):
                    let following = WrittenEvent(following)
                    return Self.replace(id: id, owner: owner, with: WrittenEvent(kept), synced: synced ? stored.calendar : nil).then { _ in
                        Self.insert(following, owner: owner, calendar: stored.calendar, synced: synced).then { newID in .done(following.apiEvent(id: newID)) }
                    }
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
            guard let stored = try rows.map(StoredEvent.init(row:)).first else { return .done(false) }
            let left = try stored.resource.flatMap(remaining)
            return Self.synced(stored.calendar, owner: owner, missing: BFFStoreError.readOnlyCalendar).then { synced in
                if let left {
                    return Self.replace(id: id, owner: owner, with: WrittenEvent(left), synced: synced ? stored.calendar : nil).then { _ in .done(true) }
                }
                // Deleted here, to be deleted on the CalDAV server at the next sync.
                let remembered: Plan<Void> = synced && stored.remoteHref != nil ? .run("""
                    INSERT INTO caldav_deletions (calendar_id, href, etag) VALUES (\(stored.calendar), \(stored.remoteHref), \(stored.remoteETag))
                        ON CONFLICT DO NOTHING
                    """) { _ in Self.syncSoon(stored.calendar) } : .done(())
                return remembered.then { _ in
                    .run("DELETE FROM calendar_events WHERE id = \(id) AND owner_id = \(owner)") { _ in
                        .record(.calendarEventDeleted, owner: owner, data: DeletedEntity(id: id), then: .done(true))
                    }
                }
            }
        }))
    }

    /// Inserts `event` as `owner`'s in `calendar`, within the quota; its id. In a `synced`
    /// calendar it is to be sent.
    private static func insert(_ event: WrittenEvent, owner: Int64, calendar: Int64, synced: Bool) -> Plan<Int64> {
        .run("SELECT COUNT(*) FROM calendar_events WHERE owner_id = \(owner)") { rows in
            try Self.checkQuota(rows, CalendarLimits.eventsPerUser, of: "calendar events")
            return Self.insertRow(event, owner: owner, calendar: calendar).then { id in
                let pending: Plan<Void> = synced ? Self.pending(id, calendar: calendar) : .done(())
                return pending.then { _ in .record(.calendarEventCreated, owner: owner, data: event.apiEvent(id: id), then: .done(id)) }
            }
        }
    }

    /// Rewrites the event; in a synced calendar (`synced`, its id) it is to be sent.
    private static func replace(id: Int64, owner: Int64, with event: WrittenEvent, synced calendar: Int64? = nil) -> Plan<Void> {
        updateRow(id: id, with: event).then { _ in
            let pending: Plan<Void> = calendar.map { Self.pending(id, calendar: $0) } ?? .done(())
            return pending.then { _ in .record(.calendarEventUpdated, owner: owner, data: event.apiEvent(id: id), then: .done(())) }
        }
    }

    /// Whether `calendar` of `owner`'s is synced with a CalDAV server (its changes to be sent):
    /// false for their own (0).
    /// - Throws: `BFFStoreError.readOnlyCalendar` for a subscription; `missing` when they have
    ///   no such calendar.
    private static func synced(_ calendar: Int64, owner: Int64, missing: BFFStoreError) -> Plan<Bool> {
        guard calendar != 0 else { return .done(false) }
        return .run("SELECT kind FROM calendars WHERE id = \(calendar) AND owner_id = \(owner) AND task_list = \(false)") { rows in
            guard let kind = try rows.first?.text(0) else { throw missing }
            guard kind == CalendarCollection.calDAV else { throw BFFStoreError.readOnlyCalendar }
            return .done(true)
        }
    }

    /// Marks the event as changed here, and its calendar due for a sync now.
    private static func pending(_ id: Int64, calendar: Int64) -> Plan<Void> {
        .run("UPDATE calendar_events SET pending = \(true) WHERE id = \(id)") { _ in syncSoon(calendar) }
    }

    /// Makes `calendar` due for a sync now.
    static func syncSoon(_ calendar: Int64) -> Plan<Void> {
        .run("UPDATE calendars SET refresh_due = \(UTCInstant.now) WHERE id = \(calendar)") { _ in .done(()) }
    }

    /// Inserts `event` in `owner`'s `calendar`; its id.
    static func insertRow(_ event: WrittenEvent, owner: Int64, calendar: Int64) -> Plan<Int64> {
        let index = event.index
        return .run("""
            INSERT INTO calendar_events (owner_id, calendar_id, title, start_at, end_at, all_day, uid, ical, series_end, repeats, created_at,
                updated_at)
            VALUES (\(owner), \(calendar), \(index.title), \(index.start), \(index.end), \(index.allDay), \(event.resource.uid), \(event.text),
                \(index.seriesEnd), \(index.repeats), \(.now), \(.now)) RETURNING id
            """) { rows in
            guard let id = try rows.first?.integer(0) else { throw BFFStoreError.unreadableRow("calendar_events, just written") }
            return .done(id)
        }
    }

    /// Rewrites the event with `id` as `event`.
    static func updateRow(id: Int64, with event: WrittenEvent) -> Plan<Void> {
        let index = event.index
        return .run("""
            UPDATE calendar_events SET title = \(index.title), start_at = \(index.start), end_at = \(index.end), all_day = \(index.allDay),
                uid = \(event.resource.uid), ical = \(event.text), series_end = \(index.seriesEnd), repeats = \(index.repeats),
                updated_at = \(.now) WHERE id = \(id)
            """) { _ in .done(()) }
    }
}

/// An event about to be written, with what its row holds of it worked out once.
struct WrittenEvent: Sendable {
    let resource: EventResource
    let index: EventIndex
    let text: String
    /// As the API shows it, its id to come.
    private let shown: CalendarEvent

    init(_ resource: EventResource) {
        self.resource = resource
        index = resource.index
        text = resource.text
        shown = resource.apiEvent(id: 0, index: index)
    }

    func apiEvent(id: Int64) -> CalendarEvent {
        var event = shown
        event.id = id
        return event
    }
}

/// The columns of a stored event, in the order `StoredEvent.init(row:)` reads them.
let storedColumns: SQLStatement = "id, title, start_at, end_at, all_day, uid, ical, calendar_id, remote_href, remote_etag"

/// A row of `calendar_events` as read: its text is read as iCalendar once the database's
/// connection is free again (`resource`).
struct StoredEvent: Sendable {
    let id: Int64
    let title: String
    let start: String
    let end: String
    let allDay: Bool
    let uid: String?
    let ical: String?
    /// Its `CalendarCollection`; 0 for the user's own calendar.
    let calendar: Int64
    /// Of a synced calendar's event: where it is on the CalDAV server, and its ETag there.
    let remoteHref: String?
    let remoteETag: String?

    init(row: SQLRow) throws {
        (id, title, start, end) = (try row.integer(0), try row.text(1), try row.text(2), try row.text(3))
        (allDay, uid, ical, calendar) = (try row.bool(4), try row.optionalText(5), try row.optionalText(6), try row.integer(7))
        (remoteHref, remoteETag) = (try row.optionalText(8), try row.optionalText(9))
    }

    /// `events` of it as the API shows them: with their calendar, its colour, and read-only when
    /// it is a subscription's.
    func shown(_ events: [CalendarEvent], looks: [Int64: CalendarLook]) -> [CalendarEvent] {
        guard calendar != 0 else { return events }
        let look = looks[calendar]
        return events.map { event in
            var event = event
            event.calendar = calendar
            event.colour = look?.colour
            event.readOnly = look?.readOnly == true ? true : nil
            return event
        }
    }

    /// Nil for a row that cannot be read as an event (its times or its text written by hand): it
    /// is left out rather than shown wrong. A row from before events were iCalendar (no text) is
    /// the event its columns describe.
    var resource: EventResource? {
        if let ical {
            guard let calendar = (try? ICalendarText.read(ical))?.first else { return nil }
            return try? EventResource(calendar: calendar, zones: SystemZones.zone)
        }
        guard let start = UTCInstant(iso: start), let end = UTCInstant(iso: end) else { return nil }
        return EventResource.new(uid: uid ?? "termcanvas-event-\(id)", event: CalendarEvent(id: id, title: title, start: start, end: end, allDay: allDay),
                                 stamp: start, zones: SystemZones.zone)
    }
}
