import CalendarTime
import CanvasCore
import Foundation
import GRDB
import MicroAppAPI
import MicroAppModel

extension SyncCache {
    /// Applies a user's write to the cache and queues it for the server, in one transaction.
    /// - Returns: the canvas events that show its effect.
    func enqueue(_ write: PendingWrite) async throws -> [any BusEvent] {
        try await writer.write { db in
            let events = try applyLocally(write, in: db)
            try db.execute(sql: "INSERT INTO outbox (app, idempotencyKey, write) VALUES (?, ?, ?)",
                           arguments: [write.app.rawValue, UUID().uuidString, try encode(write)])
            return events
        }
    }

    /// Makes the write's effect in the cache, as the server will once it gets it.
    @discardableResult
    func applyLocally(_ write: PendingWrite, in db: Database) throws -> [any BusEvent] {
        switch write {
        case .createTodo(let id, let new):
            let item = TodoItem(id: id, title: new.title, notes: new.notes ?? "", done: false, due: new.due.flatMap(CalendarDate.init(iso:)))
            try item.save(in: db)
            return [TodoItemCreated(item: item)]
        case .updateTodo(let id, let patch):
            guard let before = try TodoItem.fetch(id, in: db) else { return [] }
            let item = before.patched(patch)
            try item.save(in: db)
            return [!before.done && item.done ? TodoItemCompleted(item: item) : TodoItemUpdated(item: item)]
        case .deleteTodo(let id):
            try db.execute(sql: "DELETE FROM todo WHERE id = ?", arguments: [id])
            return [TodoItemDeleted(id: id)]
        case .createEvent(let id, let new):
            // Written by the widgets, which send UTC; one the server would refuse shows only once it answers.
            guard let start = UTCInstant(iso: new.start), let end = UTCInstant(iso: new.end) else { return [] }
            let event = CalendarEvent(id: id, title: new.title, start: start, end: end, allDay: new.allDay ?? false)
            try event.save(in: db)
            return [CalendarEventCreated(event: event)]
        case .updateEvent(let id, let patch):
            guard let before = try CalendarEvent.fetch(id, in: db) else { return [] }
            let event = before.patched(patch)
            try event.save(in: db)
            return [CalendarEventUpdated(event: event)]
        case .deleteEvent(let id):
            try db.execute(sql: "DELETE FROM calendarEvent WHERE id = ?", arguments: [id])
            return [CalendarEventDeleted(id: id)]
        case .createChannel(let name):
            let channel = ChatChannel(id: name, name: name)
            try channel.save(in: db)
            return [ChatChannelCreated(channel: channel)]
        case .postMessage(let id, let channel, let text, let author, let sentAt):
            let message = ChatMessage(id: id, channel: channel, author: author, text: text, sentAt: sentAt)
            try message.save(in: db)
            return [ChatMessageReceived(message: message, mine: true)]
        }
    }

    /// Re-applies every queued write of `app` after the server's data replaced the cache's, so
    /// what the user did offline stays visible until it is sent.
    func rebase(_ app: MicroAppID, in db: Database) throws {
        for entry in try outbox(in: db) where entry.write.app == app {
            try applyLocally(entry.write, in: db)
        }
    }

    /// A fresh local id for a record made now.
    func newLocalID() async throws -> Int64 {
        try await writer.write { db in try nextLocalID(in: db) }
    }

    func outbox() async throws -> [OutboxEntry] {
        try await writer.read { db in try outbox(in: db) }
    }

    func outbox(in db: Database) throws -> [OutboxEntry] {
        try Row.fetchAll(db, sql: "SELECT seq, idempotencyKey, write FROM outbox ORDER BY seq").compactMap { row in
            guard let write = try? JSONDecoder().decode(PendingWrite.self, from: Data((row["write"] as String).utf8)) else { return nil }
            return OutboxEntry(seq: row["seq"], idempotencyKey: row["idempotencyKey"], write: write)
        }
    }

    func pendingCounts() async throws -> [MicroAppID: Int] {
        try await writer.read { db in
            var counts: [MicroAppID: Int] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT app, COUNT(*) AS n FROM outbox GROUP BY app") {
                if let app = MicroAppID(rawValue: row["app"]) { counts[app] = row["n"] }
            }
            return counts
        }
    }

    /// Removes a write the server will never take (it refused it), undoing nothing: the caller
    /// reloads the app's data from the server.
    func drop(_ entry: OutboxEntry) async throws {
        try await writer.write { db in try db.execute(sql: "DELETE FROM outbox WHERE seq = ?", arguments: [entry.seq]) }
    }

    /// Records that the server applied `entry`: it leaves the outbox, and a record made offline
    /// takes the server's id, here and in every later write about it. One transaction.
    /// - Parameter serverRecord: what the server answered, saved in place of the local copy.
    /// - Returns: the canvas events that show the change.
    func complete(_ entry: OutboxEntry, serverRecord: ServerRecord?) async throws -> [any BusEvent] {
        try await writer.write { db in
            try db.execute(sql: "DELETE FROM outbox WHERE seq = ?", arguments: [entry.seq])
            guard let serverRecord else { return [] }
            let localID = entry.write.recordID ?? 0
            var events: [any BusEvent] = []
            switch serverRecord {
            case .todo(let item):
                if LocalID.isLocal(localID) { try db.execute(sql: "DELETE FROM todo WHERE id = ?", arguments: [localID]) }
                try item.save(in: db)
                if LocalID.isLocal(localID) { events.append(TodoItemSynced(localID: localID, item: item)) }
            case .event(let event):
                if LocalID.isLocal(localID) { try db.execute(sql: "DELETE FROM calendarEvent WHERE id = ?", arguments: [localID]) }
                try event.save(in: db)
                if LocalID.isLocal(localID) { events.append(CalendarEventSynced(localID: localID, event: event)) }
            case .message(let message):
                try db.execute(sql: "DELETE FROM chatMessage WHERE id = ?", arguments: [localID])
                try message.save(in: db)
                events.append(ChatMessageSynced(localID: localID, message: message))
            }
            guard LocalID.isLocal(localID), let serverID = serverRecord.id else { return events }
            for later in try outbox(in: db) where later.write.recordID == localID {
                try db.execute(sql: "UPDATE outbox SET write = ? WHERE seq = ?",
                               arguments: [try encode(later.write.replacing(localID, with: serverID)), later.seq])
            }
            return events
        }
    }

    /// Forgets queued writes about a record made offline that was deleted before it was sent: the
    /// server never needs to hear of it.
    /// - Returns: true when the record's creation was still queued (and is now gone).
    func cancelUnsent(localID: Int64) async throws -> Bool {
        try await writer.write { db in
            let entries = try outbox(in: db).filter { $0.write.recordID == localID }
            for entry in entries { try db.execute(sql: "DELETE FROM outbox WHERE seq = ?", arguments: [entry.seq]) }
            return !entries.isEmpty
        }
    }

    private func encode(_ write: PendingWrite) throws -> String {
        String(decoding: try JSONEncoder().encode(write), as: UTF8.self)
    }
}

/// What the server answered to a write that creates or changes a record.
enum ServerRecord: Sendable {
    case todo(TodoItem)
    case event(CalendarEvent)
    case message(ChatMessage)

    var id: Int64? {
        switch self {
        case .todo(let item): item.id
        case .event(let event): event.id
        case .message(let message): message.id
        }
    }
}

extension SyncCache {
    /// Removes a record from the cache without queueing anything (it never reached the server).
    func forget(_ write: PendingWrite) async throws -> [any BusEvent] {
        try await writer.write { db in try applyLocally(write, in: db) }
    }
}
