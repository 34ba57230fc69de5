import BFF
import BFFTesting
import CanvasCore
import Foundation
import HTTPTypes
import HummingbirdTesting
import ServerAPI
import ServerStore
import Testing

@Suite("BFF operations: health, readiness, metrics, registry, request ids")
struct OperationsTests {
    @Test("/health and /ready answer without a token; /ready is 503 once the database is gone")
    func healthAndReady() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.withServer { client in
            #expect(try await client.send(.get, APIPath.health).status == .ok)
            let ready = try await client.send(.get, APIPath.ready)
            #expect(ready.status == .ok && String(buffer: ready.body).contains("ready"))

            // The database is deleted under the running server (SQLite's open connections would go
            // on writing into the void; PostgreSQL's are closed).
            if TestDatabase.isPostgres {
                try await TestDatabase.drop(harness.database)
            } else {
                let database = harness.configuration().databaseURL.path
                for suffix in ["", "-wal", "-shm"] { try FileManager.default.removeItem(atPath: database + suffix) }
            }
            let notReady = try await client.send(.get, APIPath.ready)
            #expect(notReady.status == .serviceUnavailable)
            #expect(notReady.apiError?.error == "database unreachable")
        }
    }

    @Test("/metrics counts requests per route pattern, method and status, with latency histograms")
    func metrics() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addUsers("ann")
        try await harness.withServer { client in
            let ann = try await client.token(for: "ann")
            let item = try await client.send(.post, APIPath.todoItems, token: ann, json: NewTodo(title: "a")).decode(TodoItem.self)
            for _ in 0..<3 { _ = try await client.send(.get, APIPath.todoItem(item.id), token: ann) }
            _ = try await client.send(.get, APIPath.todoItem(item.id + 1), token: ann)
            _ = try await client.send(.get, "/no/such/route")

            let response = try await client.send(.get, APIPath.metrics)
            #expect(response.headers[.contentType]?.hasPrefix("text/plain; version=0.0.4") == true)
            let text = String(buffer: response.body)
            #expect(text.contains(#"bff_http_requests_total{route="/api/todo/items/{id}",method="GET",status="200"} 3"#))
            #expect(text.contains(#"bff_http_requests_total{route="/api/todo/items/{id}",method="GET",status="404"} 1"#))
            #expect(text.contains(#"bff_http_requests_total{route="/api/todo/items",method="POST",status="201"} 1"#))
            #expect(text.contains(#"bff_http_requests_total{route="NotFound",method="GET",status="404"} 1"#))
            #expect(text.contains(#"bff_http_request_duration_seconds_count{route="/api/todo/items/{id}",method="GET",status="200"} 3"#))
            #expect(text.contains("# TYPE bff_http_request_duration_seconds histogram"))
        }
    }

    @Test("every response, errors included, carries the request id its log lines carry")
    func requestIDs() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        let logs = LogCapture()
        try await harness.withServer(logs: logs) { client in
            let ok = try await client.send(.get, APIPath.health)
            let missing = try await client.send(.get, "/nope")
            let unauthorized = try await client.send(.get, APIPath.todoItems)
            let ids = [ok, missing, unauthorized].compactMap { $0.headers[.init("X-Request-Id")!] }
            #expect(ids.count == 3 && Set(ids).count == 3)
            #expect(missing.apiError == APIError(error: "not found"))
            let logged = logs.lines.joined(separator: "\n")
            for id in ids { #expect(logged.contains(id)) }
        }
    }

    @Test("the registry lists the hosted micro-apps; --apps leaves the others out, routes and all")
    func registryAndApps() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addUsers("ann")
        try await harness.withServer { client in
            let ann = try await client.token(for: "ann")
            #expect(try await client.send(.get, APIPath.registryApps).status == .unauthorized)
            let page = try await client.send(.get, APIPath.registryApps, token: ann).decode(Page<MicroAppInfo>.self)
            #expect(page.items.map(\.id) == ["calendar", "chat", "todo"] && page.next == nil)
            let chat = try #require(page.items.first { $0.id == "chat" })
            #expect(chat.basePath == "/api/chat" && chat.events == ["chat.channel.created", "chat.message.posted"])
            #expect(!chat.name.isEmpty && !chat.description.isEmpty && !chat.version.isEmpty)
        }
        try await harness.withServer(configuration: harness.configuration(apps: [.todo])) { client in
            let ann = try await client.token(for: "ann")
            let page = try await client.send(.get, APIPath.registryApps, token: ann).decode(Page<MicroAppInfo>.self)
            #expect(page.items.map(\.id) == ["todo"])
            #expect(try await client.send(.get, APIPath.todoItems, token: ann).status == .ok)
            #expect(try await client.send(.get, APIPath.calendarEvents, token: ann).status == .notFound)
            #expect(try await client.send(.get, APIPath.chatChannels, token: ann).status == .notFound)
        }
    }

    @Test("--apps parsing names what is wrong")
    func appsParsing() throws {
        #expect(try ServerApp.parseList("todo, chat") == [.todo, .chat])
        #expect(throws: MicroAppListError.self) { try ServerApp.parseList("todo,mail") }
        #expect(throws: MicroAppListError.self) { try ServerApp.parseList(" , ") }
        #expect((try? ServerApp.parseList("mail")) == nil)
        do { _ = try ServerApp.parseList("todo,mail") } catch { #expect("\(error)".contains("'mail'")) }
    }

    @Test("the OpenAPI document is served as YAML")
    func openAPIServed() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.withServer { client in
            let response = try await client.send(.get, APIPath.openAPI)
            #expect(response.status == .ok && response.headers[.contentType]?.hasPrefix("application/yaml") == true)
            #expect(String(buffer: response.body).hasPrefix("openapi: 3"))
        }
    }
}

@Suite("BFF methods")
struct MethodTests {
    @Test("a served path asked with a method it does not serve is 405 with Allow; an unknown path stays 404")
    func methodNotAllowed() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addUsers("ann")
        try await harness.withServer { client in
            let token = try await client.token(for: "ann")
            for (method, path, allow) in [(HTTPRequest.Method("TRACE")!, APIPath.todoItems, "GET, POST"), (.put, "/health", "GET"),
                                          (.put, APIPath.todoItem(1), "DELETE, GET, PATCH"), (.post, "/ready", "GET")] {
                let response = try await client.execute(uri: path, method: method, headers: [.authorization: "Bearer \(token)"])
                #expect(response.status == .methodNotAllowed, "\(method) \(path)")
                #expect(response.headers[.allow] == allow, "\(method) \(path)")
            }
            #expect(try await client.execute(uri: "/api/nothing", method: .get).status == .notFound)
            #expect(try await client.send(.get, APIPath.todoItem(999), token: token).status == .notFound, "a route's own 404")
        }
    }
}
