import CalendarTime
import Foundation
import MicroAppAPI
import PostgresNIO

extension PostgresStore {
    public func createCalendarEvent(owner: Int64, title: String, start: UTCInstant, end: UTCInstant, allDay: Bool) async throws
        -> CalendarEvent {
        try await keyedTransaction { connection in
            let id = try await connection.rows("""
                INSERT INTO calendar_events (owner_id, title, start_at, end_at, all_day)
                VALUES (\(owner), \(title), \(start.iso), \(end.iso), \(allDay)) RETURNING id
                """, as: Int64.self, logger: logger)[0]
            let event = CalendarEvent(id: id, title: title, start: start, end: end, allDay: allDay)
            try await record(.calendarEventCreated, owner: owner, data: event, on: connection)
            return event
        }
    }

    public func calendarEvent(id: Int64, owner: Int64) async throws -> CalendarEvent? {
        try await rows("SELECT id, title, start_at, end_at, all_day FROM calendar_events WHERE id = \(id) AND owner_id = \(owner)",
                       as: EventColumns.self).compactMap(Self.calendarEvent).first
    }

    /// As `SQLiteStore`'s: events overlapping the range, by start then id.
    public func calendarEvents(owner: Int64, query: CalendarQuery) async throws -> (items: [CalendarEvent], more: Bool) {
        var sql = SQL("SELECT id, title, start_at, end_at, all_day FROM calendar_events WHERE owner_id = ", owner)
        if let to = query.to { sql.append(" AND start_at <= ", to.iso) }
        if let from = query.from {
            sql.append(" AND (end_at > ", from.iso)
            sql.append(" OR start_at >= ", from.iso)
            sql.append(")")
        }
        if let after = query.after {
            sql.append(" AND (start_at > ", after.start.iso)
            sql.append(" OR (start_at = ", after.start.iso)
            sql.append(" AND id > ", after.id)
            sql.append("))")
        }
        sql.append(" ORDER BY start_at, id LIMIT ", Int64(query.limit + 1))
        let found = try await rows(sql.query, as: EventColumns.self)
        return (found.prefix(query.limit).compactMap(Self.calendarEvent), found.count > query.limit)
    }

    public func updateCalendarEvent(id: Int64, owner: Int64, applying change: @escaping @Sendable (CalendarEvent) throws -> CalendarEvent) async throws
        -> CalendarEvent? {
        try await keyedTransaction { connection -> CalendarEvent? in
            guard let current = try await connection.rows("""
                SELECT id, title, start_at, end_at, all_day FROM calendar_events WHERE id = \(id) AND owner_id = \(owner) FOR UPDATE
                """, as: EventColumns.self, logger: logger).first.flatMap(Self.calendarEvent) else { return nil }
            var event = try change(current)
            event.id = id
            try await connection.run("""
                UPDATE calendar_events SET title = \(event.title), start_at = \(event.start.iso), end_at = \(event.end.iso),
                    all_day = \(event.allDay), updated_at = now() WHERE id = \(id)
                """, logger: logger)
            try await record(.calendarEventUpdated, owner: owner, data: event, on: connection)
            return event
        }
    }

    public func deleteCalendarEvent(id: Int64, owner: Int64) async throws -> Bool {
        try await keyedTransaction { connection in
            let deleted = try await connection.run("DELETE FROM calendar_events WHERE id = \(id) AND owner_id = \(owner) RETURNING 1",
                                                   logger: logger) > 0
            if deleted { try await record(.calendarEventDeleted, owner: owner, data: DeletedEntity(id: id), on: connection) }
            return deleted
        }
    }

    typealias EventColumns = (Int64, String, String, String, Bool)

    /// Nil for a row whose times are not ISO text (written by hand): it is left out rather than shown wrong.
    static func calendarEvent(_ columns: EventColumns) -> CalendarEvent? {
        guard let start = UTCInstant(iso: columns.2), let end = UTCInstant(iso: columns.3) else { return nil }
        return CalendarEvent(id: columns.0, title: columns.1, start: start, end: end, allDay: columns.4)
    }
}
