import CalendarTime
import GRDB
import MicroAppAPI

// How the API's records map to the cache's rows. Rows are read by position, from each type's
// `columns` in that order, which skips GRDB's lookup by name (a case-insensitive search per
// column of every row).

extension TodoItem {
    static let columns = "id, title, notes, done, due"

    init(row: Row) {
        self.init(id: row[0], title: row[1], notes: row[2], done: row[3], due: row[4])
    }

    /// Every item, by id.
    static func all(in db: Database) throws -> [TodoItem] {
        let rows = try Row.fetchCursor(db, sql: "SELECT \(columns) FROM todo ORDER BY id")
        var items: [TodoItem] = []
        while let row = try rows.next() { items.append(TodoItem(row: row)) }
        return items
    }

    func save(in db: Database) throws {
        try db.execute(sql: "INSERT OR REPLACE INTO todo (id, title, notes, done, due) VALUES (?, ?, ?, ?, ?)",
                       arguments: [id, title, notes, done, due])
    }

    static func fetch(_ id: Int64, in db: Database) throws -> TodoItem? {
        try Row.fetchOne(db, sql: "SELECT \(columns) FROM todo WHERE id = ?", arguments: [id]).map(TodoItem.init(row:))
    }

    /// The item with `patch` applied, as the server would.
    func patched(_ patch: TodoPatch) -> TodoItem {
        var item = self
        if let title = patch.title { item.title = title }
        if let notes = patch.notes { item.notes = notes }
        if let done = patch.done { item.done = done }
        if let due = patch.due { item.due = due.flatMap(CalendarDate.init(iso:)) }
        return item
    }
}

extension CalendarEvent {
    static let columns = #"id, title, start, "end", allDay"#

    init(row: Row) {
        self.init(id: row[0], title: row[1], start: row[2], end: row[3], allDay: row[4])
    }

    func save(in db: Database) throws {
        try db.execute(sql: #"INSERT OR REPLACE INTO calendarEvent (id, title, start, "end", allDay) VALUES (?, ?, ?, ?, ?)"#,
                       arguments: [id, title, start, end, allDay])
    }

    static func fetch(_ id: Int64, in db: Database) throws -> CalendarEvent? {
        try Row.fetchOne(db, sql: "SELECT \(columns) FROM calendarEvent WHERE id = ?", arguments: [id]).map(CalendarEvent.init(row:))
    }

    func patched(_ patch: CalendarEventPatch) -> CalendarEvent {
        var event = self
        if let title = patch.title { event.title = title }
        if let start = patch.start.flatMap(UTCInstant.init(iso:)) { event.start = start }
        if let end = patch.end.flatMap(UTCInstant.init(iso:)) { event.end = end }
        if let allDay = patch.allDay { event.allDay = allDay }
        return event
    }
}

extension ChatMessage {
    static let columns = "id, channel, author, text, sentAt"

    init(row: Row) {
        self.init(id: row[0], channel: row[1], author: row[2], text: row[3], sentAt: row[4])
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
