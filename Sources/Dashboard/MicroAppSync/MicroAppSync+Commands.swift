import CalendarTime
import CanvasCore
import Foundation
import MicroAppAPI
import MicroAppModel

extension MicroAppSync {
    /// Runs one widget command: reads answer from the cache now and from the server later;
    /// writes change the cache, queue for the server and are sent when it can be reached.
    func perform(_ command: AppCommand) async throws {
        switch command {
        case .todo(.load):
            let items = if let startupTodos { startupTodos } else { try await cache.todos() }
            startupTodos = nil
            publish([TodoItemsLoaded(items: items, origin: .cache)])
            if needsServerCopy { refreshLater(.todo) }
        case .todo(.create(let new)):
            try await enqueue(.createTodo(localID: try await cache.newLocalID(), new))
        case .todo(.update(let id, let patch)):
            try await enqueue(.updateTodo(id: id, patch))
        case .todo(.delete(let id)):
            try await delete(id, write: .deleteTodo(id: id), event: TodoItemDeleted(id: id))
        case .calendar(.load(let days)):
            calendarRanges.insert(days)
            let (from, to) = Self.utcWindow(days)
            publish([CalendarEventsLoaded(range: days, events: try await cache.events(from: from, to: to), origin: .cache)])
            if client != nil { spawn { try await $0.fetchEvents(days) } }
        case .calendar(.create(let new)):
            try await enqueue(.createEvent(localID: try await cache.newLocalID(), new))
        case .calendar(.update(let id, let patch)):
            try await enqueue(.updateEvent(id: id, patch))
        case .calendar(.delete(let id)):
            try await delete(id, write: .deleteEvent(id: id), event: CalendarEventDeleted(id: id))
        case .chat(.loadChannels):
            publish([ChatChannelsLoaded(channels: try await cache.channels(), origin: .cache)])
            if needsServerCopy { refreshLater(.chat) }
        case .chat(.open(let channel)):
            openChannels.insert(channel)
            let messages = try await cache.messages(channel: channel, before: nil, limit: ChatLimits.defaultPageSize)
            publish([ChatMessagesLoaded(channel: channel, before: nil, messages: messages, complete: false, origin: .cache)])
            if client != nil { spawn { try await $0.fetchNewestMessages(channel) } }
        case .chat(.older(let channel, let before)):
            spawn { try await $0.loadOlderMessages(channel, before: before) }
        case .chat(.post(let channel, let text)):
            let sentAt = Self.timestamp(Date())
            try await enqueue(.postMessage(localID: try await cache.newLocalID(), channel: channel, text: text,
                                           author: user ?? "me", sentAt: sentAt))
        case .chat(.createChannel(let name)):
            try await enqueue(.createChannel(name: name))
        }
    }

    /// Whether a widget's load should also ask the server: not before the first refresh (which
    /// follows), nor while the live stream keeps the cache current.
    private var needsServerCopy: Bool {
        hasRefreshed && statuses.connection != .online
    }

    private func enqueue(_ write: PendingWrite) async throws {
        await publishWithStatuses(try await cache.enqueue(write))
        flushLater()
    }

    /// Deletes a record; one made offline and never sent is simply forgotten.
    private func delete(_ id: Int64, write: PendingWrite, event: any BusEvent) async throws {
        if LocalID.isLocal(id), try await cache.cancelUnsent(localID: id) {
            _ = try await cache.forget(write)
            await publishWithStatuses([event])
            return
        }
        try await enqueue(write)
    }

    /// Runs `work` beside the command queue, so a slow server never holds up the next command.
    func spawn(_ work: @escaping @Sendable (MicroAppSync) async throws -> Void) {
        Task {
            do {
                try await work(self)
            } catch {
                logger.debug("background sync step failed", metadata: ["error": "\(error)"])
            }
        }
    }

    /// The UTC date-times that surely cover `days` in any time zone (a day either side), so a
    /// widget picks the events of its own local days.
    static func utcWindow(_ days: DayRange) -> (from: String, to: String) {
        let first = CalendarDate(iso: days.first) ?? CalendarDate(daysSinceEpoch: 0)
        let last = CalendarDate(iso: days.last) ?? first
        return (first.adding(days: -1).iso + "T00:00:00Z", last.adding(days: 2).iso + "T00:00:00Z")
    }

    /// An ISO 8601 UTC date-time with milliseconds, as the BFF writes `sentAt`.
    static func timestamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: date)
    }
}
