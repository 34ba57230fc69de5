import BFFTesting
import Foundation
import HTTPClient
import MicroAppAPI
import MicroAppModel
import MicroAppSync
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
            subject.sync.connect(HTTPClient(endpoint: .loopback(port: server.port), token: "t"))
            subject.sync.send(.todo(.load))
            subject.sync.send(.chat(.post(channel: "general", text: "hello?")))
            subject.sync.send(.todo(.create(NewTodo(title: "typed while the server hangs"))))
            _ = try await subject.recorder.first(TodoItemsLoaded.self, timeout: .seconds(5))
            _ = try await subject.recorder.first(ChatMessageReceived.self, timeout: .seconds(5))
            _ = try await subject.recorder.first(TodoItemCreated.self, timeout: .seconds(5))
            #expect(subject.recorder.status(of: .todo)?.connection != .online)
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
