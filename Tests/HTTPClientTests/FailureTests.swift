import BFFTesting
import Foundation
import HTTPClient
import Testing
import TestSupport

@Suite("HTTP client failures, timeouts, retries and cancellation")
struct FailureTests {
    /// Fast retries, so the tests stay fast.
    private static let quickRetries = HTTPClient.RetryPolicy(maxAttempts: 3, initialBackoff: .milliseconds(20), maxBackoff: .milliseconds(100))

    @Test("a server that accepts but never answers: .timeout within the total timeout", arguments: Transport.allCases)
    func stalledServer(_ transport: Transport) async throws {
        let server = try transport.server { connection, _ in
            connection.readRequest()
            connection.waitForClose()
        }
        defer { server.stop() }
        let client = HTTPClient(endpoint: server.endpoint, configuration: .init(totalTimeout: .milliseconds(600)))
        let (result, elapsed) = await measure { await outcome { () async throws(HTTPClientError) in try await client.get("/health", as: Flag.self) } }
        #expect(result == .failure(.timeout))
        #expect(elapsed >= .milliseconds(550) && elapsed < .seconds(3), "\(elapsed)")
        // The attempt took the whole budget, so there was no time left for a retry.
        #expect(server.requests.count == 1)
    }

    @Test("an attempt timeout lets a hanging GET be retried within the total timeout", arguments: Transport.allCases)
    func attemptTimeout(_ transport: Transport) async throws {
        let server = try transport.server { connection, index in
            connection.readRequest()
            if index == 0 {
                connection.waitForClose()
            } else {
                connection.respond(status: "200 OK", headers: ["Content-Type: application/json"], body: Flag.okJSON)
            }
        }
        defer { server.stop() }
        let retry = HTTPClient.RetryPolicy(maxAttempts: 2, initialBackoff: .milliseconds(10), attemptTimeout: .milliseconds(300))
        let client = HTTPClient(endpoint: server.endpoint, configuration: .init(totalTimeout: .seconds(5), retry: retry))
        #expect(try await client.get("/health", as: Flag.self) == Flag(ok: true))
        #expect(server.requests.count == 2)
    }

    /// A server answering 503 to the first two requests and `{"ok":true}` after.
    private static func flakyServer(_ transport: Transport) throws -> RawServer {
        try transport.server { connection, index in
            connection.readRequest()
            if index < 2 {
                connection.respond(status: "503 Service Unavailable", headers: ["Content-Type: application/json"], body: #"{"error":"busy","field":null}"#)
            } else {
                connection.respond(status: "200 OK", headers: ["Content-Type: application/json"], body: Flag.okJSON)
            }
        }
    }

    @Test("a GET answered 503 twice is retried and succeeds", arguments: Transport.allCases)
    func getIsRetried(_ transport: Transport) async throws {
        let server = try Self.flakyServer(transport)
        defer { server.stop() }
        let client = HTTPClient(endpoint: server.endpoint, configuration: .init(retry: Self.quickRetries))
        let (flag, elapsed) = try await measure { try await client.get("/things", as: Flag.self) }
        #expect(flag == Flag(ok: true))
        // Backoff: at least half of 20 ms, then half of 40 ms.
        #expect(elapsed >= .milliseconds(30), "\(elapsed)")
        #expect(server.requests.count == 3)
        #expect(server.requests.allSatisfy { $0.hasPrefix("GET /things HTTP/1.1") })
    }

    @Test("a POST answered 503 is sent exactly once; with an Idempotency-Key it is retried", arguments: Transport.allCases)
    func postIsNotRetried(_ transport: Transport) async throws {
        let server = try Self.flakyServer(transport)
        defer { server.stop() }
        let client = HTTPClient(endpoint: server.endpoint, configuration: .init(retry: Self.quickRetries))
        let result = await outcome { () async throws(HTTPClientError) in try await client.post("/things", body: ["name": "x"], as: Flag.self) }
        guard case .failure(.status(503, let body, let apiError)) = result else {
            Issue.record("\(result)")
            return
        }
        #expect(String(decoding: body, as: UTF8.self) == #"{"error":"busy","field":null}"#)
        #expect(apiError?.error == "busy")
        // The call returns after its last attempt, and the server records a request before it answers.
        #expect(server.requests.count == 1)

        let keyed = try Self.flakyServer(transport)
        defer { keyed.stop() }
        let keyedClient = HTTPClient(endpoint: keyed.endpoint, configuration: .init(retry: Self.quickRetries))
        #expect(try await keyedClient.post("/things", body: ["name": "x"], idempotencyKey: "k-1", as: Flag.self) == Flag(ok: true))
        #expect(keyed.requests.count == 3)
        #expect(keyed.requests.allSatisfy { $0.contains("Idempotency-Key: k-1") && $0.contains("Content-Type: application/json") })
    }

    @Test("503 with Retry-After waits that long; one longer than the budget fails at once", arguments: Transport.allCases)
    func retryAfter(_ transport: Transport) async throws {
        let server = try transport.server { connection, index in
            connection.readRequest()
            if index == 0 {
                connection.respond(status: "503 Service Unavailable", headers: ["Retry-After: 1"])
            } else {
                connection.respond(status: "200 OK", body: Flag.okJSON)
            }
        }
        defer { server.stop() }
        // Without Retry-After, the first retry would come after 10 to 20 ms.
        let client = HTTPClient(endpoint: server.endpoint, configuration: .init(retry: Self.quickRetries))
        let (flag, elapsed) = try await measure { try await client.get("/x", as: Flag.self) }
        #expect(flag == Flag(ok: true))
        #expect(elapsed >= .seconds(1) && elapsed < .seconds(4), "\(elapsed)")
        #expect(server.requests.count == 2)

        let busy = try transport.server { connection, _ in
            connection.readRequest()
            connection.respond(status: "429 Too Many Requests", headers: ["Retry-After: 30"])
        }
        defer { busy.stop() }
        let impatient = HTTPClient(endpoint: busy.endpoint, configuration: .init(totalTimeout: .seconds(5), retry: Self.quickRetries))
        let (result, waited) = await measure { await outcome { () async throws(HTTPClientError) in try await impatient.get("/x", as: Flag.self) } }
        guard case .failure(.status(429, _, _)) = result else {
            Issue.record("\(result)")
            return
        }
        #expect(waited < .seconds(4), "\(waited)")
        #expect(busy.requests.count == 1)
    }

    @Test("a 2xx body that is not the asked JSON: .undecodable with status, body and reason", arguments: Transport.allCases)
    func undecodable(_ transport: Transport) async throws {
        let server = try transport.server { connection, index in
            connection.readRequest()
            connection.respond(status: "200 OK", body: index == 0 ? "not json" : #"{"ok":"yes"}"#)
        }
        defer { server.stop() }
        let client = HTTPClient(endpoint: server.endpoint)
        await #expect(throws: HTTPClientError.undecodable(status: 200, body: Array("not json".utf8), reason: "not JSON")) {
            try await client.get("/x", as: Flag.self)
        }
        await #expect(throws: HTTPClientError.undecodable(status: 200, body: Array(#"{"ok":"yes"}"#.utf8), reason: "ok: expected Bool")) {
            try await client.get("/x", as: Flag.self)
        }
        // Not retried: a body that does not decode will not decode the next time either.
        #expect(server.requests.count == 2)
    }

