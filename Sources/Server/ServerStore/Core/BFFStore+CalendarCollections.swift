import CalendarItems
import CalendarTime
import ServerAPI

/// Calendars besides the user's own (`CalendarCollection`): today subscriptions, whose events a
/// reading replaces as a whole (by UID: unchanged ones stay, their ids too), each reading one
/// `calendar.collection.updated` live event rather than one per event. Subscriptions due for a
/// reading are handed out one at a time across the server's instances (`claimDueCalendar`).
extension BFFStore {
    /// What a reading of a subscription found.
    package enum SubscriptionReading: Sendable {
        /// The file as read now, with the validators to send next time.
        case read(events: [EventResource], etag: String?, lastModified: String?)
        /// The server said it has not changed (304).
        case unchanged
        /// Why it could not be read, in our words: the events stay as they were.
        case failed(String)
    }

    /// A subscription due for a reading.
    package struct DueSubscription: Sendable {
        package let id: Int64
        package let owner: Int64
        package let url: String
        package let etag: String?
        package let lastModified: String?
    }

    /// `owner`'s calendars, by id.
    package func calendarCollections(owner: Int64) async throws -> [CalendarCollection] {
        try await runRead(Self.collections(owner: owner, id: nil), snapshot: false)
    }

    /// A new subscription of `owner`'s, with its first reading's events.
    /// - Throws: `BFFStoreError.quotaReached` past `CalendarCollectionLimits.perUser`, or when its
    ///   events would take the user past `CalendarLimits.eventsPerUser`.
    package func createSubscription(owner: Int64, name: String, colour: String?, url: String, events: [EventResource], etag: String?,
                                    lastModified: String?, refreshAfter seconds: Int64, now: UTCInstant) async throws -> CalendarCollection {
        let written = try await offThePool { events.map(WrittenEvent.init) }
        let due = now.adding(seconds: seconds)
        return try await runWrite(.lock("calendar.owner.\(owner)", next: Plan.run("SELECT COUNT(*) FROM calendars WHERE owner_id = \(owner)") { rows in
            try Self.checkQuota(rows, CalendarCollectionLimits.perUser, of: "calendars")
            return .run("""
                INSERT INTO calendars (owner_id, name, colour, kind, url, etag, last_modified, refreshed_at, refresh_due, created_at)
                VALUES (\(owner), \(name), \(colour), \(CalendarCollection.subscription), \(url), \(etag), \(lastModified), \(now), \(due), \(now))
                RETURNING id
                """) { rows in
                guard let id = try rows.first?.integer(0) else { throw BFFStoreError.unreadableRow("calendars, just written") }
                return Self.replaceEvents(of: id, owner: owner, with: written).then { _ in
                    Self.collections(owner: owner, id: id).then { made in
                        guard let collection = made.first else { throw BFFStoreError.unreadableRow("calendars, just written") }
                        return .record(.calendarCollectionCreated, owner: owner, data: collection, then: .done(collection))
                    }
                }
            }
        }))
    }

    /// Renames or recolours `owner`'s calendar; nil when they have no such calendar.
    package func updateCalendarCollection(id: Int64, owner: Int64, name: String?, colour: String??) async throws -> CalendarCollection? {
        var assignments: SQLStatement = "owner_id = owner_id"
        if let name { assignments += ", name = \(name)" }
        if let colour { assignments += ", colour = \(colour)" }
        return try await runWrite(.lock("calendar.owner.\(owner)", next: Plan.run("""
            UPDATE calendars SET \(assignments) WHERE id = \(id) AND owner_id = \(owner) RETURNING id
            """) { rows in
            guard !rows.isEmpty else { return .done(nil) }
            return Self.collections(owner: owner, id: id).then { found in
                guard let collection = found.first else { return .done(nil) }
                return .record(.calendarCollectionUpdated, owner: owner, data: collection, then: .done(collection))
            }
        }))
    }

