import BFF
import BFFTesting
import Foundation
import HTTPClient
import ServerAPI
import Testing
import TestSupport

@Suite("HTTP client against a real BFF")
struct BFFClientTests {
    @Test("log in, then create, read, list, patch and delete todo items")
    func crud() async throws {
        try await LiveBFF.withServer(users: ["ann"]) { server in
            let client = HTTPClient(endpoint: server.endpoint)
            try await client.logIn("ann")

            let item = try await client.post(APIPath.todoItems, body: NewTodo(title: "milk", due: "2026-11-22"), as: TodoItem.self)
            #expect(item.title == "milk" && item.due == "2026-11-22" && !item.done)
            #expect(try await client.get(APIPath.todoItem(item.id), as: TodoItem.self) == item)

            let page = try await client.get(APIPath.todoItems, query: [(name: "done", value: "false"), (name: "limit", value: "10")], as: Page<TodoItem>.self)
            #expect(page.items == [item] && page.next == nil)

            let patched = try await client.patch(APIPath.todoItem(item.id), body: TodoPatch(done: true, due: .some(nil)), as: TodoItem.self)
            #expect(patched == TodoItem(id: item.id, title: "milk", done: true, due: nil))

            try await client.delete(APIPath.todoItem(item.id))
            do throws(HTTPClientError) {
                _ = try await client.get(APIPath.todoItem(item.id), as: TodoItem.self)
                Issue.record("a deleted item was found")
            } catch {
                guard case .status(404, _, let apiError) = error else {
                    Issue.record("\(error)")
                    return
                }
                #expect(apiError == APIError(error: "not found"))
            }
        }
    }

    @Test("requests after the first reuse the kept connection")
    func connectionReuse() async throws {
        try await LiveBFF.withServer { server in
            let client = HTTPClient(endpoint: server.endpoint)
            let first = try await client.send(.init(.get, APIPath.health))
            let second = try await client.send(.init(.get, APIPath.health))
            #expect(!first.connectionReused)
            #expect(second.connectionReused)
            #expect(second.status == 200)
        }
    }

    @Test("401 without a token or with a wrong password, with the API error decoded")
    func unauthorized() async throws {
        try await LiveBFF.withServer { server in
            let client = HTTPClient(endpoint: server.endpoint)

            do throws(HTTPClientError) {
                _ = try await client.get(APIPath.todoItems, as: Page<TodoItem>.self)
                Issue.record("no error without a token")
            } catch {
                guard case .status(401, _, let apiError) = error else {
                    Issue.record("\(error)")
                    return
                }
                #expect(apiError == APIError(error: "missing, invalid or expired bearer token, or its session ended: log in again (termcanvas login URL)"))
            }
            do throws(HTTPClientError) {
                _ = try await client.post(APIPath.authToken, body: TokenRequest(username: "ann", password: "nope"), as: TokenResponse.self)
                Issue.record("no error for a wrong password")
            } catch {
                guard case .status(401, _, let apiError) = error else {
                    Issue.record("\(error)")
                    return
                }
                #expect(apiError?.error == "wrong username or password")
            }
            client.token = "not-a-token"
            await #expect(throws: HTTPClientError.self) { try await client.get(APIPath.todoItems, as: Page<TodoItem>.self) }
        }
    }

    @Test("400 names the field at fault")
    func validation() async throws {
        try await LiveBFF.withServer(users: ["ann"]) { server in
            let client = HTTPClient(endpoint: server.endpoint)
            try await client.logIn("ann")
            do throws(HTTPClientError) {
                _ = try await client.post(APIPath.todoItems, body: NewTodo(title: "   "), as: TodoItem.self)
                Issue.record("an empty title was accepted")
            } catch {
                guard case .status(400, _, let apiError) = error else {
                    Issue.record("\(error)")
                    return
                }
                #expect(apiError?.field == "title")
            }
        }
    }

    @Test("over a unix socket: requests on one kept connection, and live events")
    func unixSocket() async throws {
        let socket = temporarySocketPath()
        defer { unlink(socket) }
        try await LiveBFF.withServer(users: ["ann"], unixSocketPath: socket) { _ in
            let client = HTTPClient(endpoint: .unixSocket(socket))
            try await client.logIn("ann")
            let item = try await client.post(APIPath.todoItems, body: NewTodo(title: "local"), as: TodoItem.self)
            #expect(try await client.get(APIPath.todoItems, as: Page<TodoItem>.self).items == [item])
            #expect(try await client.send(.init(.get, APIPath.health)).connectionReused)

            let event = try await withDeadline(.seconds(10)) { () async throws -> LiveEvent? in
                var updates = client.events().makeAsyncIterator()
                guard await updates.next() == .connected else { return nil }
                guard case .event(let opened) = await updates.next(), opened.knownName == .streamOpened else { return nil }
                try await client.delete(APIPath.todoItem(item.id))
                guard case .event(let event) = await updates.next() else { return nil }
                return event
            }
            #expect(event?.knownName == .todoItemDeleted)
        }
    }

    @Test("50 concurrent GETs all succeed")
    func concurrentRequests() async throws {
        try await LiveBFF.withServer(users: ["ann"]) { server in
            let client = HTTPClient(endpoint: server.endpoint)
            try await client.logIn("ann")
            let item = try await client.post(APIPath.todoItems, body: NewTodo(title: "shared"), as: TodoItem.self)

            let (items, elapsed) = try await measure {
                try await withThrowingTaskGroup(of: TodoItem.self) { group in
                    for _ in 0..<50 { group.addTask { try await client.get(APIPath.todoItem(item.id), as: TodoItem.self) } }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
            }
            #expect(items.count == 50 && items.allSatisfy { $0 == item })

            // Figures for the notes: sequential GETs on one kept connection.
            let rounds = 200
            let (_, sequential) = try await measure {
                for _ in 0..<rounds { _ = try await client.get(APIPath.todoItem(item.id), as: TodoItem.self) }
            }
            print("HTTPClient figures: 50 concurrent GETs in \(elapsed); sequential GET mean \(sequential / rounds) over \(rounds)")
        }
    }

    @Test("the bearer token never reaches the log")
    func tokenNotLogged() async throws {
        try await LiveBFF.withServer(users: ["ann"]) { server in
            let capture = LogCapture()
            let client = HTTPClient(endpoint: server.endpoint, configuration: .init(retry: .init(initialBackoff: .milliseconds(10))), logger: capture.logger())
            try await client.logIn("ann")
            let token = try #require(client.token)
            _ = try await client.get(APIPath.todoItems, as: Page<TodoItem>.self)
            _ = try? await client.get("/api/nowhere", as: Page<TodoItem>.self)
            for await update in client.events() {
                #expect(update == .connected)
                break
            }
            #expect(capture.lines.contains { $0.contains("event stream connected") })
            #expect(!capture.lines.contains { $0.contains(token) || $0.contains("pw-ann") })
        }
    }
}
