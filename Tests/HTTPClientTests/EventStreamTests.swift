import BFF
import BFFTesting
import Foundation
import HTTPClient
import ServerAPI
import ServerStore
import Synchronization
import Testing
import TestSupport

@Suite("Live event streams")
struct EventStreamTests {
    /// Quick reconnects, so the tests stay fast (the BFF asks for 2 s with `retry:`; this caps it).
    private static let quickReconnect = HTTPClient.ReconnectPolicy(initialDelay: .milliseconds(50), maxDelay: .milliseconds(200))

    @Test("a created item arrives live after the stream connects")
    func liveEvent() async throws {
        try await LiveBFF.withServer(users: ["ann"]) { server in
            let client = HTTPClient(endpoint: server.endpoint)
            try await client.logIn("ann")
            _ = try await withDeadline(.seconds(10)) {
                var updates = client.events().makeAsyncIterator()
                #expect(await updates.next() == .connected)
                guard case .event(let opened) = await updates.next(), opened.knownName == .streamOpened else {
                    Issue.record("the stream did not start with bff.stream.opened")
                    return
                }
                let item = try await client.post(APIPath.todoItems, body: NewTodo(title: "live"), as: TodoItem.self)
                guard case .event(let event) = await updates.next() else {
                    Issue.record("no event")
                    return
                }
                #expect(event.knownName == .todoItemCreated)
                #expect(try JSONDecoder().decode(TodoItem.self, from: Data(event.data.utf8)) == item)
            }
        }
    }

    @Test("resuming from an id the server never sent: a stream reset, then live events with lower ids")
    func resetFromUnknownID() async throws {
        try await LiveBFF.withServer(users: ["ann"]) { server in
            let client = HTTPClient(endpoint: server.endpoint)
            try await client.logIn("ann")
            _ = try await client.post(APIPath.todoItems, body: NewTodo(title: "before"), as: TodoItem.self)
            let (reset, created) = try await withDeadline(.seconds(10)) { () async throws -> (LiveEvent?, LiveEvent?) in
                var updates = client.events(lastEventID: 1000).makeAsyncIterator()
                guard await updates.next() == .connected, case .event(let reset) = await updates.next() else { return (nil, nil) }
                _ = try await client.post(APIPath.todoItems, body: NewTodo(title: "after"), as: TodoItem.self)
                guard case .event(let created) = await updates.next() else { return (reset, nil) }
                return (reset, created)
            }
            // Ann's sign-in is event 1 (`auth.session.started`), "before" 2: the reset stands at the newest.
            #expect(reset?.knownName == .streamReset && reset?.id == 2)
            #expect(created?.knownName == .todoItemCreated && created?.id == 3)
        }
    }

    @Test("after the server restarts, the stream reconnects and delivers what it missed, once, in order")
    func resumeAfterRestart() async throws {
        let bff = try LiveBFF()
        defer { bff.remove() }
        try await bff.addUsers(["ann"])
        let first = try await bff.start()
        let port = first.port
        let reader = HTTPClient(endpoint: first.endpoint)
        try await reader.logIn("ann")
        let writer = HTTPClient(endpoint: first.endpoint)
        try await writer.logIn("ann")

        let titles = try await withDeadline(.seconds(10)) { () async throws -> [String] in
            var updates = reader.events(reconnect: Self.quickReconnect).makeAsyncIterator()
            #expect(await updates.next() == .connected)
            guard case .event(let opened) = await updates.next(), opened.knownName == .streamOpened else {
                throw UnexpectedUpdate()
            }
            _ = try await writer.post(APIPath.todoItems, body: NewTodo(title: "before"), as: TodoItem.self)
            var received: [LiveEvent] = []
            guard case .event(let event) = await updates.next() else { throw UnexpectedUpdate() }
            received.append(event)

            await first.stop()
            guard case .disconnected = await updates.next() else { throw UnexpectedUpdate() }

            // Missed for certain: written while no server runs (the store records the events).
            let store = BFFStore(try SQLiteStore.open(at: bff.configuration().databaseURL), bcryptCost: 4)
            let ann = try #require(try await store.users().first)
            _ = try await store.createTodo(owner: ann.id, title: "while down", notes: "", due: nil)

            let second = try await bff.start(port: port)
            // Posted by another client as soon as the new server is up.
            let other = HTTPClient(endpoint: second.endpoint)
            try await other.logIn("ann")
            let created = try await other.post(APIPath.todoItems, body: NewTodo(title: "after"), as: TodoItem.self)
            _ = try await other.patch(APIPath.todoItem(created.id), body: TodoPatch(done: true), as: TodoItem.self)

            // The other client's sign-in is told on the stream too; the todos are what is counted.
            while received.count < 4, let update = await updates.next() {
                if case .event(let event) = update, event.knownName != .authSessionStarted { received.append(event) }
            }
            await second.stop()
            #expect(received.map(\.id) == received.map(\.id).sorted() && Set(received.map(\.id)).count == received.count)
            #expect(received.map(\.name) == ["todo.item.created", "todo.item.created", "todo.item.created", "todo.item.updated"])
            return try received.map { try JSONDecoder().decode(TodoItem.self, from: Data($0.data.utf8)).title }
        }
        #expect(titles == ["before", "while down", "after", "after"])
    }