    /// Removes `owner`'s calendar and its events (a task list's tasks); whether there was one.
    package func deleteCalendarCollection(id: Int64, owner: Int64) async throws -> Bool {
        try await runWrite(.lock("calendar.owner.\(owner)", next: Plan.run("""
            DELETE FROM calendars WHERE id = \(id) AND owner_id = \(owner) RETURNING id
            """) { rows in
            guard !rows.isEmpty else { return .done(false) }
            return .run("DELETE FROM calendar_events WHERE owner_id = \(owner) AND calendar_id = \(id)") { _ in
                .run("DELETE FROM todo_items WHERE owner_id = \(owner) AND list_id = \(id)") { _ in
                    // A CalDAV account whose last calendar went goes too (its password with it); new
                    // events and items go to the user's own calendar and list again if they went here.
                    .run("""
                        DELETE FROM caldav_accounts WHERE owner_id = \(owner)
                            AND NOT EXISTS (SELECT 1 FROM calendars c WHERE c.account_id = caldav_accounts.id)
                        """) { _ in
                        .run("""
                            UPDATE users SET default_calendar_id = CASE WHEN default_calendar_id = \(id) THEN 0 ELSE default_calendar_id END,
                                default_list_id = CASE WHEN default_list_id = \(id) THEN 0 ELSE default_list_id END WHERE id = \(owner)
                            """) { _ in
                            .record(.calendarCollectionDeleted, owner: owner, data: DeletedEntity(id: id), then: .done(true))
                        }
                    }
                }
            }
        }))
    }

    /// The subscription of `owner`'s with this id, to read now.
    package func subscription(id: Int64, owner: Int64) async throws -> DueSubscription? {
        try await runRead(Plan.run("""
            SELECT id, owner_id, url, etag, last_modified FROM calendars WHERE id = \(id) AND owner_id = \(owner)
                AND kind = \(CalendarCollection.subscription)
            """) { rows in .done(try rows.map(DueSubscription.init(row:)).first) }, snapshot: false)
    }

    /// A calendar due to be read or synced.
    package struct DueCalendar: Sendable {
        package let id: Int64
        package let owner: Int64
        package let kind: String

        package init(id: Int64, owner: Int64, kind: String) {
            self.id = id
            self.owner = owner
            self.kind = kind
        }
    }

    /// The calendar whose reading (a subscription's) or sync (CalDAV's) is most overdue at `now`,
    /// now this instance's: it is not due again for `seconds`, so no other instance takes it
    /// meanwhile (nor this one again, should the work never end). Nil when none is due.
    package func claimDueCalendar(now: UTCInstant, holdingFor seconds: Int64) async throws -> DueCalendar? {
        try await runWrite(Plan.run("""
            UPDATE calendars SET refresh_due = \(now.adding(seconds: seconds)) WHERE id = (
                SELECT id FROM calendars WHERE refresh_due <= \(now) ORDER BY refresh_due LIMIT 1\(.forUpdateSkipLocked))
            RETURNING id, owner_id, kind
            """) { rows in .done(try rows.map { DueCalendar(id: try $0.integer(0), owner: try $0.integer(1), kind: try $0.text(2)) }.first) })
    }

    /// When the next calendar is due; nil when there is none.
    package func nextCalendarDue() async throws -> UTCInstant? {
        try await runRead(Plan.run("SELECT MIN(refresh_due) FROM calendars") { rows in
            .done(try rows.first?.optionalText(0).flatMap(UTCInstant.init(iso:)))
        }, snapshot: false)
    }

    /// Keeps what a reading of `subscription` found, and when it is next due; the calendar as it
    /// now is, or nil when it was removed meanwhile.
    /// - Throws: `BFFStoreError.quotaReached` when its events would take the user past
    ///   `CalendarLimits.eventsPerUser` (nothing is changed).
    @discardableResult
    package func keepReading(_ reading: SubscriptionReading, of subscription: DueSubscription, now: UTCInstant,
                             nextIn seconds: Int64) async throws -> CalendarCollection? {
        let (id, owner) = (subscription.id, subscription.owner)
        let due = now.adding(seconds: seconds)
        let written: [WrittenEvent]?
        if case .read(let events, _, _) = reading {
            written = try await offThePool { events.map(WrittenEvent.init) }
        } else {
            written = nil
        }
        let changes: SQLStatement = switch reading {
        case .read(_, let etag, let lastModified):
            "etag = \(etag), last_modified = \(lastModified), refreshed_at = \(now), problem = NULL"
        case .unchanged: "refreshed_at = \(now), problem = NULL"
        case .failed(let problem): "problem = \(problem)"
        }
        return try await runWrite(.lock("calendar.owner.\(owner)", next: Plan.run("""
            UPDATE calendars SET \(changes), refresh_due = \(due) WHERE id = \(id) AND owner_id = \(owner) RETURNING id
            """) { rows in
            guard !rows.isEmpty else { return .done(nil) }
            let replaced: Plan<Void> = written.map { Self.replaceEvents(of: id, owner: owner, with: $0) } ?? .done(())
            return replaced.then { _ in
                Self.collections(owner: owner, id: id).then { found in
                    guard let collection = found.first else { return .done(nil) }
                    return .record(.calendarCollectionUpdated, owner: owner, data: collection, then: .done(collection))
                }
            }
        }))
    }

