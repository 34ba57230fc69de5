import BFF
import Foundation
import HTTPClient
import Hummingbird
import Logging
import ServerAPI
import ServerStore
import ServiceLifecycle

/// A real BFF for the client to talk to: a temporary data directory with users, and servers run
/// in a service group on a loopback port (or a unix socket) that can be shut down gracefully and
/// started again on the same port and data. Shared by the HTTP client's and the sync engine's tests.
package struct LiveBFF: Sendable {
    package static let secret = "http-client-tests-secret-0123456789abcdef0123"
    package let directory: URL

    package init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("http-client-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    /// Runs `body` against a fresh server on a fresh data directory with `users`, then stops the
    /// server and removes the directory, whether `body` succeeded or not.
    package static func withServer<T>(
        users: [String] = [], unixSocketPath: String? = nil, _ body: (RunningBFF) async throws -> T
    ) async throws -> T {
        let bff = try LiveBFF()
        defer { bff.remove() }
        try await bff.addUsers(users)
        let server = try await bff.start(unixSocketPath: unixSocketPath)
        do {
            let value = try await body(server)
            await server.stop()
            return value
        } catch {
            await server.stop()
            throw error
        }
    }

    /// Adds users (password `pw-NAME`) straight to the database the servers open.
    package func addUsers(_ names: [String]) async throws {
        let store = BFFStore(try SQLiteStore.open(at: configuration().databaseURL), bcryptCost: 4)
        for name in names { _ = try await store.addUser(name: name, password: "pw-\(name)") }
    }

    package func configuration(port: Int = 0, unixSocketPath: String? = nil, tls: TLSFiles? = nil) -> BFFConfiguration {
        // No rate limits: tests log in and send as fast as they like (429 handling is tested on a RawServer).
        BFFConfiguration(
            port: port, unixSocketPath: unixSocketPath, dataDirectory: directory, jwtSecret: Self.secret, bcryptCost: 4,
            rateLimits: .off, tls: tls
        )
    }

    /// Starts a server and returns once it listens.
    package func start(port: Int = 0, unixSocketPath: String? = nil, tls: TLSFiles? = nil) async throws -> RunningBFF {
        let (ports, portContinuation) = AsyncStream.makeStream(of: Int.self)
        var configuration = configuration(port: port, unixSocketPath: unixSocketPath, tls: tls)
        configuration.onServerRunning = { portContinuation.yield($0) }
        var logger = Logger(label: "http-client-tests.bff")
        logger.logLevel = .warning
        let app = try await buildApplication(configuration, logger: logger)
        let group = ServiceGroup(configuration: .init(services: [app], logger: logger))
        let task = Task {
            defer { portContinuation.finish() }
            try await group.run()
        }
        var iterator = ports.makeAsyncIterator()
        guard let bound = await iterator.next() else {
            try await task.value
            throw LiveBFFError.didNotStart
        }
        return RunningBFF(port: bound, group: group, task: task)
    }

    package func remove() {
        try? FileManager.default.removeItem(at: directory)
    }
}

/// One running server; `stop()` shuts it down gracefully (open event streams end, as when the
/// real server stops) and waits until it has.
package struct RunningBFF: Sendable {
    package let port: Int
    let group: ServiceGroup
    let task: Task<Void, any Error>

    package var endpoint: HTTPClient.Endpoint { .loopback(port: port) }

    package func stop() async {
        await group.triggerGracefulShutdown()
        _ = await task.result
    }
}

package enum LiveBFFError: Error {
    case didNotStart
}

extension HTTPClient {
    /// Logs in as a user `LiveBFF.addUsers` made and keeps the token for later requests.
    package func logIn(_ name: String) async throws {
        token = try await post(APIPath.authToken, body: TokenRequest(username: name, password: "pw-\(name)"), as: TokenResponse.self).token
    }
}

/// A short unix socket path (`sun_path` holds about 100 bytes, too few for some temporary directories).
package func temporarySocketPath() -> String {
    "/tmp/tc-http-\(UUID().uuidString.prefix(8)).sock"
}
