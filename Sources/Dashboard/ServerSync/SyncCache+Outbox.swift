import AppModel
import CalendarTime
import CanvasCore
import FoundationEssentials
import SQLiteDatabase
import ServerAPI

extension SyncCache {
    /// Applies a user's write to the cache and queues it for the server, in one transaction; a
    /// new record gets a fresh local id. A delete of a record made offline whose creation is
    /// still queued forgets both instead: the server never needs to hear of it.
    /// - Returns: the canvas events that show its effect, and the outbox's size per app after it.
    func enqueue(_ request: WriteRequest) async throws -> (events: [any BusEvent], pending: [ServerApp: Int]) {
        try await writer.write { db in
            let localID: Int64 = try request.needsLocalID ? nextLocalID(in: db) : 0
            let write = request.pendingWrite(localID: localID)
            if case .write(let delete) = request, delete.deletesRecord, let id = delete.recordID, LocalID.isLocal(id),
               try cancelUnsent(localID: id, in: db) {
                return (try applyLocally(write, in: db), try pendingCounts(in: db))
            }
            let events = try applyLocally(write, in: db)
            try db.execute(sql: "INSERT INTO outbox (app, idempotencyKey, write) VALUES (?, ?, ?)",
                           arguments: [write.app.rawValue, UUID().uuidString, try encode(write)])
            return (events, try pendingCounts(in: db))
        }
    }

    /// Makes the write's effect in the cache, as the server will once it gets it.
    @discardableResult
    func applyLocally(_ write: PendingWrite, in db: Database) throws -> [any BusEvent] {
        switch write {
        case .createTodo(let id, let new):
            var item = TodoItem(id: id, title: new.title, notes: new.notes ?? "", done: false, due: new.due.flatMap(CalendarDate.init(iso:)))
            item.priority = new.priority.flatMap { TodoLimits.priorities.contains($0) ? $0 : nil }
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
        case .updateEvent(let id, let patch, nil):
            guard let before = try CalendarEvent.fetch(id, in: db) else { return [] }
            let event = before.patched(patch)
            try event.save(in: db)
            return [CalendarEventUpdated(event: event)]
        case .updateEvent(let id, let patch, let instances?):
            // Each instance changes as the one named does (moved by as much), as the server will.
            let chosen = try CalendarEvent.instances(of: id, in: db).filter { instances.contains($0.instanceStart) }
            guard let named = chosen.first(where: { $0.instanceStart == instances.instance }) ?? chosen.first else { return [] }
            let moved = named.patched(patch)
            return try chosen.map { before in
                let event = before.patched(patch, movedLike: named, to: moved)
                try event.save(in: db)
                return CalendarEventUpdated(event: event)
            }
        case .deleteEvent(let id, let instances):
            for event in try CalendarEvent.instances(of: id, in: db) where instances?.contains(event.instanceStart) ?? true {
                try db.execute(sql: "DELETE FROM calendarEvent WHERE id = ? AND instanceStart = ?", arguments: [id, event.instanceStart?.iso ?? ""])
            }
            return [CalendarEventDeleted(id: id, instances: instances)]
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
    func rebase(_ app: ServerApp, in db: Database) throws {
        for entry in try outbox(in: db) where entry.write.app == app {
            try applyLocally(entry.write, in: db)
        }
    }

    /// The write to send first: the oldest the outbox can read.
    func outboxHead() async throws -> OutboxEntry? {
        try await writer.read { db in
            for row in try Row.fetchAll(db, sql: Self.outboxInOrder) {
                if let entry = try Self.entry(row) { return entry }
            }
            return nil
        }
    }

    func outbox(in db: Database) throws -> [OutboxEntry] {
        try Row.fetchAll(db, sql: Self.outboxInOrder).compactMap(Self.entry)
    }

    private static let outboxInOrder = "SELECT seq, idempotencyKey, write FROM outbox ORDER BY seq"

    private static func entry(_ row: Row) throws -> OutboxEntry? {
        guard let write = try? JSONDecoder().decode(PendingWrite.self, from: Data(try row.decode(String.self, forColumn: "write").utf8)) else { return nil }
        return try OutboxEntry(seq: row.decode(forColumn: "seq"), idempotencyKey: row.decode(forColumn: "idempotencyKey"), write: write)
    }

    func pendingCounts() async throws -> [ServerApp: Int] {
        try await writer.read { db in try pendingCounts(in: db) }
    }

    func pendingCounts(in db: Database) throws -> [ServerApp: Int] {
        var counts: [ServerApp: Int] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT app, COUNT(*) AS n FROM outbox GROUP BY app") {
            if let app = ServerApp(rawValue: try row.decode(forColumn: "app")) { counts[app] = try row.decode(forColumn: "n") }
        }
        return counts
    }

    /// Removes a write the server will never take (it refused it), undoing nothing: the caller
    /// reloads the app's data from the server.
    /// - Returns: the outbox's size per app after it.
    func drop(_ entry: OutboxEntry) async throws -> [ServerApp: Int] {
        try await writer.write { db in
            try db.execute(sql: "DELETE FROM outbox WHERE seq = ?", arguments: [entry.seq])
            return try pendingCounts(in: db)
        }
    }

    /// Records that the server applied `entry`: it leaves the outbox, and a record made offline
    /// takes the server's id, here and in every later write about it. One transaction.
    /// - Parameter serverRecord: what the server answered, saved in place of the local copy.
    /// - Returns: the canvas events that show the change, and the outbox's size per app after it.
    func complete(_ entry: OutboxEntry, serverRecord: ServerRecord?) async throws -> (events: [any BusEvent], pending: [ServerApp: Int]) {
        try await writer.write { db in
            let events = try complete(entry, serverRecord: serverRecord, in: db)
            return (events, try pendingCounts(in: db))
        }
    }

    private func complete(_ entry: OutboxEntry, serverRecord: ServerRecord?, in db: Database) throws -> [any BusEvent] {
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

    /// Forgets queued writes about a record made offline.
    /// - Returns: true when there were some (its creation was still queued, and is now gone).
    private func cancelUnsent(localID: Int64, in db: Database) throws -> Bool {
        let entries = try outbox(in: db).filter { $0.write.recordID == localID }
        for entry in entries { try db.execute(sql: "DELETE FROM outbox WHERE seq = ?", arguments: [entry.seq]) }
        return !entries.isEmpty
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