    /// How `owner`'s calendars show their events: colour, and whether they can be changed.
    static func calendarLooks(owner: Int64) -> Plan<[Int64: CalendarLook]> {
        .run("SELECT id, colour, kind FROM calendars WHERE owner_id = \(owner)") { rows in
            .done(Dictionary(try rows.map { row in
                (try row.integer(0), CalendarLook(colour: try row.optionalText(1), readOnly: try row.text(2) == CalendarCollection.subscription))
            }, uniquingKeysWith: { first, _ in first }))
        }
    }

    /// `owner`'s calendars, or the one with `id`, with their events counted.
    static func collections(owner: Int64, id: Int64?) -> Plan<[CalendarCollection]> {
        let one: SQLStatement = id.map { " AND c.id = \($0)" } ?? ""
        return .run("""
            SELECT c.id, c.name, c.colour, c.kind, c.url, c.refreshed_at, c.refresh_due, c.problem, c.task_list, CASE WHEN c.task_list
                THEN (SELECT COUNT(*) FROM todo_items t WHERE t.owner_id = c.owner_id AND t.list_id = c.id)
                ELSE (SELECT COUNT(*) FROM calendar_events e WHERE e.owner_id = c.owner_id AND e.calendar_id = c.id) END
            FROM calendars c WHERE c.owner_id = \(owner)\(one) ORDER BY c.id
            """) { rows in
            .done(try rows.map { row in
                let kind = try row.text(3)
                var collection = CalendarCollection(id: try row.integer(0), name: try row.text(1), colour: try row.optionalText(2), kind: kind,
                                                    url: try row.optionalText(4), readOnly: kind == CalendarCollection.subscription,
                                                    events: Int(clamping: try row.integer(9)), refreshedAt: try row.optionalText(5),
                                                    nextRefreshAt: try row.optionalText(6), problem: try row.optionalText(7))
                if try row.bool(8) { collection.taskList = true }
                return collection
            })
        }
    }

    /// Makes the events of calendar `id` those of `events` (by UID): an event whose text is as
    /// stored stays untouched, a changed one is rewritten in place, a new one inserted within the
    /// user's quota, and one no longer there deleted.
    private static func replaceEvents(of id: Int64, owner: Int64, with events: [WrittenEvent]) -> Plan<Void> {
        .run("SELECT id, uid, ical FROM calendar_events WHERE owner_id = \(owner) AND calendar_id = \(id)") { rows in
            let pairs = try rows.compactMap { row -> (String, (id: Int64, text: String?))? in
                guard let uid = try row.optionalText(1) else { return nil }
                return (uid, (try row.integer(0), try row.optionalText(2)))
            }
            let stored = Dictionary(pairs, uniquingKeysWith: { first, _ in first })
            let kept = Set(events.map(\.resource.uid))
            var steps: [CalendarStep] = stored.filter { !kept.contains($0.key) }.map { .delete($0.value.id) }
            for event in events {
                if let old = stored[event.resource.uid] {
                    if old.text != event.text { steps.append(.update(old.id, href: nil, etag: nil, event: event)) }
                } else {
                    steps.append(.insert(href: nil, etag: nil, event: event))
                }
            }
            return CalendarStep.run(steps, owner: owner, calendar: id)
        }
    }
}

extension BFFStore.DueSubscription {
    init(row: SQLRow) throws {
        (id, owner, url) = (try row.integer(0), try row.integer(1), try row.text(2))
        (etag, lastModified) = (try row.optionalText(3), try row.optionalText(4))
    }
}

/// How a calendar's events are shown.
struct CalendarLook: Sendable {
    let colour: String?
    let readOnly: Bool
}
