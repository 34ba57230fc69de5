import AppModel
import CalendarTime
import FoundationEssentials
import HTTPClient
import ServerAPI

/// The requests of the sync engine's effects, each answered as a value for `SyncMachine`.
extension HTTPClient {
    /// Sends one queued write with its idempotency key.
    /// - Returns: the server's copy of the record it made or changed, if any.
    func send(_ entry: OutboxEntry) async -> Result<ServerRecord?, HTTPClientError> {
        let key = entry.idempotencyKey
        do throws(HTTPClientError) {
            switch entry.write {
            case .createTodo(_, let new):
                return .success(.todo(try await write(.post, APIPath.todoItems, body: new, key: key, as: TodoItem.self)))
            case .updateTodo(let id, let patch):
                return .success(.todo(try await write(.patch, APIPath.todoItem(id), body: patch, key: key, as: TodoItem.self)))
            case .deleteTodo(let id):
                try await delete(APIPath.todoItem(id), key: key)
            case .createEvent(_, let new):
                return .success(.event(try await write(.post, APIPath.calendarEvents, body: new, key: key, as: CalendarEvent.self)))
            case .updateEvent(let id, let patch, let instances):
                return .success(.event(try await write(.patch, APIPath.calendarEvent(id), query: instances?.query ?? [], body: patch, key: key,
                                                       as: CalendarEvent.self)))
            case .deleteEvent(let id, let instances):
                try await delete(APIPath.calendarEvent(id), query: instances?.query ?? [], key: key)
            case .createChannel(let name):
                _ = try await write(.post, APIPath.chatChannels, body: NewChatChannel(name: name), key: key, as: ChatChannel.self)
            case .postMessage(_, let channel, let text, _, _):
                return .success(.message(try await write(.post, APIPath.chatMessages(channel: channel), body: NewChatMessage(text: text),
                                                         key: key, as: ChatMessage.self)))
            }
            return .success(nil)
        } catch {
            return .failure(error)
        }
    }

    /// Reads what `fetch` names: every page of a list, one page of messages.
    func fetch(_ fetch: Fetch) async -> Result<Fetched, HTTPClientError> {
        let limit = String(ChatLimits.defaultPageSize)
        do throws(HTTPClientError) {
            switch fetch {
            case .registry:
                // Packages too: the catalog offers them.
                return .success(.registry(try await all(APIPath.registryApps, query: [(name: "packages", value: "true")], as: MicroAppInfo.self,
                                                        pages: Self.registryPages)))
            case .todos:
                return .success(.todos(try await all(APIPath.todoItems, query: [], as: TodoItem.self)))
            case .events(let days):
                let (from, to) = SyncMachine.utcWindow(days)
                return .success(.events(days, try await all(APIPath.calendarEvents, query: [(name: "from", value: from), (name: "to", value: to)],
                                                            as: CalendarEvent.self)))
            case .channels:
                return .success(.channels(try await all(APIPath.chatChannels, query: [], as: ChatChannel.self)))
            case .newestMessages(let channel):
                let page = try await get(APIPath.chatMessages(channel: channel), query: [(name: "limit", value: limit)], as: Page<ChatMessage>.self)
                return .success(.newestMessages(channel: channel, page))
            case .olderMessages(let channel, let before):
                let page = try await get(APIPath.chatMessages(channel: channel),
                                         query: [(name: "limit", value: limit), (name: "cursor", value: String(before))], as: Page<ChatMessage>.self)
                return .success(.olderMessages(channel: channel, before: before, page))
            }
        } catch {
            return .failure(error)
        }
    }

    /// The reminders going off after `after` and by `until`, ten pages at most: past them,
    /// `until` is the last one read's moment (the rest are asked for when it has gone off).
    func reminders(after: Date, until: Date) async -> Result<RemindersFetched, HTTPClientError> {
        let from = UTCInstant(secondsSinceEpoch: Int64(after.timeIntervalSince1970.rounded(.down)) + 1)
        let to = UTCInstant(secondsSinceEpoch: max(from.secondsSinceEpoch, Int64(until.timeIntervalSince1970.rounded(.down))))
        do throws(HTTPClientError) {
            let read = try await pages(APIPath.calendarReminders, query: [(name: "from", value: from.iso), (name: "to", value: to.iso)],
                                       as: CalendarReminder.self, pages: 10)
            let last = read.complete ? to : read.items.last?.at ?? to
            return .success(RemindersFetched(items: read.items, until: last.date))
        } catch {
            return .failure(error)
        }
    }

    /// The registry's pages read, 100 apps each: a server that always says there are more cannot
    /// fill the dashboard's memory.
    static let registryPages = 20

    /// Every page of a list, or the first `pages` of them.
    private func all<Item: Codable & Sendable>(
        _ path: String, query: [(name: String, value: String)], as type: Item.Type, pages limit: Int = .max
    ) async throws(HTTPClientError) -> [Item] {
        try await pages(path, query: query, as: type, pages: limit).items
    }

    /// The items of a list's first `limit` pages, and whether they were all there is.
    private func pages<Item: Codable & Sendable>(
        _ path: String, query: [(name: String, value: String)], as type: Item.Type, pages limit: Int
    ) async throws(HTTPClientError) -> (items: [Item], complete: Bool) {
        var items: [Item] = []
        var cursor: String?
        var read = 0
        repeat {
            read += 1
            let pageQuery = query + [(name: "limit", value: "100")] + (cursor.map { [(name: "cursor", value: $0)] } ?? [])
            let page = try await get(path, query: pageQuery, as: Page<Item>.self)
            items += page.items
            cursor = page.next
        } while cursor != nil && read < limit
        return (items, cursor == nil)
    }

    /// A write with a JSON body and an `Idempotency-Key`, its answer decoded as `Value`.
    ///
    /// The body's keys are sorted: the server recognises a resent write by its key *and* its
    /// bytes, so the same write must encode the same in every process that sends it.
    private func write<Body: Encodable, Value: Decodable>(
        _ method: Method, _ path: String, query: [(name: String, value: String)] = [], body: Body, key: String, as type: Value.Type
    ) async throws(HTTPClientError) -> Value {
        let data: Data
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            data = try encoder.encode(body)
        } catch {
            throw .invalidRequest("body does not encode as JSON: \(error)")
        }
        let request = Request(method, path, query: query, headers: [
            (name: "Content-Type", value: "application/json"), (name: "Accept", value: "application/json"),
            (name: SyncMachine.idempotencyKeyField, value: key),
        ], body: [UInt8](data))
        return try Self.decode(Value.self, from: try await send(request))
    }

    private func delete(_ path: String, query: [(name: String, value: String)] = [], key: String) async throws(HTTPClientError) {
        _ = try await send(Request(.delete, path, query: query, headers: [(name: SyncMachine.idempotencyKeyField, value: key)]))
    }
}
