@testable import BFF
import Foundation
import Hummingbird
import HummingbirdTesting
import ServerAPI
@testable import ServerHTTP
import ServerStore
import Testing

@Suite("BFF Idempotency-Key")
struct IdempotencyTests {
    @Test("a create resent with its key makes one item and answers the same, marked as replayed")
    func resentCreateCountsOnce() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addUsers("ann")
        try await harness.withServer { client in
            let token = try await client.token(for: "ann")
            let first = try await client.send(.post, APIPath.todoItems, token: token, key: "k-1", json: NewTodo(title: "milk"))
            let again = try await client.send(.post, APIPath.todoItems, token: token, key: "k-1", json: NewTodo(title: "milk"))

            #expect(first.status == .created && again.status == .created)
            #expect(try again.decode(TodoItem.self) == first.decode(TodoItem.self))
            #expect(again.headers[.location] == first.headers[.location])
            #expect(first.headers[IdempotencyMiddleware.replayedHeader] == nil)
            #expect(again.headers[IdempotencyMiddleware.replayedHeader] == "true")
            let items = try await client.send(.get, APIPath.todoItems, token: token).decode(Page<TodoItem>.self).items
            #expect(items.map(\.title) == ["milk"])
        }
    }

    @Test("every write route honours the key: todo and calendar patch and delete, event, channel and message creation")
    func everyWriteRoute() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addUsers("ann")
        try await harness.withServer { client in
            let token = try await client.token(for: "ann")
            let item = try await client.send(.post, APIPath.todoItems, token: token, json: NewTodo(title: "milk")).decode(TodoItem.self)

            // A toggle resent after someone else toggled back must not flip it again.
            let done = try await client.send(.patch, APIPath.todoItem(item.id), token: token, key: "p", json: TodoPatch(done: true))
            _ = try await client.send(.patch, APIPath.todoItem(item.id), token: token, json: TodoPatch(done: false))
            let resent = try await client.send(.patch, APIPath.todoItem(item.id), token: token, key: "p", json: TodoPatch(done: true))
            #expect(try resent.decode(TodoItem.self) == done.decode(TodoItem.self))
            #expect(try await client.send(.get, APIPath.todoItem(item.id), token: token).decode(TodoItem.self).done == false)

            // A delete resent after it succeeded still answers 204, not 404.
            #expect(try await client.send(.delete, APIPath.todoItem(item.id), token: token, key: "d").status == .noContent)
            let deletedAgain = try await client.send(.delete, APIPath.todoItem(item.id), token: token, key: "d")
            #expect(deletedAgain.status == .noContent)
            #expect(deletedAgain.headers[IdempotencyMiddleware.replayedHeader] == "true")

            let event = NewCalendarEvent(title: "Standup", start: "2026-11-23T09:30:00Z", end: "2026-11-23T10:00:00Z")
            for _ in 1...3 { _ = try await client.send(.post, APIPath.calendarEvents, token: token, key: "e", json: event) }
            let events = try await client.send(.get, APIPath.calendarEvents + "?from=2026-11-23&to=2026-11-23", token: token)
            let standup = try #require(try events.decode(Page<CalendarEvent>.self).items.first)
            #expect(try events.decode(Page<CalendarEvent>.self).items.count == 1)
            let renamed = try await client.send(.patch, APIPath.calendarEvent(standup.id), token: token, key: "ep",
                                                json: CalendarEventPatch(title: "Stand-up"))
            let renamedAgain = try await client.send(.patch, APIPath.calendarEvent(standup.id), token: token, key: "ep",
                                                     json: CalendarEventPatch(title: "Stand-up"))
            #expect(renamedAgain.headers[IdempotencyMiddleware.replayedHeader] == "true")
            #expect(try renamedAgain.decode(CalendarEvent.self) == renamed.decode(CalendarEvent.self))
            #expect(try await client.send(.delete, APIPath.calendarEvent(standup.id), token: token, key: "ed").status == .noContent)
            #expect(try await client.send(.delete, APIPath.calendarEvent(standup.id), token: token, key: "ed").status == .noContent)

            // A channel created again with its key is the same success, not "exists" (409).
            let channel = try await client.send(.post, APIPath.chatChannels, token: token, key: "c", json: NewChatChannel(name: "ops"))
            let channelAgain = try await client.send(.post, APIPath.chatChannels, token: token, key: "c", json: NewChatChannel(name: "ops"))
            #expect(channel.status == .created && channelAgain.status == .created)
            #expect(try await client.send(.post, APIPath.chatChannels, token: token, json: NewChatChannel(name: "ops")).status == .conflict)

            for _ in 1...3 {
                let post = try await client.send(.post, APIPath.chatMessages(channel: "general"), token: token, key: "m",
                                                 json: NewChatMessage(text: "hello once"))
                #expect(post.status == .created)
            }
            let messages = try await client.send(.get, APIPath.chatMessages(channel: "general"), token: token)
            #expect(try messages.decode(Page<ChatMessage>.self).items.map(\.text) == ["hello once"])
        }
    }

    @Test("the same key on a different request is 422 and changes nothing")
    func keyReusedForAnotherRequest() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addUsers("ann")
        try await harness.withServer { client in
            let token = try await client.token(for: "ann")
            _ = try await client.send(.post, APIPath.todoItems, token: token, key: "k", json: NewTodo(title: "milk"))
            let otherBody = try await client.send(.post, APIPath.todoItems, token: token, key: "k", json: NewTodo(title: "eggs"))
            #expect(otherBody.status == .unprocessableContent)
            #expect(otherBody.apiError == APIError(error: "this Idempotency-Key was used for a different request", field: "Idempotency-Key"))
            let otherPath = try await client.send(.post, APIPath.calendarEvents, token: token, key: "k",
                                                  json: NewCalendarEvent(title: "x", start: "2026-11-23T09:00:00Z", end: "2026-11-23T10:00:00Z"))
            #expect(otherPath.status == .unprocessableContent, "\(String(buffer: otherPath.body))")

            let items = try await client.send(.get, APIPath.todoItems, token: token).decode(Page<TodoItem>.self).items
            #expect(items.map(\.title) == ["milk"])
        }
    }

    @Test("a refused write frees its key: corrected and resent, it runs")
    func failureFreesTheKey() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addUsers("ann")
        try await harness.withServer { client in
            let token = try await client.token(for: "ann")
            let refused = try await client.send(.post, APIPath.todoItems, token: token, key: "k", json: NewTodo(title: " "))
            #expect(refused.status == .badRequest)
            let missing = try await client.send(.patch, APIPath.todoItem(999), token: token, key: "k", json: TodoPatch(done: true))
            #expect(missing.status == .notFound)
            let created = try await client.send(.post, APIPath.todoItems, token: token, key: "k", json: NewTodo(title: "milk"))
            #expect(created.status == .created)
            #expect(created.headers[IdempotencyMiddleware.replayedHeader] == nil)
        }
    }

    @Test("keys are per user: two users' same key are two requests")
    func keysArePerUser() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addUsers("ann", "bob")
        try await harness.withServer { client in
            let ann = try await client.token(for: "ann")
            let bob = try await client.token(for: "bob")
            let annItem = try await client.send(.post, APIPath.todoItems, token: ann, key: "same", json: NewTodo(title: "milk"))
            let bobItem = try await client.send(.post, APIPath.todoItems, token: bob, key: "same", json: NewTodo(title: "milk"))
            #expect(bobItem.status == .created && bobItem.headers[IdempotencyMiddleware.replayedHeader] == nil)
            #expect(try bobItem.decode(TodoItem.self).id != annItem.decode(TodoItem.self).id)
            #expect(try await client.send(.get, APIPath.todoItems, token: bob).decode(Page<TodoItem>.self).items.count == 1)
        }
    }

    @Test("a key that is empty, too long or not visible ASCII is 400", arguments: ["", String(repeating: "k", count: 256), "a b", "ké", "a\u{1B}b"])
    func badKeys(_ key: String) async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addUsers("ann")
        try await harness.withServer { client in
            let token = try await client.token(for: "ann")
            let answer = try await client.send(.post, APIPath.todoItems, token: token, key: key, json: NewTodo(title: "milk"))
            #expect(answer.status == .badRequest)
            #expect(answer.apiError?.field == "Idempotency-Key")
            #expect(try await client.send(.get, APIPath.todoItems, token: token).decode(Page<TodoItem>.self).items.isEmpty)
        }
    }

    @Test("a keyed write keeps its key and result in its own transaction: replayed for a day, nothing kept when nothing changed")
    func keptWithTheWrite() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addUsers("ann")
        try await harness.withStore { store in
            let ann = try #require(try await store.users().first).id
            let print = Data("POST /api/todo/items".utf8)
            let start = Date(timeIntervalSince1970: 1_800_000_000)
            func create(_ key: String, _ fingerprint: Data = print, at time: Date) async throws -> (TodoItem, replayed: Bool) {
                let request = IdempotentRequest(owner: ann, key: key, fingerprint: fingerprint, now: time)
                let item = try await IdempotentRequest.$current.withValue(request) {
                    try await store.createTodo(owner: ann, title: "milk", notes: "", due: nil)
                }
                return (item, request.wasReplayed)
            }

            let (first, firstReplayed) = try await create("k", at: start)
            let (again, replayed) = try await create("k", at: start + 3600)
            #expect(!firstReplayed && replayed && again == first)
            await #expect(throws: IdempotencyMismatch.self) { try await create("k", Data("other".utf8), at: start + 3600) }
            let (later, laterReplayed) = try await create("k", at: start + 86_401)
            #expect(!laterReplayed && later.id != first.id)

            // An update of no item changes nothing and keeps no key: the same key then runs.
            let missing = IdempotentRequest(owner: ann, key: "u", fingerprint: print, now: start)
            let none = try await IdempotentRequest.$current.withValue(missing) {
                try await store.updateTodo(id: 999_999, owner: ann, applying: TodoPatch(done: true))
            }
            #expect(none == nil)
            let (made, madeReplayed) = try await create("u", at: start)
            #expect(!madeReplayed && made.title == "milk")

            // One key sent eight times at once runs once; the others get its result.
            let items = try await withThrowingTaskGroup(of: (TodoItem, Bool).self) { group in
                for _ in 1...8 { group.addTask { try await create("together", at: start) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(Set(items.map(\.0.id)).count == 1)
            #expect(items.filter { !$0.1 }.count == 1)
            #expect(try await store.todos(owner: ann, query: TodoQuery()).items.count == 4)
        }
    }
}

extension TestClientProtocol {
    /// Sends `json` with a bearer token and an `Idempotency-Key`.
    func send(_ method: HTTPRequest.Method, _ uri: String, token: String, key: String, json: some Encodable) async throws -> TestResponse {
        let headers: HTTPFields = [
            .authorization: "Bearer \(token)", .contentType: "application/json", IdempotencyMiddleware.keyHeader: key,
        ]
        return try await execute(uri: uri, method: method, headers: headers, body: ByteBuffer(bytes: try JSONEncoder().encode(json)))
    }

    func send(_ method: HTTPRequest.Method, _ uri: String, token: String, key: String) async throws -> TestResponse {
        try await execute(uri: uri, method: method, headers: [.authorization: "Bearer \(token)", IdempotencyMiddleware.keyHeader: key])
    }
}
