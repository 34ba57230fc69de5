import Foundation
import HTTPClient
import Synchronization
import Testing

@Suite("HTTP client failures, timeouts, retries and cancellation")
struct FailureTests {
    /// Fast retries, so the tests stay fast.
    private static let quickRetries = HTTPClient.RetryPolicy(maxAttempts: 3, initialBackoff: .milliseconds(20), maxBackoff: .milliseconds(100))

    private struct Flag: Decodable, Equatable {
        var ok: Bool
    }

    @Test("nothing listening: .unreachable, quickly, after the retries")
    func unreachable() async throws {
        let port = try unusedPort()
        let client = HTTPClient(endpoint: .loopback(port: port))
        let (result, elapsed) = await measure { () async -> Result<Flag, HTTPClientError> in
            do throws(HTTPClientError) { return .success(try await client.get("/health")) } catch { return .failure(error) }
        }
        guard case .failure(.unreachable(let message)) = result else {
                Issue.record("\(result)")
                return
            }
        #expect(message.contains("\(port)"))
        // Three attempts with the default backoff (at most 200 + 400 ms).
        #expect(elapsed < .seconds(2))
    }

    @Test("no connection within the connect timeout: .unreachable, not .timeout")
    func connectTimeout() async throws {
        // A listener that never accepts, with its backlog filled: further connects get no answer.
        let server = try RawServer(backlog: 0, accepting: false)
        defer { server.stop() }
        var fillers: [Int32] = []
        defer { fillers.forEach { close($0) } }
        for _ in 0..<4 { fillers.append(try Self.connectWithoutWaiting(port: server.port)) }
        try await Task.sleep(for: .milliseconds(50))

        let client = HTTPClient(
            endpoint: .loopback(port: server.port),
            configuration: .init(connectTimeout: .milliseconds(200), totalTimeout: .seconds(5), retry: .none)
        )
        let (result, elapsed) = await measure { () async -> Result<Flag, HTTPClientError> in
            do throws(HTTPClientError) { return .success(try await client.get("/health")) } catch { return .failure(error) }
        }
        guard case .failure(.unreachable) = result else {
                Issue.record("\(result)")
                return
            }
        #expect(elapsed >= .milliseconds(150) && elapsed < .seconds(2))
    }

    @Test("a server that accepts but never answers: .timeout within the total timeout")
    func stalledServer() async throws {
        let server = try RawServer { connection, _ in
            connection.readRequest()
            connection.waitForClose()
        }
        defer { server.stop() }
        let client = HTTPClient(endpoint: .loopback(port: server.port), configuration: .init(totalTimeout: .milliseconds(600)))
        let (result, elapsed) = await measure { () async -> Result<Flag, HTTPClientError> in
            do throws(HTTPClientError) { return .success(try await client.get("/health")) } catch { return .failure(error) }
        }
        #expect(result == .failure(.timeout))
        #expect(elapsed >= .milliseconds(550) && elapsed < .milliseconds(1500), "\(elapsed)")
        // The attempt took the whole budget, so there was no time left for a retry.
        #expect(server.requests.count == 1)
    }

