import AppModel
import CanvasCore
import SQLiteDatabase
import ServerAPI

extension SyncCache {
    // MARK: Reads

    func todos() async throws -> [TodoItem] {
        try await writer.read { db in try TodoItem.all(in: db) }
    }

    /// Events overlapping the UTC date-times `from`..<`to`.
    func events(from: String, to: String) async throws -> [CalendarEvent] {
        try await writer.read { db in
            try Row.fetchAll(db, sql: #"SELECT \#(CalendarEvent.columns) FROM calendarEvent WHERE start < ? AND "end" > ? ORDER BY start, id"#,
                             arguments: [to, from]).map(CalendarEvent.init(row:))
        }
    }

    func channels() async throws -> [ChatChannel] {
        try await writer.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM chatChannel ORDER BY name").map { try ChatChannel(id: $0.decode(forColumn: "id"), name: $0.decode(forColumn: "name")) }
        }
    }

    /// A channel's messages newest first: the newest, or those older than `before`. Messages still
    /// in the outbox (local ids) count as the newest.
    func messages(channel: String, before: Int64?, limit: Int) async throws -> [ChatMessage] {
        try await writer.read { db in
            let rows: [Row]
            if let before {
                rows = try Row.fetchAll(db, sql: "SELECT \(ChatMessage.columns) FROM chatMessage WHERE channel = ? AND id > 0 AND id < ? ORDER BY id DESC LIMIT ?",
                                        arguments: [channel, before, limit])
            } else {
                let pending = try Row.fetchAll(db, sql: "SELECT \(ChatMessage.columns) FROM chatMessage WHERE channel = ? AND id < 0 ORDER BY id", arguments: [channel])
                rows = pending + (try Row.fetchAll(db, sql: "SELECT \(ChatMessage.columns) FROM chatMessage WHERE channel = ? AND id > 0 ORDER BY id DESC LIMIT ?",
                                                   arguments: [channel, limit]))
            }
            return try rows.map(ChatMessage.init(row:))
        }
    }

    // MARK: The server's data

    /// Replaces every todo with the server's list, but for `keeping` (changed since the list was
    /// read), then re-applies unsent writes.
    func replaceTodos(with items: [TodoItem], keeping: Set<Int64>) async throws -> [TodoItem] {
        try await writer.write { db in
            try db.execute(sql: "DELETE FROM todo WHERE id NOT IN (\(Self.idList(keeping)))")
            for item in items where !keeping.contains(item.id) { try item.save(in: db) }
            try rebase(.todo, in: db)
            return try TodoItem.all(in: db)
        }
    }

    /// Replaces the events overlapping `from`..<`to` with the server's, but for `keeping`
    /// (changed since the list was read), then re-applies unsent writes.
    func replaceEvents(from: String, to: String, with events: [CalendarEvent], keeping: Set<Int64>) async throws -> [CalendarEvent] {
        try await writer.write { db in
            try db.execute(sql: #"DELETE FROM calendarEvent WHERE start < ? AND "end" > ? AND id NOT IN (\#(Self.idList(keeping)))"#,
                           arguments: [to, from])
            for event in events where !keeping.contains(event.id) { try event.save(in: db) }
            try rebase(.calendar, in: db)
            return try Row.fetchAll(db, sql: #"SELECT \#(CalendarEvent.columns) FROM calendarEvent WHERE start < ? AND "end" > ? ORDER BY start, id"#,
                                    arguments: [to, from]).map(CalendarEvent.init(row:))
        }
    }

    func replaceChannels(with channels: [ChatChannel]) async throws -> [ChatChannel] {
        try await writer.write { db in
            try db.execute(sql: "DELETE FROM chatChannel")
            for channel in channels { try channel.save(in: db) }
            try rebase(.chat, in: db)
            return try Row.fetchAll(db, sql: "SELECT * FROM chatChannel ORDER BY name").map { try ChatChannel(id: $0.decode(forColumn: "id"), name: $0.decode(forColumn: "name")) }
        }
    }

    /// Ids as the inside of an SQL `IN (…)` (numbers only, so nothing to escape). None gives an
    /// empty list, which SQLite accepts: `id NOT IN ()` is true for every row. (`NOT IN (NULL)`,
    /// what this once gave, is true for none, so a reload kept every record deleted elsewhere.)
    static func idList(_ ids: Set<Int64>) -> String {
        ids.map(String.init).joined(separator: ",")
    }

    func store(_ messages: [ChatMessage]) async throws {
        try await writer.write { db in for message in messages { try message.save(in: db) } }
    }

    // MARK: Live events

    /// Applies one live event from the server and remembers its id for resuming, in one
    /// transaction.
    /// - Returns: the canvas events to publish: none when the cache already showed it (the echo
    ///   of our own write, or an event replayed twice).
    /// - Parameter author: Our name on the server, which marks our own chat messages.
    func apply(_ change: LiveChange, eventID: Int64, author: String?) async throws -> [any BusEvent] {
        try await writer.write { db in
            try setMeta("lastEventID", String(eventID), in: db)
            switch change {
            case .todo(let item):
                let before = try TodoItem.fetch(item.id, in: db)
                guard before != item else { return [] }
                try item.save(in: db)
                guard let before else { return [TodoItemCreated(item: item)] }
                return [!before.done && item.done ? TodoItemCompleted(item: item) : TodoItemUpdated(item: item)]
            case .todoDeleted(let id):
                guard try TodoItem.fetch(id, in: db) != nil else { return [] }
                try db.execute(sql: "DELETE FROM todo WHERE id = ?", arguments: [id])
                return [TodoItemDeleted(id: id)]
            case .event(let event):
                let before = try CalendarEvent.fetch(event.id, in: db)
                guard before != event else { return [] }
                // Its instances go: a repeating event's come again with its ranges (`SyncMachine`
                // fetches them), one that no longer repeats is this row.
                try db.execute(sql: "DELETE FROM calendarEvent WHERE id = ?", arguments: [event.id])
                if !event.isSeries { try event.save(in: db) }
                return [before == nil ? CalendarEventCreated(event: event) : CalendarEventUpdated(event: event)]
            case .eventDeleted(let id):
                guard try CalendarEvent.fetch(id, in: db) != nil else { return [] }
                try db.execute(sql: "DELETE FROM calendarEvent WHERE id = ?", arguments: [id])
                return [CalendarEventDeleted(id: id)]
            case .channel(let channel):
                let known = try Bool.fetchOne(db, sql: "SELECT 1 FROM chatChannel WHERE id = ?", arguments: [channel.id]) ?? false
                guard !known else { return [] }
                try channel.save(in: db)
                return [ChatChannelCreated(channel: channel)]
            case .message(let message):
                let known = try Bool.fetchOne(db, sql: "SELECT 1 FROM chatMessage WHERE id = ?", arguments: [message.id]) ?? false
                guard !known else { return [] }
                try message.save(in: db)
                return [ChatMessageReceived(message: message, mine: message.author == author)]
            }
        }
    }

    func setLastEventID(_ id: Int64) async throws {
        try await writer.write { db in try setMeta("lastEventID", String(id), in: db) }
    }
}
