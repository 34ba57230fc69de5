import AppModel
import BFFTesting
import Foundation
import HTTPClient
import ServerAPI
import ServerSync
import Synchronization
import Testing

@Suite("Sync engine against servers that misbehave")
struct BadServerTests {
    @Test("garbage from the server marks every app failing with a reason, and local writes still show at once")
    func garbage() async throws {
        let server = try RawServer { connection, _ in
            connection.readRequest()
            connection.respond(status: "200 OK", headers: ["Content-Type: text/plain"], body: "<html>not an API</html>")
        }
        defer { server.stop() }
        try await withTemporaryDirectory { directory in
            let subject = try SyncUnderTest(cacheFile: directory.appendingPathComponent("cache.sqlite"))
            subject.sync.connect(HTTPClient(endpoint: .loopback(port: server.port), token: "t"))
            try await subject.recorder.waitForStatus(of: .chat) { $0.connection == .failing("unreadable answer from the server") }
            subject.sync.send(.todo(.create(NewTodo(title: "still works"))))
            let created = try await subject.recorder.first(TodoItemCreated.self, timeout: .seconds(5))
            #expect(created.item.title == "still works" && LocalID.isLocal(created.item.id))
            try await subject.recorder.waitForStatus(of: .todo) { $0.pendingWrites == 1 }
            await subject.sync.stop()
        }
    }

    @Test("a server that never answers holds up no command")
    func silent() async throws {
        let server = try RawServer { connection, _ in
            connection.readRequest()
            connection.waitForClose()
        }
        defer { server.stop() }
        try await withTemporaryDirectory { directory in
            let subject = try SyncUnderTest(cacheFile: directory.appendingPathComponent("cache.sqlite"))
            // Calls that wait far longer than the test: a command held up behind one would not
            // show within it, however loaded the machine (a 5 s wait starved once beside the
            // other suites, while the client's 15 s was still running).
            let patient = HTTPClient.Configuration(totalTimeout: .seconds(300))
            subject.sync.connect(HTTPClient(endpoint: .loopback(port: server.port), token: "t", configuration: patient))
            subject.sync.send(.todo(.load))
            subject.sync.send(.chat(.post(channel: "general", text: "hello?")))
            subject.sync.send(.todo(.create(NewTodo(title: "typed while the server hangs"))))
            _ = try await subject.recorder.first(TodoItemsLoaded.self, timeout: .seconds(60))
            _ = try await subject.recorder.first(ChatMessageReceived.self, timeout: .seconds(60))
            _ = try await subject.recorder.first(TodoItemCreated.self, timeout: .seconds(60))
            #expect(subject.recorder.status(of: .todo)?.connection != .online)
            await subject.sync.stop()
        }
    }

    @Test("a write the server is still running (409 naming the Idempotency-Key) is sent again with its key and lands once")
    func writeStillRunning() async throws {
        let posts = Atomic<Int>(0)
        let server = try RawServer { connection, _ in
            while let head = connection.readRequest() {
                if head.hasPrefix("GET /api/events") {
                    connection.write("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\n")
                    connection.waitForClose()
                    return
                } else if head.hasPrefix("POST /api/todo/items"), posts.add(1, ordering: .relaxed).newValue == 1 {
                    connection.respond(status: "409 Conflict", headers: ["Content-Type: application/json", "Retry-After: 1"],
                                       body: #"{"error":"a request with this Idempotency-Key is still running","field":"Idempotency-Key"}"#,
                                       keepAlive: true)
                } else if head.hasPrefix("POST /api/todo/items") {
                    connection.respond(status: "201 Created", headers: ["Content-Type: application/json"],
                                       body: #"{"id":7,"title":"once","notes":"","done":false,"due":null}"#, keepAlive: true)
                } else {
                    connection.respond(status: "200 OK", headers: ["Content-Type: application/json"], body: #"{"items":[],"next":null}"#,
                                       keepAlive: true)
                }
            }
        }
        defer { server.stop() }
        try await withTemporaryDirectory { directory in
            let subject = try SyncUnderTest(cacheFile: directory.appendingPathComponent("cache.sqlite"))
            subject.sync.connect(HTTPClient(endpoint: .loopback(port: server.port), token: "t"))
            subject.sync.send(.todo(.create(NewTodo(title: "once"))))
            let synced = try await subject.recorder.first(TodoItemSynced.self, timeout: .seconds(10))
            #expect(synced.item.id == 7)
            let keys = server.requests.filter { $0.hasPrefix("POST /api/todo/items") }.map { head in
                head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("idempotency-key:") }
            }
            #expect(keys.count == 2)
            #expect(keys[0] != nil && keys[0] == keys[1])
            try await subject.recorder.waitForStatus(of: .todo) { $0.pendingWrites == 0 && $0.connection == .online }
            await subject.sync.stop()
        }
    }

    @Test("panes say nothing of the server for the first second, then 'connecting' while none answers")
    func quietStart() async throws {
        try await withTemporaryDirectory { directory in
            let subject = try SyncUnderTest(cacheFile: directory.appendingPathComponent("cache.sqlite"))
            try await subject.recorder.waitForStatus(of: .todo) { $0.connection == .starting }
            #expect(subject.recorder.all(SyncStatusChanged.self).allSatisfy { $0.status.connection == .starting })
            try await subject.recorder.waitForStatus(of: .todo, timeout: .seconds(5)) { $0.connection == .connecting }
            await subject.sync.stop()
        }
    }

    @Test("a refused token says to log in again")
    func refusedToken() async throws {
        try await LiveBFF.withServer(users: ["ann"]) { server in
            try await withTemporaryDirectory { directory in
                let subject = try SyncUnderTest(cacheFile: directory.appendingPathComponent("cache.sqlite"))
                subject.sync.connect(HTTPClient(endpoint: server.endpoint, token: "not-a-token"))
                try await subject.recorder.waitForStatus(of: .todo) { $0.connection == .failing("token refused: log in again") }
                await subject.sync.stop()
            }
        }
    }
}