    @Test("an attempt timeout lets a hanging GET be retried within the total timeout")
    func attemptTimeout() async throws {
        let server = try RawServer { connection, index in
            connection.readRequest()
            if index == 0 {
                connection.waitForClose()
            } else {
                connection.respond(status: "200 OK", headers: ["Content-Type: application/json"], body: #"{"ok":true}"#)
            }
        }
        defer { server.stop() }
        let retry = HTTPClient.RetryPolicy(maxAttempts: 2, initialBackoff: .milliseconds(10), attemptTimeout: .milliseconds(300))
        let client = HTTPClient(endpoint: .loopback(port: server.port), configuration: .init(totalTimeout: .seconds(3), retry: retry))
        #expect(try await client.get("/health", as: Flag.self) == Flag(ok: true))
        #expect(server.requests.count == 2)
    }

    /// A server answering 503 to the first two requests and `{"ok":true}` after.
    private static func flakyServer() throws -> RawServer {
        try RawServer { connection, index in
            connection.readRequest()
            if index < 2 {
                connection.respond(status: "503 Service Unavailable", headers: ["Content-Type: application/json"], body: #"{"error":"busy","field":null}"#)
            } else {
                connection.respond(status: "200 OK", headers: ["Content-Type: application/json"], body: #"{"ok":true}"#)
            }
        }
    }

    @Test("a GET answered 503 twice is retried and succeeds")
    func getIsRetried() async throws {
        let server = try Self.flakyServer()
        defer { server.stop() }
        let client = HTTPClient(endpoint: .loopback(port: server.port), configuration: .init(retry: Self.quickRetries))
        #expect(try await client.get("/things", as: Flag.self) == Flag(ok: true))
        #expect(server.requests.count == 3)
        #expect(server.requests.allSatisfy { $0.hasPrefix("GET /things HTTP/1.1") })
    }

    @Test("a POST is not retried; with an Idempotency-Key it is")
    func postIsNotRetried() async throws {
        let server = try Self.flakyServer()
        defer { server.stop() }
        let client = HTTPClient(endpoint: .loopback(port: server.port), configuration: .init(retry: Self.quickRetries))
        do throws(HTTPClientError) {
            _ = try await client.post("/things", body: ["name": "x"], as: Flag.self)
            Issue.record("the POST succeeded")
        } catch {
            guard case .status(503, _, let apiError) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(apiError?.error == "busy")
        }
        #expect(server.requests.count == 1)

        let keyed = try Self.flakyServer()
        defer { keyed.stop() }
        let keyedClient = HTTPClient(endpoint: .loopback(port: keyed.port), configuration: .init(retry: Self.quickRetries))
        #expect(try await keyedClient.post("/things", body: ["name": "x"], idempotencyKey: "k-1", as: Flag.self) == Flag(ok: true))
        #expect(keyed.requests.count == 3)
        #expect(keyed.requests.allSatisfy { $0.contains("Idempotency-Key: k-1") && $0.contains("Content-Type: application/json") })
    }

    @Test("429 with Retry-After waits that long; one longer than the budget fails at once")
    func retryAfter() async throws {
        let server = try RawServer { connection, index in
            connection.readRequest()
            if index == 0 {
                connection.respond(status: "429 Too Many Requests", headers: ["Retry-After: 1"])
            } else {
                connection.respond(status: "200 OK", body: #"{"ok":true}"#)
            }
        }
        defer { server.stop() }
        let client = HTTPClient(endpoint: .loopback(port: server.port), configuration: .init(retry: Self.quickRetries))
        let (flag, elapsed) = try await measure { try await client.get("/x", as: Flag.self) }
        #expect(flag == Flag(ok: true))
        #expect(elapsed >= .seconds(1) && elapsed < .seconds(2))

        let busy = try RawServer { connection, _ in
            connection.readRequest()
            connection.respond(status: "429 Too Many Requests", headers: ["Retry-After: 30"])
        }
        defer { busy.stop() }
        let impatient = HTTPClient(endpoint: .loopback(port: busy.port), configuration: .init(totalTimeout: .seconds(5), retry: Self.quickRetries))
        let (result, waited) = await measure { () async -> Result<Flag, HTTPClientError> in
            do throws(HTTPClientError) { return .success(try await impatient.get("/x")) } catch { return .failure(error) }
        }
        guard case .failure(.status(429, _, _)) = result else {
                Issue.record("\(result)")
                return
            }
        #expect(waited < .milliseconds(500))
        #expect(busy.requests.count == 1)
    }

    @Test("a 2xx body that is not the asked JSON: .undecodable with status, body and reason")
    func undecodable() async throws {
        let server = try RawServer { connection, index in
            connection.readRequest()
            connection.respond(status: "200 OK", body: index == 0 ? "not json" : #"{"ok":"yes"}"#)
        }
        defer { server.stop() }
        let client = HTTPClient(endpoint: .loopback(port: server.port))
        await #expect(throws: HTTPClientError.undecodable(status: 200, body: Array("not json".utf8), reason: "not JSON")) {
            try await client.get("/x", as: Flag.self)
        }
        await #expect(throws: HTTPClientError.undecodable(status: 200, body: Array(#"{"ok":"yes"}"#.utf8), reason: "ok: expected Bool")) {
            try await client.get("/x", as: Flag.self)
        }
        // Not retried: a body that does not decode will not decode the next time either.
        #expect(server.requests.count == 2)
    }

    @Test("a response larger than the limit is refused")
    func tooLarge() async throws {
        let server = try RawServer { connection, _ in
            connection.readRequest()
            connection.respond(status: "200 OK", body: String(repeating: "x", count: 10_000))
        }
        defer { server.stop() }
        let client = HTTPClient(endpoint: .loopback(port: server.port), configuration: .init(maxResponseBytes: 1000))
        do throws(HTTPClientError) {
            _ = try await client.send(.init(.get, "/big"))
            Issue.record("the response was accepted")
        } catch {
            guard case .undecodable(200, _, let reason) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(reason == "response larger than 1000 bytes")
        }
    }

    @Test("cancelling a pending request returns .cancelled promptly and closes its connection")
    func cancellation() async throws {
        let server = try RawServer { connection, _ in
            connection.readRequest()
            connection.waitForClose()
        }
        defer { server.stop() }
        let client = HTTPClient(endpoint: .loopback(port: server.port), configuration: .init(totalTimeout: .seconds(30)))
        let request = Task { () async -> Result<Flag, HTTPClientError> in
            do throws(HTTPClientError) { return .success(try await client.get("/slow")) } catch { return .failure(error) }
        }
        while server.requests.isEmpty { try await Task.sleep(for: .milliseconds(5)) }
        let (result, elapsed) = await measure {
            request.cancel()
            return await request.value
        }
        #expect(result == .failure(.cancelled))
        #expect(elapsed < .milliseconds(200), "\(elapsed)")
        // The transfer is gone: the server sees its connection closed.
        try await withDeadline(.seconds(2)) {
            while server.closedByClient == 0 { try await Task.sleep(for: .milliseconds(5)) }
        }
    }

    @Test("a task cancelled before sending never reaches the server")
    func cancelledBeforehand() async throws {
        let server = try RawServer { connection, _ in
            connection.readRequest()
            connection.respond(status: "200 OK", body: #"{"ok":true}"#)
        }
        defer { server.stop() }
        let client = HTTPClient(endpoint: .loopback(port: server.port))
        let request = Task { () async -> Result<Flag, HTTPClientError> in
            withUnsafeCurrentTask { $0?.cancel() }
            do throws(HTTPClientError) { return .success(try await client.get("/x")) } catch { return .failure(error) }
        }
        #expect(await request.value == .failure(.cancelled))
        try await Task.sleep(for: .milliseconds(50))
        #expect(server.requests.isEmpty)
    }

    /// Starts a TCP connect to 127.0.0.1:port without waiting for it to finish.
    private static func connectWithoutWaiting(port: Int) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        return fd
    }
}
