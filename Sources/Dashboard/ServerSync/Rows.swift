import CalendarTime
import FoundationEssentials
import SQLiteDatabase
import ServerAPI

// How the API's records map to the cache's rows. Rows are read by position, from each type's
// `columns` in that order; with `decode`, which throws for a value of the wrong type (a file
// edited or damaged on disk) rather than ending the dashboard.

extension TodoItem {
    static let columns = "id, title, notes, done, due, priority"

    init(row: Row) throws {
        try self.init(id: row.decode(atIndex: 0), title: row.decode(atIndex: 1), notes: row.decode(atIndex: 2),
                      done: row.decode(atIndex: 3), due: row.decode(atIndex: 4))
        priority = try (row.decode(atIndex: 5) as Int?).flatMap { TodoLimits.priorities.contains($0) ? $0 : nil }
    }

    /// Every item, by id.
    static func all(in db: Database) throws -> [TodoItem] {
        try Row.fetchAll(db, sql: "SELECT \(columns) FROM todo ORDER BY id").map(TodoItem.init(row:))
    }

    func save(in db: Database) throws {
        try db.execute(sql: "INSERT OR REPLACE INTO todo (id, title, notes, done, due, priority) VALUES (?, ?, ?, ?, ?, ?)",
                       arguments: [id, title, notes, done, due, priority])
    }

    static func fetch(_ id: Int64, in db: Database) throws -> TodoItem? {
        try Row.fetchOne(db, sql: "SELECT \(columns) FROM todo WHERE id = ?", arguments: [id]).map(TodoItem.init(row:))
    }
}

extension CalendarEvent {
    static let columns = #"id, title, start, "end", allDay, json"#

    /// The event as the server gave it (`json`), or as its columns say (a row from before).
    init(row: Row) throws {
        if let json: String = try row.decode(atIndex: 5), let event = try? JSONDecoder().decode(CalendarEvent.self, from: Data(json.utf8)) {
            self = event
            return
        }
        try self.init(id: row.decode(atIndex: 0), title: row.decode(atIndex: 1), start: row.decode(atIndex: 2),
                      end: row.decode(atIndex: 3), allDay: row.decode(atIndex: 4))
    }

    func save(in db: Database) throws {
        let json = String(decoding: try JSONEncoder().encode(self), as: UTF8.self)
        try db.execute(sql: #"INSERT OR REPLACE INTO calendarEvent (id, instanceStart, title, start, "end", allDay, json) VALUES (?, ?, ?, ?, ?, ?, ?)"#,
                       arguments: [id, instanceStart?.iso ?? "", title, start, end, allDay, json])
    }

    /// The event with this id, or the first of its instances.
    static func fetch(_ id: Int64, in db: Database) throws -> CalendarEvent? {
        try Row.fetchOne(db, sql: "SELECT \(columns) FROM calendarEvent WHERE id = ? ORDER BY start", arguments: [id]).map(CalendarEvent.init(row:))
    }

    /// The instances of this id the cache has (the event itself, when it does not repeat).
    static func instances(of id: Int64, in db: Database) throws -> [CalendarEvent] {
        try Row.fetchAll(db, sql: "SELECT \(columns) FROM calendarEvent WHERE id = ? ORDER BY start", arguments: [id]).map(CalendarEvent.init(row:))
    }

    /// This instance with `patch` applied as a change of several instances applies it: its
    /// start and end move by as much as `named`'s did when it became `moved`.
    func patched(_ patch: CalendarEventPatch, movedLike named: CalendarEvent, to moved: CalendarEvent) -> CalendarEvent {
        var event = patched(patch)
        guard patch.changesTimes else { return event }
        event.start = start.adding(seconds: moved.start.secondsSinceEpoch - named.start.secondsSinceEpoch)
        event.end = end.adding(seconds: moved.end.secondsSinceEpoch - named.end.secondsSinceEpoch)
        return event
    }
}

extension ChatMessage {
    static let columns = "id, channel, author, text, sentAt"

    init(row: Row) throws {
        try self.init(id: row.decode(atIndex: 0), channel: row.decode(atIndex: 1), author: row.decode(atIndex: 2),
                      text: row.decode(atIndex: 3), sentAt: row.decode(atIndex: 4))
    }

    func save(in db: Database) throws {
        try db.execute(sql: "INSERT OR REPLACE INTO chatMessage (id, channel, author, text, sentAt) VALUES (?, ?, ?, ?, ?)",
                       arguments: [id, channel, author, text, sentAt])
    }
}

extension ChatChannel {
    func save(in db: Database) throws {
        try db.execute(sql: "INSERT OR REPLACE INTO chatChannel (id, name) VALUES (?, ?)", arguments: [id, name])
    }
}
