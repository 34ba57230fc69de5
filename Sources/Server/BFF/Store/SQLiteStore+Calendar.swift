import CalendarTime
import Foundation
import GRDB
import MicroAppAPI

extension SQLiteStore {
    /// Creates an event owned by `owner`; the fields must already be valid and in UTC.
    public func createCalendarEvent(owner: Int64, title: String, start: UTCInstant, end: UTCInstant, allDay: Bool) async throws -> CalendarEvent {
        try keyedWrite { db in
            let now = Date()
            var record = CalendarEventRecord(
                id: nil, ownerId: owner, title: title, start: start, end: end, allDay: allDay, createdAt: now, updatedAt: now
            )
            try record.insert(db)
            try self.record(.calendarEventCreated, owner: owner, data: record.event, in: db)
            return record.event
        }
    }

    /// The event with this id if `owner` owns it; nil otherwise, so ids of others' events do not leak.
    public func calendarEvent(id: Int64, owner: Int64) async throws -> CalendarEvent? {
        try read { db in try ownedCalendarEvent(db, id: id, owner: owner)?.event }
    }

    /// One page of `owner`'s events that overlap the query's range, by start then id, and whether
    /// more follow. An event overlaps when it starts by `to` and has not ended before `from` (an
    /// event ending exactly at `from` does not overlap, unless it is an instant at `from`).
    public func calendarEvents(owner: Int64, query: CalendarQuery) async throws -> (items: [CalendarEvent], more: Bool) {
        try read { db in
            typealias Columns = CalendarEventRecord.Columns
            var request = CalendarEventRecord.filter(Columns.ownerId == owner)
            if let to = query.to { request = request.filter(Columns.start <= to) }
            if let from = query.from { request = request.filter(Columns.end > from || Columns.start >= from) }
            if let after = query.after {
                request = request.filter(Columns.start > after.start || (Columns.start == after.start && Columns.id > after.id))
            }
            let rows = try Row.fetchAll(
                db, request.select(CalendarEventRecord.eventSelection).order(Columns.start, Columns.id).limit(query.limit + 1)
            )
            return (rows.prefix(query.limit).map(CalendarEventRecord.event), rows.count > query.limit)
        }
    }

    /// Replaces `owner`'s event by what `change` makes of it (which validates); nil when there is
    /// no such event of theirs.
    public func updateCalendarEvent(id: Int64, owner: Int64, applying change: @escaping @Sendable (CalendarEvent) throws -> CalendarEvent) async throws -> CalendarEvent? {
        try keyedWrite { db in
            guard var record = try ownedCalendarEvent(db, id: id, owner: owner) else { return nil }
            let changed = try change(record.event)
            record.title = changed.title
            record.start = changed.start
            record.end = changed.end
            record.allDay = changed.allDay
            record.updatedAt = Date()
            try record.update(db)
            try self.record(.calendarEventUpdated, owner: owner, data: record.event, in: db)
            return record.event
        }
    }

    /// Deletes `owner`'s event; returns whether there was one.
    public func deleteCalendarEvent(id: Int64, owner: Int64) async throws -> Bool {
        try keyedWrite { db in
            let deleted = try CalendarEventRecord
                .filter(CalendarEventRecord.Columns.id == id && CalendarEventRecord.Columns.ownerId == owner)
                .deleteAll(db) > 0
            if deleted { try record(.calendarEventDeleted, owner: owner, data: DeletedEntity(id: id), in: db) }
            return deleted
        }
    }

    private func ownedCalendarEvent(_ db: Database, id: Int64, owner: Int64) throws -> CalendarEventRecord? {
        try CalendarEventRecord
            .filter(CalendarEventRecord.Columns.id == id && CalendarEventRecord.Columns.ownerId == owner).fetchOne(db)
    }
}
