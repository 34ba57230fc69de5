import BFF
import Foundation
import HummingbirdTesting
import ServerAPI
import Testing

@Suite("BFF todo API")
struct TodoTests {
    @Test("create, read, patch, delete an item")
    func crud() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addUsers("ann")
        try await harness.withServer { client in
            let token = try await client.token(for: "ann")
            let created = try await client.send(.post, APIPath.todoItems, token: token, json: NewTodo(title: "milk", due: "2026-11-22"))
            #expect(created.status == .created)
            let item = try created.decode(TodoItem.self)
            #expect(item.title == "milk" && item.notes == "" && !item.done && item.due == "2026-11-22")
            #expect(created.headers[.location] == APIPath.todoItem(item.id))

            let fetched = try await client.send(.get, APIPath.todoItem(item.id), token: token)
            #expect(try fetched.decode(TodoItem.self) == item)

            let patched = try await client.send(.patch, APIPath.todoItem(item.id), token: token, json: TodoPatch(notes: "2 l", done: true))
            #expect(try patched.decode(TodoItem.self) == TodoItem(id: item.id, title: "milk", notes: "2 l", done: true, due: "2026-11-22"))

            // An explicit null clears the due date; an absent key keeps it.
            let cleared = try await client.send(.patch, APIPath.todoItem(item.id), token: token, rawBody: #"{"due": null}"#)
            #expect(try cleared.decode(TodoItem.self).due == nil)
            #expect(String(buffer: cleared.body).contains(#""due":null"#))

            #expect(try await client.send(.delete, APIPath.todoItem(item.id), token: token).status == .noContent)
            #expect(try await client.send(.get, APIPath.todoItem(item.id), token: token).status == .notFound)
            #expect(try await client.send(.delete, APIPath.todoItem(item.id), token: token).status == .notFound)
            #expect(try await client.send(.get, APIPath.todoItems + "/abc", token: token).status == .notFound)
        }
    }

