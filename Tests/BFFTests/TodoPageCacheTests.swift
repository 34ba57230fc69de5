@testable import BFF
import Foundation
import Hummingbird
import HummingbirdTesting
import ServerAPI
@testable import ServerRoutes
@testable import ServerStore
import Testing

/// The list of todos is served from a per-user cache of pages (`TodoPageCache`); every change must
/// show in the very next list, for its owner only.
@Suite("BFF todo list pages stay current")
struct TodoPageCacheTests {
    @Test("each change shows in the next list; another user's list and other queries stay their own")
    func changesShowAtOnce() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addUsers("ann", "bob")
        try await harness.withServer { client in
            let ann = try await client.token(for: "ann")
            let bob = try await client.token(for: "bob")
            func titles(_ token: String, _ query: String = "") async throws -> [String] {
                try await client.send(.get, APIPath.todoItems + query, token: token).decode(Page<TodoItem>.self).items.map(\.title)
            }
            #expect(try await titles(ann).isEmpty)
            let milk = try await client.send(.post, APIPath.todoItems, token: ann, json: NewTodo(title: "milk")).decode(TodoItem.self)
            #expect(try await titles(ann) == ["milk"])
            #expect(try await titles(ann, "?done=false") == ["milk"])
            #expect(try await titles(bob).isEmpty)

            _ = try await client.send(.patch, APIPath.todoItem(milk.id), token: ann, json: TodoPatch(title: "oat milk", done: true))
            #expect(try await titles(ann) == ["oat milk"])
            #expect(try await titles(ann, "?done=false").isEmpty)
            #expect(try await titles(ann, "?done=true") == ["oat milk"])

            _ = try await client.send(.post, APIPath.todoItems, token: bob, json: NewTodo(title: "bob's"))
            #expect(try await titles(ann) == ["oat milk"])
            #expect(try await titles(bob) == ["bob's"])

            _ = try await client.send(.delete, APIPath.todoItem(milk.id), token: ann)
            #expect(try await titles(ann).isEmpty)
            #expect(try await titles(ann, "?done=true").isEmpty)
        }
    }

    @Test("lists read while changes commit never keep an old page")
    func concurrentReadsAndWrites() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addUsers("ann")
        try await harness.withServer { client in
            let ann = try await client.token(for: "ann")
            for round in 1...20 {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask { _ = try await client.send(.post, APIPath.todoItems, token: ann, json: NewTodo(title: "item \(round)")) }
                    for _ in 0..<4 { group.addTask { _ = try await client.send(.get, APIPath.todoItems, token: ann) } }
                    try await group.waitForAll()
                }
                let count = try await client.send(.get, APIPath.todoItems, token: ann).decode(Page<TodoItem>.self).items.count
                #expect(count == round)
            }
        }
    }

    @Test("the pages kept are bounded in bytes, however large and many the queries")
    func boundedInBytes() {
        let cache = TodoPageCache()
        let page = ByteBuffer(repeating: UInt8(ascii: "x"), count: 700 << 10)  // a page of long notes
        for index in 0..<2000 {
            let key = TodoPageCache.Key(owner: 1, query: TodoQuery(limit: 100, after: Int64(index)))
            cache.store(page, for: key, readAt: cache.generation(of: 1))
            #expect(cache.bytes <= cache.capacity)
        }
        #expect(cache.bytes > 0)
        let huge = ByteBuffer(repeating: 0, count: cache.capacity + 1)
        cache.store(huge, for: TodoPageCache.Key(owner: 2, query: TodoQuery()), readAt: cache.generation(of: 2))
        #expect(cache.page(for: TodoPageCache.Key(owner: 2, query: TodoQuery())) == nil)
    }

    @Test("a commit drops what it makes stale: a todo event its owner's pages, also when the hub hands it to streams, a deleted user theirs, changes unseen everyone's")
    func commitsDropWhatTheyMakeStale() async throws {
        let hub = LiveEventHub()
        let cache = TodoPageCache()
        hub.observeCommits { cache.forget(after: $0) }
        let page = ByteBuffer(string: "[]")
        func keep(_ owners: Int64...) {
            for owner in owners { cache.store(page, for: TodoPageCache.Key(owner: owner, query: TodoQuery()), readAt: cache.generation(of: owner)) }
        }
        func kept(_ owner: Int64) -> Bool { cache.page(for: TodoPageCache.Key(owner: owner, query: TodoQuery())) != nil }
        keep(1, 2, 3)
        hub.committed(.event(name: EventName.calendarEventCreated.rawValue, owner: 1))
        hub.committed(.event(name: EventName.todoItemCreated.rawValue, owner: nil))
        #expect(kept(1) && kept(2) && kept(3))
        // Handed to a stream, the event has dropped the pages by the time `publish` returns.
        let stream = try hub.subscribe(userID: 1)
        hub.publish(.init(event: LiveEvent(id: 1, name: EventName.todoItemCreated.rawValue, data: "{}"), ownerID: 1))
        #expect(!kept(1) && kept(2) && kept(3))
        var items = stream.items.makeAsyncIterator()
        guard case .event(let told) = await items.next() else { Issue.record("the stream was not told"); return }
        #expect(told.id == 1)
        hub.committed(.userDeleted(2))
        #expect(!kept(2) && kept(3))
        keep(1, 2)
        hub.committed(.unseen)
        #expect(!kept(1) && !kept(2) && !kept(3))
    }

}
