import Foundation
import HTTPClient
import MicroAppAPI
import MicroAppModel

extension MicroAppSync {
    /// Sends the outbox soon, if the server is there and no flush is running; a running flush
    /// picks up what was queued meanwhile.
    func flushLater() {
        flushRequested = true
        guard client != nil, statuses.connection == .online, !isFlushing else { return }
        isFlushing = true
        Task { await flush() }
    }

    /// Sends queued writes in order until the outbox is empty or the server cannot take more.
    /// A write the server refuses (a 4xx other than 408/429) is dropped and its app reloaded, so
    /// the cache shows the server's truth again; any other failure stops the flush until the
    /// live stream reconnects.
    private func flush() async {
        defer { isFlushing = false }
        while flushRequested {
            flushRequested = false
            while let client, statuses.connection == .online, let entry = try? await cache.outbox().first {
                do {
                    let record = try await send(entry, with: client)
                    let events = try await cache.complete(entry, serverRecord: record)
                    touched(events)
                    if case .todo(let item)? = record { touchedDuringFetch[.todo]?.insert(item.id) }
                    if case .event(let event)? = record { touchedDuringFetch[.calendar]?.insert(event.id) }
                    statuses.problems[entry.write.app] = nil
                    await publishWithStatuses(events)
                } catch let error as HTTPClientError where !error.isTransient && error != .cancelled {
                    logger.warning("server refused a queued write", metadata: ["app": "\(entry.write.app)", "error": "\(error)"])
                    try? await cache.drop(entry)
                    statuses.problems[entry.write.app] = "server refused a change: \(Self.describe(error))"
                    refreshLater(entry.write.app)
                    await publishWithStatuses([])
                } catch {
                    logger.info("outbox paused", metadata: ["error": "\(error)"])
                    if let error = error as? HTTPClientError { statuses.connection = Self.connection(after: error) }
                    await publishWithStatuses([])
                    return
                }
            }
        }
    }

    /// Sends one queued write with its idempotency key. A change to a record someone deleted
    /// meanwhile (404) has nothing left to do, and a channel someone made first (409) exists.
    /// A server of an earlier version answers 409 naming the `Idempotency-Key` while it still
    /// runs an earlier send of the same write (today's waits for it instead): its answer comes to
    /// a resend once that finishes.
    /// - Returns: the server's copy of the record it made or changed, if any.
    private func send(_ entry: OutboxEntry, with client: HTTPClient) async throws -> ServerRecord? {
        var waits = 0
        while true {
            do {
                return try await sendOnce(entry, with: client)
            } catch HTTPClientError.status(409, _, let problem?) where problem.field == Self.idempotencyKeyField {
                // Like any passing trouble after a few tries: the flush pauses until the next
                // write or reconnect, and nothing is dropped.
                waits += 1
                guard waits <= Self.stillRunningWaits, statuses.connection == .online else { throw OutboxPaused.stillRunning }
                try await Task.sleep(for: Self.stillRunningWait)
            } catch HTTPClientError.status(404, _, _) where entry.write.changesExistingRecord {
                return nil
            } catch HTTPClientError.status(409, _, _) where entry.write.isChannelCreation {
                return nil
            }
        }
    }

    static let idempotencyKeyField = "Idempotency-Key"
    /// The BFF's `Retry-After` for a write it is still running, and how many times to wait it.
    static let stillRunningWait = Duration.seconds(1)
    static let stillRunningWaits = 5

    private func sendOnce(_ entry: OutboxEntry, with client: HTTPClient) async throws -> ServerRecord? {
        let key = entry.idempotencyKey
        // Writes about a record whose creation was dropped by the server have no target.
        if let id = entry.write.recordID, LocalID.isLocal(id), entry.write.changesExistingRecord { return nil }
        switch entry.write {
        case .createTodo(_, let new):
            return .todo(try await client.write(.post, APIPath.todoItems, body: new, key: key, as: TodoItem.self))
        case .updateTodo(let id, let patch):
            return .todo(try await client.write(.patch, APIPath.todoItem(id), body: patch, key: key, as: TodoItem.self))
        case .deleteTodo(let id):
            try await client.delete(APIPath.todoItem(id), key: key)
        case .createEvent(_, let new):
            return .event(try await client.write(.post, APIPath.calendarEvents, body: new, key: key, as: CalendarEvent.self))
        case .updateEvent(let id, let patch):
            return .event(try await client.write(.patch, APIPath.calendarEvent(id), body: patch, key: key, as: CalendarEvent.self))
        case .deleteEvent(let id):
            try await client.delete(APIPath.calendarEvent(id), key: key)
        case .createChannel(let name):
            _ = try await client.write(.post, APIPath.chatChannels, body: NewChatChannel(name: name), key: key, as: ChatChannel.self)
        case .postMessage(_, let channel, let text, _, _):
            return .message(try await client.write(.post, APIPath.chatMessages(channel: channel), body: NewChatMessage(text: text),
                                                   key: key, as: ChatMessage.self))
        }
        return nil
    }
}

extension HTTPClient {
    /// A write with a JSON body and an `Idempotency-Key`, its answer decoded as `Value`.
    ///
    /// The body's keys are sorted: the server recognises a resent write by its key *and* its
    /// bytes, so the same write must encode the same in every process that sends it.
    func write<Body: Encodable, Value: Decodable>(
        _ method: Method, _ path: String, body: Body, key: String, as type: Value.Type
    ) async throws(HTTPClientError) -> Value {
        let data: Data
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            data = try encoder.encode(body)
        } catch {
            throw .invalidRequest("body does not encode as JSON: \(error)")
        }
        let request = Request(method, path, headers: [
            (name: "Content-Type", value: "application/json"), (name: "Accept", value: "application/json"),
            (name: "Idempotency-Key", value: key),
        ], body: [UInt8](data))
        return try Self.decode(Value.self, from: try await send(request))
    }

    func delete(_ path: String, key: String) async throws(HTTPClientError) {
        _ = try await send(Request(.delete, path, headers: [(name: "Idempotency-Key", value: key)]))
    }
}

/// Why the outbox stopped sending for now, keeping the write.
enum OutboxPaused: Error {
    /// The server is still running an earlier send of the write.
    case stillRunning
}