    @Test("a response larger than the limit is refused", arguments: Transport.allCases)
    func tooLarge(_ transport: Transport) async throws {
        let server = try transport.server { connection, _ in
            connection.readRequest()
            connection.respond(status: "200 OK", body: String(repeating: "x", count: 10_000))
        }
        defer { server.stop() }
        let client = HTTPClient(endpoint: server.endpoint, configuration: .init(maxResponseBytes: 1000))
        let result = await outcome { () async throws(HTTPClientError) in try await client.send(.init(.get, "/big")) }
        guard case .failure(.undecodable(200, _, let reason)) = result else {
            Issue.record("\(result)")
            return
        }
        #expect(reason == "response larger than 1000 bytes")
    }

    @Test("cancelling a pending request returns .cancelled promptly and closes its connection", arguments: Transport.allCases)
    func cancellation(_ transport: Transport) async throws {
        let server = try transport.server { connection, _ in
            connection.readRequest()
            connection.waitForClose()
        }
        defer { server.stop() }
        let client = HTTPClient(endpoint: server.endpoint, configuration: .init(totalTimeout: .seconds(30)))
        let request = Task { await outcome { () async throws(HTTPClientError) in try await client.get("/slow", as: Flag.self) } }
        try await eventually { !server.requests.isEmpty }
        let (result, elapsed) = await measure {
            request.cancel()
            return await request.value
        }
        #expect(result == .failure(.cancelled))
        #expect(elapsed < .seconds(5), "\(elapsed)")
        // The transfer is gone: the server sees its connection closed while the client lives on.
        try await eventually { server.closedByClient == 1 }
        withExtendedLifetime(client) {}
    }

    @Test("a task cancelled before sending never reaches the server", arguments: Transport.allCases)
    func cancelledBeforehand(_ transport: Transport) async throws {
        let server = try transport.server { connection, _ in
            connection.readRequest()
            connection.respond(status: "200 OK", body: Flag.okJSON)
        }
        defer { server.stop() }
        let client = HTTPClient(endpoint: server.endpoint)
        let request = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await outcome { () async throws(HTTPClientError) in try await client.get("/x", as: Flag.self) }
        }
        #expect(await request.value == .failure(.cancelled))
        // A request after it is the first the server sees, on the first connection.
        #expect(await outcome { () async throws(HTTPClientError) in try await client.get("/after", as: Flag.self) } == .success(Flag(ok: true)))
        #expect(server.requests.count == 1 && server.requests.first?.contains("GET /after ") == true && server.connections == 1)
    }
}
