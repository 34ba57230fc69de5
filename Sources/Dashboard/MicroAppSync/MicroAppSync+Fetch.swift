import CanvasCore
import Foundation
import HTTPClient
import MicroAppAPI
import MicroAppModel

extension MicroAppSync {
    /// Replaces the cache with the server's data for everything the widgets look at. Once every
    /// app came back whole, the cache is marked complete: from then on the live stream, resumed
    /// from its last event, keeps it current (see `catchUp`).
    func refreshAll() async {
        guard client != nil else { return }
        hasRefreshed = true
        let started = Date()
        try? await cache.setComplete(since: nil)
        await refreshRegistry()
        var whole = true
        for app in [MicroAppID.todo, .chat, .calendar] where !(await refresh(app)) { whole = false }
        if whole { try? await cache.setComplete(since: started) }
    }

    /// What a complete cache whose live stream resumed may still lack: the registry, and the
    /// calendar's months that were never fetched. Its todos and chat are current: the server
    /// replays every change since the last event the cache applied, so a dashboard with 10 000
    /// todos does not fetch them all again at each start.
    func catchUp() async {
        hasRefreshed = true
        await refreshRegistry()
        _ = await refresh(.calendar)
        await synced(.todo)
        await synced(.chat)
    }

    /// Reloads the registry: at each connect, and when a live event says it changed.
    func refreshRegistry() async {
        guard let client else { return }
        do {
            let apps = try await client.get(APIPath.registryApps + "?limit=200", as: Page<MicroAppInfo>.self).items
            try await cache.setRegistry(apps)
            publish([RegistryLoaded(apps: apps, origin: .server)])
        } catch {
            logger.warning("registry unavailable", metadata: ["error": "\(error)"])
        }
    }

    /// Reloads one app's data from the server in the background.
    func refreshLater(_ app: MicroAppID) {
        spawn { await $0.refresh(app) }
    }

    /// - Returns: whether all of the app's data came back.
    @discardableResult
    func refresh(_ app: MicroAppID) async -> Bool {
        do {
            switch app {
            case .todo:
                try await fetchTodos()
            case .calendar:
                for days in calendarRanges { try await fetchEvents(days) }
            case .chat:
                try await fetchChannels()
                for channel in openChannels { try await fetchNewestMessages(channel) }
            }
        } catch {
            logger.debug("refresh failed", metadata: ["app": "\(app)", "error": "\(error)"])
            return false
        }
        return true
    }

    func fetchTodos() async throws {
        touchedDuringFetch[.todo] = []
        defer { touchedDuringFetch[.todo] = nil }
        let items = try await fetchAll(.todo, APIPath.todoItems, query: [], as: TodoItem.self)
        let merged = try await cache.replaceTodos(with: items, keeping: touchedDuringFetch[.todo] ?? [])
        publish([TodoItemsLoaded(items: merged, origin: .server)])
        await synced(.todo)
    }

    func fetchEvents(_ days: DayRange) async throws {
        let (from, to) = Self.utcWindow(days)
        touchedDuringFetch[.calendar] = touchedDuringFetch[.calendar] ?? []
        defer { touchedDuringFetch[.calendar] = nil }
        let events = try await fetchAll(.calendar, APIPath.calendarEvents, query: [(name: "from", value: from), (name: "to", value: to)],
                                        as: CalendarEvent.self)
        publish([CalendarEventsLoaded(range: days, events: try await cache.replaceEvents(from: from, to: to, with: events, keeping: touchedDuringFetch[.calendar] ?? []), origin: .server)])
        await synced(.calendar)
    }

    func fetchChannels() async throws {
        let channels = try await fetchAll(.chat, APIPath.chatChannels, query: [], as: ChatChannel.self)
        publish([ChatChannelsLoaded(channels: try await cache.replaceChannels(with: channels), origin: .server)])
        await synced(.chat)
    }