    @Test("a user never sees or changes another user's items: 404, not 403")
    func usersAreIsolated() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addUsers("ann", "bob")
        try await harness.withServer { client in
            let ann = try await client.token(for: "ann")
            let bob = try await client.token(for: "bob")
            let item = try await client.send(.post, APIPath.todoItems, token: ann, json: NewTodo(title: "ann's")).decode(TodoItem.self)

            #expect(try await client.send(.get, APIPath.todoItem(item.id), token: bob).status == .notFound)
            #expect(try await client.send(.patch, APIPath.todoItem(item.id), token: bob, json: TodoPatch(title: "mine")).status == .notFound)
            #expect(try await client.send(.delete, APIPath.todoItem(item.id), token: bob).status == .notFound)
            #expect(try await client.send(.get, APIPath.todoItems, token: bob).decode(Page<TodoItem>.self).items.isEmpty)

            // Ann's item is untouched.
            #expect(try await client.send(.get, APIPath.todoItem(item.id), token: ann).decode(TodoItem.self) == item)
        }
    }

    @Test("every field rule answers 400 naming its field", arguments: [
        (#"{"title": ""}"#, "title"),
        (#"{"title": "   "}"#, "title"),
        ("{\"title\": \"\(String(repeating: "x", count: 201))\"}", "title"),
        (#"{"title": 5}"#, "title"),
        (#"{"notes": "x"}"#, "title"),
        ("{\"title\": \"t\", \"notes\": \"\(String(repeating: "n", count: 2001))\"}", "notes"),
        (#"{"title": "t", "due": "2026-02-30"}"#, "due"),
        (#"{"title": "t", "due": "22/11/2026"}"#, "due"),
        (#"{"title": "t", "due": "2026-11-22T10:00:00Z"}"#, "due"),
        (#"{"title": "t", "due": 20261122}"#, "due"),
    ])
    func createValidation(body: String, field: String) async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addUsers("ann")
        try await harness.withServer { client in
            let token = try await client.token(for: "ann")
            let response = try await client.send(.post, APIPath.todoItems, token: token, rawBody: body)
            #expect(response.status == .badRequest)
            #expect(response.apiError?.field == field)
            #expect(try await client.send(.get, APIPath.todoItems, token: token).decode(Page<TodoItem>.self).items.isEmpty)
        }
    }

    @Test("limits at the edge are accepted; patches, query parameters and bodies are checked too")
    func edgesAndOtherValidation() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addUsers("ann")
        try await harness.withServer { client in
            let token = try await client.token(for: "ann")
            let longest = NewTodo(title: String(repeating: "é", count: 200), notes: String(repeating: "n", count: 2000), due: "2028-02-29")
            let created = try await client.send(.post, APIPath.todoItems, token: token, json: longest)
            #expect(created.status == .created)
            let id = try created.decode(TodoItem.self).id

            let badPatches: [(String, String)] = [
                (#"{"title": ""}"#, "title"),
                (#"{"done": "yes"}"#, "done"),
                (#"{"due": "2027-02-29"}"#, "due"),
                ("{\"notes\": \"\(String(repeating: "n", count: 2001))\"}", "notes"),
            ]
            for (body, field) in badPatches {
                let response = try await client.send(.patch, APIPath.todoItem(id), token: token, rawBody: body)
                #expect(response.status == .badRequest, "\(body)")
                #expect(response.apiError?.field == field, "\(body)")
            }
            for body in ["not json", "[1, 2]", ""] {
                let response = try await client.send(.post, APIPath.todoItems, token: token, rawBody: body)
                #expect(response.status == .badRequest, "\(body)")
            }
            let badQueries: [(String, String)] = [
                ("done=maybe", "done"), ("from=2026-13-01", "from"), ("to=tomorrow", "to"),
                ("from=2026-12-01&to=2026-11-01", "from"), ("limit=0", "limit"), ("limit=101", "limit"),
                ("limit=ten", "limit"), ("cursor=xyz", "cursor"),
            ]
            for (query, field) in badQueries {
                let response = try await client.send(.get, APIPath.todoItems + "?" + query, token: token)
                #expect(response.status == .badRequest, "\(query)")
                #expect(response.apiError?.field == field, "\(query)")
            }
            // The item is as it was created.
            let item = try await client.send(.get, APIPath.todoItem(id), token: token).decode(TodoItem.self)
            #expect(item.title == longest.title && item.notes == longest.notes && item.due == "2028-02-29")
        }
    }

    @Test("a body over 64 KiB gets 413 and changes nothing")
    func oversizedBody() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addUsers("ann")
        try await harness.withServer { client in
            let token = try await client.token(for: "ann")
            let huge = "{\"title\": \"t\", \"notes\": \"\(String(repeating: "n", count: 64 * 1024))\"}"
            let response = try await client.send(.post, APIPath.todoItems, token: token, rawBody: huge)
            #expect(response.status == .contentTooLarge)
            #expect(response.apiError?.error == "request body too large")
            let fits = "{\"title\": \"t\", \"notes\": \"\(String(repeating: "n", count: 60 * 1024))\"}"
            // Under the limit it is the notes rule, not the size, that refuses it.
            #expect(try await client.send(.post, APIPath.todoItems, token: token, rawBody: fits).apiError?.field == "notes")
            #expect(try await client.send(.get, APIPath.todoItems, token: token).decode(Page<TodoItem>.self).items.isEmpty)
        }
    }

    @Test("lists page with a cursor and filter by done and by due range")
    func paginationAndFilters() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addUsers("ann")
        try await harness.withServer { client in
            let token = try await client.token(for: "ann")
            var ids: [Int64] = []
            for day in 1...25 {
                let due = day <= 20 ? String(format: "2026-11-%02d", day) : nil
                let item = try await client.send(.post, APIPath.todoItems, token: token, json: NewTodo(title: "item \(day)", due: due))
                    .decode(TodoItem.self)
                ids.append(item.id)
                if day % 5 == 0 {
                    _ = try await client.send(.patch, APIPath.todoItem(item.id), token: token, json: TodoPatch(done: true))
                }
            }

            // Pages of 10: 10, 10, 5, each in id order, the last with next == null.
            var seen: [Int64] = []
            var cursor: String?
            var pages = 0
            repeat {
                let uri = APIPath.todoItems + "?limit=10" + (cursor.map { "&cursor=\($0)" } ?? "")
                let response = try await client.send(.get, uri, token: token)
                let page = try response.decode(Page<TodoItem>.self)
                seen += page.items.map(\.id)
                cursor = page.next
                pages += 1
                if page.next == nil { #expect(String(buffer: response.body).contains(#""next":null"#)) }
            } while cursor != nil && pages < 10
            #expect(pages == 3)
            #expect(seen == ids)

            // The default page holds them all.
            #expect(try await client.send(.get, APIPath.todoItems, token: token).decode(Page<TodoItem>.self).items.count == 25)

            let done = try await client.send(.get, APIPath.todoItems + "?done=true", token: token).decode(Page<TodoItem>.self)
            #expect(done.items.map(\.title) == ["item 5", "item 10", "item 15", "item 20", "item 25"])
            let open = try await client.send(.get, APIPath.todoItems + "?done=false", token: token).decode(Page<TodoItem>.self)
            #expect(open.items.count == 20)

            let range = try await client.send(.get, APIPath.todoItems + "?from=2026-11-03&to=2026-11-06", token: token)
                .decode(Page<TodoItem>.self)
            #expect(range.items.map(\.due) == ["2026-11-03", "2026-11-04", "2026-11-05", "2026-11-06"])
            let openInRange = try await client.send(.get, APIPath.todoItems + "?from=2026-11-03&to=2026-11-06&done=false", token: token)
                .decode(Page<TodoItem>.self)
            #expect(openInRange.items.map(\.due) == ["2026-11-03", "2026-11-04", "2026-11-06"])
            let from = try await client.send(.get, APIPath.todoItems + "?from=2026-11-19", token: token).decode(Page<TodoItem>.self)
            #expect(from.items.map(\.due) == ["2026-11-19", "2026-11-20"])
        }
    }

    @Test("items and tokens survive a restart of the server on the same database file")
    func restartKeepsData() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addUsers("ann")
        let (token, item) = try await harness.withServer { client in
            let token = try await client.token(for: "ann")
            let item = try await client.send(.post, APIPath.todoItems, token: token, json: NewTodo(title: "kept", notes: "n", due: "2026-12-24"))
                .decode(TodoItem.self)
            return (token, item)
        }
        try await harness.withServer { client in
            let page = try await client.send(.get, APIPath.todoItems, token: token).decode(Page<TodoItem>.self)
            #expect(page.items == [item])
            // And the new server hands out working tokens for the same user.
            let fresh = try await client.token(for: "ann")
            #expect(try await client.send(.get, APIPath.todoItem(item.id), token: fresh).decode(TodoItem.self) == item)
        }
    }
}