    @Test("after a drop mid-event, reconnects soon (retry:) with the last whole event's Last-Event-ID; replays arrive once", arguments: Transport.allCases)
    func reconnectAfterDrop(_ transport: Transport) async throws {
        let head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n"
        let server = try transport.server { connection, index in
            connection.readRequest()
            if index == 0 {
                // A whole event and half of the next, then the connection drops without the last chunk.
                connection.write(head + Self.chunk("retry: 30\n\nid: 7\nevent: todo.item.created\ndata: {\"id\":7}\n\nid: 8\nevent: todo.item.created\ndata: {\"id\""))
            } else {
                // The replay overlaps what was delivered; the client drops the duplicate.
                connection.write(head + Self.chunk("id: 7\nevent: todo.item.created\ndata: {\"id\":7}\n\nid: 8\r\nevent: todo.item.deleted\r\ndata: {\"id\":7}\r\n\r\n"))
                connection.waitForClose()
            }
        }
        defer { server.stop() }
        let client = HTTPClient(endpoint: server.endpoint, token: "t0k3n")
        // Without the server's `retry: 30`, the reconnect would wait 10 to 20 s: far from the bound
        // below, however loaded the machine.
        let slowReconnect = HTTPClient.ReconnectPolicy(initialDelay: .seconds(20), maxDelay: .seconds(20))
        let (updates, elapsed) = try await measure {
            try await withDeadline(.seconds(30)) { () async -> [LiveUpdate] in
                var collected: [LiveUpdate] = []
                for await update in client.events(lastEventID: 3, reconnect: slowReconnect) {
                    collected.append(update)
                    if collected.count == 5 { break }
                }
                return collected
            }
        }
        #expect(elapsed < .seconds(8), "\(elapsed)")
        try #require(updates.count == 5)
        #expect(updates[0] == .connected)
        #expect(updates[1] == .event(LiveEvent(id: 7, name: "todo.item.created", data: #"{"id":7}"#)))
        guard case .disconnected(.unreachable) = updates[2] else {
            Issue.record("\(updates[2])")
            return
        }
        #expect(updates[3] == .connected)
        #expect(updates[4] == .event(LiveEvent(id: 8, name: "todo.item.deleted", data: #"{"id":7}"#)))
        let requests = server.requests
        #expect(requests.count == 2)
        #expect(requests.first?.contains("\r\nLast-Event-ID: 3") == true)
        #expect(requests.last?.contains("\r\nLast-Event-ID: 7") == true)
        #expect(requests.allSatisfy { $0.contains("\r\nAuthorization: Bearer t0k3n") && $0.contains("\r\nAccept: text/event-stream") })
        // The stream stopped when the loop ended: the server sees the connection close.
        try await eventually { server.closedByClient == 1 }
    }