    func fetchNewestMessages(_ channel: String) async throws {
        let page = try await request(.chat) { client in
            try await client.get(APIPath.chatMessages(channel: channel), query: [(name: "limit", value: String(ChatLimits.defaultPageSize))],
                                 as: Page<ChatMessage>.self)
        }
        try await cache.store(page.items)
        let messages = try await cache.messages(channel: channel, before: nil, limit: ChatLimits.defaultPageSize)
        publish([ChatMessagesLoaded(channel: channel, before: nil, messages: messages, complete: page.next == nil, origin: .server)])
        await synced(.chat)
    }

    /// A page of older messages: from the server when it answers, else from the cache.
    func loadOlderMessages(_ channel: String, before: Int64) async throws {
        let limit = ChatLimits.defaultPageSize
        if client != nil, statuses.connection == .online {
            let page = try? await request(.chat) { client in
                try await client.get(APIPath.chatMessages(channel: channel),
                                     query: [(name: "limit", value: String(limit)), (name: "cursor", value: String(before))],
                                     as: Page<ChatMessage>.self)
            }
            if let page {
                try await cache.store(page.items)
                publish([ChatMessagesLoaded(channel: channel, before: before, messages: page.items, complete: page.next == nil, origin: .server)])
                return
            }
        }
        let messages = try await cache.messages(channel: channel, before: before, limit: limit)
        publish([ChatMessagesLoaded(channel: channel, before: before, messages: messages, complete: messages.count < limit, origin: .cache)])
    }

    /// Every page of a list.
    private func fetchAll<Item: Codable & Sendable>(
        _ app: MicroAppID, _ path: String, query: [(name: String, value: String)], as type: Item.Type
    ) async throws -> [Item] {
        var items: [Item] = []
        var cursor: String?
        repeat {
            let pageQuery = query + [(name: "limit", value: "100")] + (cursor.map { [(name: "cursor", value: $0)] } ?? [])
            let page = try await request(app) { client in try await client.get(path, query: pageQuery, as: Page<Item>.self) }
            items += page.items
            cursor = page.next
        } while cursor != nil
        return items
    }

    /// Runs one request for `app`, noting a failure in its status.
    func request<Value: Sendable>(
        _ app: MicroAppID, _ body: @Sendable (HTTPClient) async throws -> Value
    ) async throws -> Value {
        guard let client else { throw HTTPClientError.unreachable("no server yet") }
        do {
            return try await body(client)
        } catch let error as HTTPClientError {
            if case .unreachable = error {
                statuses.connection = .offline
            } else if error != .cancelled {
                statuses.problems[app] = Self.describe(error)
            }
            await publishStatuses()
            throw error
        }
    }

    /// Notes ids a live event or a completed write changed, for fetches under way.
    func touched(_ events: [any BusEvent]) {
        for event in events {
            switch event {
            case let event as TodoItemCreated: touchedDuringFetch[.todo]?.insert(event.item.id)
            case let event as TodoItemUpdated: touchedDuringFetch[.todo]?.insert(event.item.id)
            case let event as TodoItemCompleted: touchedDuringFetch[.todo]?.insert(event.item.id)
            case let event as TodoItemDeleted: touchedDuringFetch[.todo]?.insert(event.id)
            case let event as TodoItemSynced: touchedDuringFetch[.todo]?.insert(event.item.id)
            case let event as CalendarEventCreated: touchedDuringFetch[.calendar]?.insert(event.event.id)
            case let event as CalendarEventUpdated: touchedDuringFetch[.calendar]?.insert(event.event.id)
            case let event as CalendarEventDeleted: touchedDuringFetch[.calendar]?.insert(event.id)
            case let event as CalendarEventSynced: touchedDuringFetch[.calendar]?.insert(event.event.id)
            default: break
            }
        }
    }

    /// A good answer for `app`: its trouble is over and it is synced now.
    func synced(_ app: MicroAppID) async {
        let now = Date()
        statuses.problems[app] = nil
        statuses.lastSynced[app] = now
        try? await cache.setLastSynced(app.rawValue, now)
        await publishStatuses()
    }

    static func describe(_ error: HTTPClientError) -> String {
        if case .failing(let reason) = connection(after: error) { return reason }
        return "server unreachable"
    }
}
