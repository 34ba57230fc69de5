import BFF
import BFFTesting
import Foundation
import HummingbirdTesting
import ServerAPI
import Testing
import TestSupport

/// Two server instances on one PostgreSQL database, as behind a load balancer: what one is told,
/// the other knows. (Killed instances and a restarted database: `deploy/test-two-instances`.)
@Suite("Two server instances on one PostgreSQL database", .enabled(if: TestDatabase.isPostgres))
struct InstancesTests {
    /// `body` with clients of two instances, A and B, on the harness's database, and ann's token.
    static func withTwoInstances(
        _ body: @Sendable (_ a: any TestClientProtocol, _ b: any TestClientProtocol, _ ann: String) async throws -> Void
    ) async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addUsers("ann")
        try await harness.withServer { a in
            try await harness.withServer { b in
                try await body(a, b, try await a.token(for: "ann"))
            }
        }
    }

    @Test("a chat message posted on A reaches a live stream on B within a second; a todo of A's reaches ann's stream on B")
    func liveEventsCrossInstances() async throws {
        try await Self.withTwoInstances { a, b, ann in
            let reader = try SSEReader(port: try #require(b.port), token: ann)
            try await reader.readHead()
            let sent = ContinuousClock.now
            let posted = try await a.send(.post, APIPath.chatMessages(channel: "general"), token: ann, json: NewChatMessage(text: "hello B"))
            #expect(posted.status == .created)
            let event = try #require(try await reader.next(timeout: .seconds(1)))
            #expect(ContinuousClock.now - sent < .seconds(1))
            #expect(event.name == EventName.chatMessagePosted.rawValue && event.data.contains("hello B"))

            _ = try await a.send(.post, APIPath.todoItems, token: ann, json: NewTodo(title: "from A"))
            let todo = try #require(try await reader.next(timeout: .seconds(1)))
            #expect(todo.name == EventName.todoItemCreated.rawValue && todo.id > event.id)
        }
    }

    @Test("a todo created through A is listed through B, even right after B served (and cached) the list")
    func todoPagesCrossInstances() async throws {
        try await Self.withTwoInstances { a, b, ann in
            #expect(try await b.send(.get, APIPath.todoItems, token: ann).decode(Page<TodoItem>.self).items.isEmpty)
            let created = try await a.send(.post, APIPath.todoItems, token: ann, json: NewTodo(title: "from A")).decode(TodoItem.self)
            try await eventually("the todo listed through B", every: .milliseconds(50)) {
                try await b.send(.get, APIPath.todoItems, token: ann).decode(Page<TodoItem>.self).items.map(\.id) == [created.id]
            }
            _ = try await a.send(.patch, APIPath.todoItem(created.id), token: ann, json: TodoPatch(done: true))
            try await eventually("the todo done through B", every: .milliseconds(50)) {
                try await b.send(.get, APIPath.todoItems, token: ann).decode(Page<TodoItem>.self).items.first?.done == true
            }
        }
    }

    @Test("a write retried on B with A's Idempotency-Key is replayed, not applied twice")
    func idempotencyCrossesInstances() async throws {
        try await Self.withTwoInstances { a, b, ann in
            let first = try await a.send(.post, APIPath.todoItems, token: ann, key: "retry-1", json: NewTodo(title: "once"))
            let retried = try await b.send(.post, APIPath.todoItems, token: ann, key: "retry-1", json: NewTodo(title: "once"))
            #expect(first.status == .created && retried.status == .created)
            #expect(String(buffer: first.body) == String(buffer: retried.body))
            #expect(try await b.send(.get, APIPath.todoItems, token: ann).decode(Page<TodoItem>.self).items.count == 1)
        }
    }

    @Test("a stream resumed on B with the Last-Event-ID it had on A gets what was posted meanwhile, once each")
    func resumeOnTheOtherInstance() async throws {
        try await Self.withTwoInstances { a, b, ann in
            let onA = try SSEReader(port: try #require(a.port), token: ann)
            try await onA.readHead()
            _ = try await a.send(.post, APIPath.chatMessages(channel: "general"), token: ann, json: NewChatMessage(text: "seen"))
            let last = try #require(try await onA.next()).id
            for n in 1...5 {
                _ = try await b.send(.post, APIPath.chatMessages(channel: "general"), token: ann, json: NewChatMessage(text: "missed \(n)"))
            }
            let onB = try SSEReader(port: try #require(b.port), token: ann, lastEventID: last)
            try await onB.readHead()
            let replayed = try await onB.events(5)
            #expect(replayed.map { $0.data.contains("missed \($0.id - last)") } == Array(repeating: true, count: 5))
            _ = try await a.send(.post, APIPath.chatMessages(channel: "general"), token: ann, json: NewChatMessage(text: "after"))
            let live = try #require(try await onB.next(timeout: .seconds(1)))
            #expect(live.data.contains("after") && live.id > replayed.last!.id)
            #expect(try await onB.nextIs(.todoItemCreated) {  // no message twice
                _ = try await b.send(.post, APIPath.todoItems, token: ann, json: NewTodo(title: "after"))
            })
        }
    }
}
