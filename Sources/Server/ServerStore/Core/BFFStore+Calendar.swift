import CalendarTime
import ServerAPI

/// Calendar events: each is its owner's, times are UTC ISO text (so ranges compare as text),
/// lists go by start then id, and a change records its live event in its transaction.
extension BFFStore {
    /// Creates an event owned by `owner`; the fields must already be valid and in UTC.
    /// - Throws: `BFFStoreError.quotaReached` past `CalendarLimits.eventsPerUser`.
    package func createCalendarEvent(owner: Int64, title: String, start: UTCInstant, end: UTCInstant, allDay: Bool) async throws
        -> CalendarEvent {
        // The owner's lock: instances creating at once cannot both take the last place.
        try await keyedWrite(.lock("calendar.owner.\(owner)", next: .run("SELECT COUNT(*) FROM calendar_events WHERE owner_id = \(owner)") { rows in
            try Self.checkQuota(rows, CalendarLimits.eventsPerUser, of: "calendar events")
            return .run("""
                INSERT INTO calendar_events (owner_id, title, start_at, end_at, all_day, created_at, updated_at)
                VALUES (\(owner), \(title), \(start), \(end), \(allDay), \(.now), \(.now)) RETURNING id
                """) { rows in
                guard let id = try rows.first?.integer(0) else { throw BFFStoreError.unreadableRow("calendar_events, just written") }
                let event = CalendarEvent(id: id, title: title, start: start, end: end, allDay: allDay)
                return .record(.calendarEventCreated, owner: owner, data: event, then: .done(event))
            }
        }))
    }

    /// The event with this id if `owner` owns it.
    package func calendarEvent(id: Int64, owner: Int64) async throws -> CalendarEvent? {
        try await runRead(Plan.run("SELECT \(eventColumns) FROM calendar_events WHERE id = \(id) AND owner_id = \(owner)") { rows in
            .done(try rows.compactMap(CalendarEvent.init(row:)).first)
        }, snapshot: false)
    }

    /// One page of `owner`'s events that overlap the query's range, by start then id, and whether
    /// more follow. An event overlaps when it starts by `to` and has not ended before `from` (an
    /// event ending exactly at `from` does not overlap, unless it is an instant at `from`).
    package func calendarEvents(owner: Int64, query: CalendarQuery) async throws -> (items: [CalendarEvent], more: Bool) {
        var statement: SQLStatement = "SELECT \(eventColumns) FROM calendar_events WHERE owner_id = \(owner)"
        if let to = query.to { statement += " AND start_at <= \(to)" }
        if let from = query.from { statement += " AND (end_at > \(from) OR start_at >= \(from))" }
        if let after = query.after {
            statement += " AND (start_at > \(after.start) OR (start_at = \(after.start) AND id > \(after.id)))"
        }
        statement += " ORDER BY start_at, id LIMIT \(query.limit + 1)"
        return try await runRead(Plan.run(statement) { rows in
            .done((Array(try rows.compactMap(CalendarEvent.init(row:)).prefix(query.limit)), rows.count > query.limit))
        }, snapshot: false)
    }

    /// Replaces `owner`'s event by what `change` makes of it (which validates); nil when there is
    /// no such event of theirs.
    package func updateCalendarEvent(id: Int64, owner: Int64, applying change: @escaping @Sendable (CalendarEvent) throws -> CalendarEvent)
        async throws -> CalendarEvent? {
        try await keyedWrite(Plan.run("""
            SELECT \(eventColumns) FROM calendar_events WHERE id = \(id) AND owner_id = \(owner)\(.forUpdate)
            """) { rows -> Plan<CalendarEvent?> in
            guard let current = try rows.compactMap(CalendarEvent.init(row:)).first else { return .done(nil) }
            var event = try change(current)
            event.id = id
            return .run("""
                UPDATE calendar_events SET title = \(event.title), start_at = \(event.start), end_at = \(event.end),
                    all_day = \(event.allDay), updated_at = \(.now) WHERE id = \(id)
                """) { [event] _ in .record(.calendarEventUpdated, owner: owner, data: event, then: .done(event)) }
        })
    }

    /// Deletes `owner`'s event; returns whether there was one.
    package func deleteCalendarEvent(id: Int64, owner: Int64) async throws -> Bool {
        try await keyedWrite(Plan.run("DELETE FROM calendar_events WHERE id = \(id) AND owner_id = \(owner) RETURNING 1") { rows in
            guard !rows.isEmpty else { return .done(false) }
            return .record(.calendarEventDeleted, owner: owner, data: DeletedEntity(id: id), then: .done(true))
        })
    }
}

/// The columns of an API event, in the order `CalendarEvent.init(row:)` reads them.
private let eventColumns: SQLStatement = "id, title, start_at, end_at, all_day"

extension CalendarEvent {
    /// An API event from a row of `eventColumns`; nil for a row whose times are not ISO text
    /// (written by hand): it is left out rather than shown wrong.
    fileprivate init?(row: SQLRow) throws {
        guard let start = UTCInstant(iso: try row.text(2)), let end = UTCInstant(iso: try row.text(3)) else { return nil }
        self.init(id: try row.integer(0), title: try row.text(1), start: start, end: end, allDay: try row.bool(4))
    }
}
