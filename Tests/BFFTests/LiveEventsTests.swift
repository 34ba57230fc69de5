import BFF
import Foundation
import HummingbirdTesting
import ServerAPI
import Testing

@Suite("BFF live events (/api/events)")
struct LiveEventsTests {
    @Test("a change reaches the owner's stream as source.entity.action with the item as data, and only theirs")
    func delivery() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addUsers("ann", "bob")
        try await harness.withServer { client in
            let port = try #require(client.port)
            let ann = try await client.token(for: "ann")
            let bob = try await client.token(for: "bob")
            let annStream = try SSEReader(port: port, token: ann)
            let bobStream = try SSEReader(port: port, token: bob)
            #expect(try await annStream.readHead().contains("Content-Type: text/event-stream"))
            _ = try await bobStream.readHead()

            let created = try await client.send(.post, APIPath.todoItems, token: ann, json: NewTodo(title: "milk"))
            let item = try created.decode(TodoItem.self)
            _ = try await client.send(.patch, APIPath.todoItem(item.id), token: ann, json: TodoPatch(done: true))
            _ = try await client.send(.delete, APIPath.todoItem(item.id), token: ann)

            let events = try await annStream.events(3)
            #expect(events.map(\.name) == ["todo.item.created", "todo.item.updated", "todo.item.deleted"])
            #expect(events.map(\.id) == events.map(\.id).sorted() && Set(events.map(\.id)).count == 3)
            #expect(try JSONDecoder().decode(TodoItem.self, from: Data(events[0].data.utf8)) == item)
            #expect(try JSONDecoder().decode(TodoItem.self, from: Data(events[1].data.utf8)).done)
            #expect(try JSONDecoder().decode(DeletedEntity.self, from: Data(events[2].data.utf8)) == DeletedEntity(id: item.id))
            // Bob's stream carries nothing of Ann's todos: his own change is the next it carries.
            #expect(try await bobStream.nextIs(.todoItemCreated) {
                _ = try await client.send(.post, APIPath.todoItems, token: bob, json: NewTodo(title: "bob's"))
            })
        }
    }

    @Test("a failed write publishes nothing")
    func failedWritePublishesNothing() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addUsers("ann")
        try await harness.withServer { client in
            let ann = try await client.token(for: "ann")
            let stream = try SSEReader(port: try #require(client.port), token: ann)
            _ = try await stream.readHead()
            #expect(try await client.send(.post, APIPath.todoItems, token: ann, rawBody: #"{"title": ""}"#).status == .badRequest)
            #expect(try await client.send(.patch, APIPath.todoItem(999), token: ann, json: TodoPatch(done: true)).status == .notFound)
            #expect(try await stream.nextIs(.todoItemCreated) {
                _ = try await client.send(.post, APIPath.todoItems, token: ann, json: NewTodo(title: "valid"))
            })
        }
    }

    @Test("a fresh stream starts with bff.stream.opened at the newest event; resuming from it gets exactly what came after")
    func openedMarksThePosition() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addUsers("ann")
        try await harness.withServer { client in
            let port = try #require(client.port)
            let ann = try await client.token(for: "ann")
            let empty = try SSEReader(port: port, token: ann)
            _ = try await empty.readHead()
            // Ann's sign-in is the one event so far (`auth.session.started`).
            #expect(empty.opened?.id == 1)

            _ = try await client.send(.post, APIPath.todoItems, token: ann, json: NewTodo(title: "before"))
            let fresh = try SSEReader(port: port, token: ann)
            _ = try await fresh.readHead()
            let position = try #require(fresh.opened).id
            #expect(position == 2)
            #expect(try await fresh.nextIs(.todoItemCreated) {  // "before" is not replayed
                _ = try await client.send(.post, APIPath.todoItems, token: ann, json: NewTodo(title: "after"))
            })

            _ = try await client.send(.post, APIPath.todoItems, token: ann, json: NewTodo(title: "after"))
            let resumed = try SSEReader(port: port, token: ann, lastEventID: position)
            _ = try await resumed.readHead()
            let missed = try #require(try await resumed.next())
            #expect(try JSONDecoder().decode(TodoItem.self, from: Data(missed.data.utf8)).title == "after")
        }
    }

    @Test("Last-Event-ID resumes after a reconnect: the missed events, in order, then live ones, no duplicates")
    func resume() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addUsers("ann", "bob")
        try await harness.withServer { client in
            let port = try #require(client.port)
            let ann = try await client.token(for: "ann")
            let bob = try await client.token(for: "bob")
            let first = try SSEReader(port: port, token: ann)
            _ = try await first.readHead()
            for title in ["a", "b"] { _ = try await client.send(.post, APIPath.todoItems, token: ann, json: NewTodo(title: title)) }
            let seen = try await first.events(2)
            #expect(seen.count == 2)

            // Disconnected: changes go on, Bob's among them.
            for title in ["c", "d", "e"] { _ = try await client.send(.post, APIPath.todoItems, token: ann, json: NewTodo(title: title)) }
            _ = try await client.send(.post, APIPath.todoItems, token: bob, json: NewTodo(title: "bob's"))

            let resumed = try SSEReader(port: port, token: ann, lastEventID: try #require(seen.last).id)
            _ = try await resumed.readHead()
            let missed = try await resumed.events(3)
            #expect(try missed.map { try JSONDecoder().decode(TodoItem.self, from: Data($0.data.utf8)).title } == ["c", "d", "e"])
            _ = try await client.send(.post, APIPath.todoItems, token: ann, json: NewTodo(title: "f"))
            let live = try await resumed.events(1)
            #expect(try live.map { try JSONDecoder().decode(TodoItem.self, from: Data($0.data.utf8)).title } == ["f"])
            #expect(try await resumed.nextIs(.todoItemCreated) {  // Bob's is never there, nor a repeat
                _ = try await client.send(.post, APIPath.todoItems, token: ann, json: NewTodo(title: "g"))
            })
            let ids = (seen + missed + live).map(\.id)
            #expect(ids == ids.sorted() && Set(ids).count == ids.count)
        }
    }

    @Test("resume works across a server restart; an id the server does not know gets bff.stream.reset")
    func resumeAcrossRestartAndReset() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addUsers("ann")
        let lastSeen: Int64 = try await harness.withServer { client in
            let ann = try await client.token(for: "ann")
            let stream = try SSEReader(port: try #require(client.port), token: ann)
            _ = try await stream.readHead()
            _ = try await client.send(.post, APIPath.todoItems, token: ann, json: NewTodo(title: "before"))
            let event = try #require(try await stream.next())
            _ = try await client.send(.post, APIPath.todoItems, token: ann, json: NewTodo(title: "missed"))
            return event.id
        }
        try await harness.withServer { client in
            let ann = try await client.token(for: "ann")
            let port = try #require(client.port)
            let resumed = try SSEReader(port: port, token: ann, lastEventID: lastSeen)
            _ = try await resumed.readHead()
            let missed = try #require(try await resumed.next())
            #expect(try JSONDecoder().decode(TodoItem.self, from: Data(missed.data.utf8)).title == "missed")

            let unknown = try SSEReader(port: port, token: ann, lastEventID: missed.id + 1000)
            _ = try await unknown.readHead()
            let reset = try #require(try await unknown.next())
            // At the newest event: ann's second sign-in, after the missed one.
            #expect(reset.name == EventName.streamReset.rawValue && reset.id == missed.id + 1)

            let malformed = try await client.execute(
                uri: APIPath.events, method: .get, headers: [.authorization: "Bearer \(ann)", .init("Last-Event-ID")!: "soon"]
            )
            #expect(malformed.status == .badRequest && malformed.apiError?.field == "Last-Event-ID")
        }
    }

    @Test("the stream needs a token")
    func needsToken() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.withServer { client in
            let response = try await client.send(.get, APIPath.events)
            #expect(response.status == .unauthorized)
        }
    }

    @Test("idle streams get keep-alive comments, and shutting the server down ends open streams")
    func heartbeatAndShutdown() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addUsers("ann")
        var configuration = harness.configuration()
        configuration.heartbeatInterval = .milliseconds(100)
        let stream: SSEReader = try await harness.withServer(configuration: configuration) { client in
            let ann = try await client.token(for: "ann")
            let stream = try SSEReader(port: try #require(client.port), token: ann)
            _ = try await stream.readHead()
            #expect(try await stream.receives(": keep-alive"), "an idle stream got no keep-alive")
            return stream
        }
        // The server has shut down gracefully with the stream open: the stream ended.
        #expect(try await stream.next(timeout: .seconds(10)) == nil)
    }
}
