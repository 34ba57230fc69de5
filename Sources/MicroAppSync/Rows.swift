import GRDB
import MicroAppAPI

// How the API's records map to the cache's rows.

extension TodoItem {
    init(row: Row) {
        self.init(id: row["id"], title: row["title"], notes: row["notes"], done: row["done"], due: row["due"])
    }

    func save(in db: Database) throws {
        try db.execute(sql: "INSERT OR REPLACE INTO todo (id, title, notes, done, due) VALUES (?, ?, ?, ?, ?)",
                       arguments: [id, title, notes, done, due])
    }

    static func fetch(_ id: Int64, in db: Database) throws -> TodoItem? {
        try Row.fetchOne(db, sql: "SELECT * FROM todo WHERE id = ?", arguments: [id]).map(TodoItem.init(row:))
    }

    /// The item with `patch` applied, as the server would.
    func patched(_ patch: TodoPatch) -> TodoItem {
        var item = self
        if let title = patch.title { item.title = title }
        if let notes = patch.notes { item.notes = notes }
        if let done = patch.done { item.done = done }
        if let due = patch.due { item.due = due }
        return item
    }
}

extension CalendarEvent {
    init(row: Row) {
        self.init(id: row["id"], title: row["title"], start: row["start"], end: row["end"], allDay: row["allDay"])
    }

    func save(in db: Database) throws {
        try db.execute(sql: #"INSERT OR REPLACE INTO calendarEvent (id, title, start, "end", allDay) VALUES (?, ?, ?, ?, ?)"#,
                       arguments: [id, title, start, end, allDay])
    }

    static func fetch(_ id: Int64, in db: Database) throws -> CalendarEvent? {
        try Row.fetchOne(db, sql: "SELECT * FROM calendarEvent WHERE id = ?", arguments: [id]).map(CalendarEvent.init(row:))
    }

    func patched(_ patch: CalendarEventPatch) -> CalendarEvent {
        var event = self
        if let title = patch.title { event.title = title }
        if let start = patch.start { event.start = start }
        if let end = patch.end { event.end = end }
        if let allDay = patch.allDay { event.allDay = allDay }
        return event
    }
}

extension ChatMessage {
    init(row: Row) {
        self.init(id: row["id"], channel: row["channel"], author: row["author"], text: row["text"], sentAt: row["sentAt"])
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
