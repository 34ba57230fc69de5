import BFFTesting
import Dispatch
import Foundation
import HTTPClient
import Testing
import TestSupport

@Suite("Connections, callers and auth")
struct ConnectionTests {
    @MainActor
    @Test("callable from the main actor, which stays free while the request is in flight", arguments: Transport.allCases)
    func mainActor(_ transport: Transport) async throws {
        let answer = DispatchSemaphore(value: 0)
        let server = try transport.server { connection, _ in
            connection.readRequest()
            // Blocks this server thread only, until the test has seen the main actor run.
            answer.wait()
            connection.respond(status: "200 OK", body: Flag.okJSON)
        }
        defer { server.stop() }
        let client = HTTPClient(endpoint: server.endpoint)
        let request = Task { @MainActor in
            MainActor.assertIsolated()
            return try await client.get("/x", as: Flag.self)
        }
        // This wait and the task below run on the main actor while the request is pending.
        try await eventually { !server.requests.isEmpty }
        #expect(await Task { @MainActor in true }.value)
        answer.signal()
        #expect(try await request.value == Flag(ok: true))
    }

    @Test("two sequential requests share one connection, as both sides see it", arguments: Transport.allCases)
    func keptAlive(_ transport: Transport) async throws {
        let server = try transport.server { connection, _ in
            while connection.readRequest() != nil {
                connection.respond(status: "200 OK", body: Flag.okJSON, keepAlive: true)
            }
        }
        defer { server.stop() }
        let client = HTTPClient(endpoint: server.endpoint)
        let first = try await client.send(.init(.get, "/a"))
        let second = try await client.send(.init(.get, "/b"))
        #expect(!first.connectionReused && second.connectionReused)
        #expect(server.requests.count == 2 && server.connections == 1)
    }

    @Test("the bearer token goes in the Authorization header; changing it takes effect on the next request", arguments: Transport.allCases)
    func bearerHeader(_ transport: Transport) async throws {
        let server = try transport.server { connection, _ in
            connection.readRequest()
            connection.respond(status: "200 OK", body: Flag.okJSON)
        }
        defer { server.stop() }
        let client = HTTPClient(endpoint: server.endpoint, token: "first.token")
        _ = try await client.send(.init(.get, "/a"))
        client.token = "second.token"
        _ = try await client.send(.init(.get, "/b"))
        client.token = nil
        _ = try await client.send(.init(.get, "/c"))
        let heads = server.requests
        try #require(heads.count == 3)
        #expect(heads[0].contains("\r\nAuthorization: Bearer first.token"))
        #expect(heads[1].contains("\r\nAuthorization: Bearer second.token"))
        #expect(!heads[2].lowercased().contains("authorization"))
    }

    @Test("a closed port: .unreachable, quickly, after the retries")
    func closedPort() async throws {
        let closed = try ClosedPort()
        let client = HTTPClient(endpoint: .loopback(port: closed.port))
        let (result, elapsed) = await measure { await outcome { () async throws(HTTPClientError) in try await client.get("/health", as: Flag.self) } }
        guard case .failure(.unreachable(let message)) = result else {
            Issue.record("\(result)")
            return
        }
        #expect(message.contains("\(closed.port)"))
        // Three attempts with the default backoff (at most 200 + 400 ms).
        #expect(elapsed < .seconds(3), "\(elapsed)")
        withExtendedLifetime(closed) {}
    }

    @Test("no unix socket at the path: .unreachable")
    func missingUnixSocket() async {
        let client = HTTPClient(endpoint: .unixSocket(temporarySocketPath()), configuration: .init(retry: .none))
        let result = await outcome { () async throws(HTTPClientError) in try await client.send(.init(.get, "/health")) }
        guard case .failure(.unreachable) = result else {
            Issue.record("\(result)")
            return
        }
    }

    @Test("no connection within the connect timeout: .timeout")
    func connectTimeout() async throws {
        // A listener that never accepts, its backlog filled: the kernel drops further connects.
        let server = try RawServer(backlog: 0, accepting: false)
        defer { server.stop() }
        var fillers: [Int32] = []
        defer { fillers.forEach { close($0) } }
        for _ in 0..<4 { fillers.append(try Self.connectWithoutWaiting(port: server.port)) }
        try await Task.sleep(for: .milliseconds(50))

        let client = HTTPClient(
            endpoint: .loopback(port: server.port),
            configuration: .init(connectTimeout: .milliseconds(300), totalTimeout: .seconds(10), retry: .none)
        )
        let (result, elapsed) = await measure { await outcome { () async throws(HTTPClientError) in try await client.send(.init(.get, "/health")) } }
        guard case .failure(.timeout) = result else {
            Issue.record("\(result)")
            return
        }
        #expect(elapsed >= .milliseconds(250) && elapsed < .seconds(3), "\(elapsed)")
    }

    @Test("a unix socket whose server takes no more connections: .unreachable at once, saying so")
    func fullUnixSocket() async throws {
        let server = try Transport.unixSocket.server(backlog: 0, accepting: false)
        defer { server.stop() }
        // The listen queue holds one connection more than its backlog; then connects are refused.
        var fillers: [Int32] = []
        defer { fillers.forEach { close($0) } }
        for _ in 0..<2 {
            let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(server.socketPath!.utf8) + [0]) }
            _ = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
            fillers.append(fd)
        }
        let client = HTTPClient(endpoint: server.endpoint, configuration: .init(totalTimeout: .seconds(10), retry: .none))
        let (result, elapsed) = await measure { await outcome { () async throws(HTTPClientError) in try await client.send(.init(.get, "/health")) } }
        guard case .failure(.unreachable(let message)) = result else {
            Issue.record("\(result)")
            return
        }
        #expect(message.contains("accepts no more connections"), "\(message)")
        // At once: not after the 10 s the request may take. A loaded CI machine took 2.1 s to
        // get here once (the pass runs its suites side by side), so the bound is half the timeout.
        #expect(elapsed < .seconds(5), "\(elapsed)")
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