    @Test("a stream silent past its idle timeout is taken for dead and reconnected", arguments: Transport.allCases)
    func idleTimeout(_ transport: Transport) async throws {
        let head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\n"
        let server = try transport.server { connection, index in
            connection.readRequest()
            connection.write(index == 0 ? head : head + "id: 1\nevent: x\ndata: {}\n\n")
            connection.waitForClose()
        }
        defer { server.stop() }
        let client = HTTPClient(endpoint: server.endpoint)
        let policy = HTTPClient.ReconnectPolicy(initialDelay: .milliseconds(50), maxDelay: .milliseconds(200), idleTimeout: .seconds(1))
        let (updates, elapsed) = try await measure {
            try await withDeadline(.seconds(10)) { () async -> [LiveUpdate] in
                var collected: [LiveUpdate] = []
                for await update in client.events(reconnect: policy) {
                    collected.append(update)
                    if collected.count == 4 { break }
                }
                return collected
            }
        }
        #expect(updates == [.connected, .disconnected(.timeout), .connected, .event(LiveEvent(id: 1, name: "x", data: "{}"))])
        #expect(elapsed >= .milliseconds(900), "\(elapsed)")
        #expect(server.connections == 2)
    }

    /// `text` as one chunk of a chunked body.
    private static func chunk(_ text: String) -> String {
        String(text.utf8.count, radix: 16) + "\r\n" + text + "\r\n"
    }

    @Test("a stream refused with 401 reports it and ends instead of retrying")
    func unauthorizedStreamEnds() async throws {
        _ = try await LiveBFF.withServer { server in
            let client = HTTPClient(endpoint: server.endpoint, token: "expired")
            let updates = try await withDeadline(.seconds(5)) { () async -> [LiveUpdate] in
                var collected: [LiveUpdate] = []
                for await update in client.events(reconnect: Self.quickReconnect) { collected.append(update) }
                return collected
            }
            guard updates.count == 1, case .disconnected(.status(401, _, let apiError)) = updates[0] else {
                Issue.record("\(updates)")
                return
            }
            #expect(apiError?.error.hasPrefix("missing, invalid or expired bearer token") == true)
        }
    }

    @Test("while the server is down the stream keeps reporting .disconnected(.unreachable)")
    func offline() async throws {
        let closed = try ClosedPort()
        let client = HTTPClient(endpoint: .loopback(port: closed.port))
        let updates = try await withDeadline(.seconds(5)) { () async -> [LiveUpdate] in
            var collected: [LiveUpdate] = []
            for await update in client.events(reconnect: Self.quickReconnect) {
                collected.append(update)
                if collected.count == 3 { break }
            }
            return collected
        }
        #expect(updates.count == 3)
        #expect(updates.allSatisfy { if case .disconnected(.unreachable) = $0 { true } else { false } })
        withExtendedLifetime(closed) {}
    }
    @Test("a server sending one endless line is dropped past the parser's bound, not kept in memory", arguments: Transport.allCases)
    func endlessLine(_ transport: Transport) async throws {
        let head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n"
        let sent = Mutex(0)
        let server = try transport.server { connection, index in
            connection.readRequest()
            guard index == 0 else { return connection.waitForClose() }
            var ok = connection.write(head + Self.chunk("id: 1\ndata: "))
            let piece = Self.chunk(String(repeating: "x", count: 64 << 10))
            // Up to 512 MiB: far past any bound, reached in seconds if the client kept reading.
            while ok, sent.withLock({ $0 }) < 512 << 20 {
                ok = connection.write(piece)
                sent.withLock { $0 += 64 << 10 }
            }
        }
        defer { server.stop() }
        let client = HTTPClient(endpoint: server.endpoint, token: "t0k3n")
        let updates = try await withDeadline(.seconds(60)) { () async -> [LiveUpdate] in
            var collected: [LiveUpdate] = []
            for await update in client.events(reconnect: Self.quickReconnect) {
                collected.append(update)
                if collected.count == 2 { break }
            }
            return collected
        }
        #expect(updates.first == .connected)
        guard case .disconnected(.undecodable(_, _, let reason)) = updates.last else {
            Issue.record("\(updates)")
            return
        }
        #expect(reason.contains("larger than \(ServerSentEventParser.defaultMaxEventBytes) bytes"))
        // What the client took in before it dropped the line: the bound plus what sockets buffer.
        #expect(sent.withLock { $0 } < 64 << 20)
    }

}

/// A live stream gave another update than the one the test awaits.
private struct UnexpectedUpdate: Error {}
