import BFF
import Foundation
import ServerStore

/// The database the server tests run against: SQLite (a file in each test's directory), or with
/// `TERMCANVAS_TEST_DATABASE=postgres` a new database per test on a PostgreSQL server the test
/// process starts for itself and stops when it exits. `make test` runs the server suite both ways.
package enum TestDatabase {
    package static let isPostgres = ProcessInfo.processInfo.environment["TERMCANVAS_TEST_DATABASE"] == "postgres"

    /// A new, empty database for one test; nil on SQLite. Its server is started, and the database
    /// made, by programs (`initdb`, `psql`) waited for on a thread of their own: blocking one of
    /// Swift's few cooperative threads would stall every test's server meanwhile.
    package static func make() async throws -> DatabaseLocation? {
        guard isPostgres else { return nil }
        let name = "t_" + UUID().uuidString.prefix(12).lowercased().replacingOccurrences(of: "-", with: "")
        return try await offThePool {
            let server = try sharedServer.get()
            try server.psql("CREATE DATABASE \(name)")
            return .postgres(server.location(database: name))
        }
    }

    /// Drops a database `make` made, whoever is still connected to it, in the background.
    package static func remove(_ location: DatabaseLocation?) {
        DispatchQueue.global().async { try? dropNow(location) }
    }

    /// Drops a database `make` made, whoever is still connected to it; returns once it is gone.
    package static func drop(_ location: DatabaseLocation?) async throws {
        try await offThePool { try dropNow(location) }
    }

    private static func dropNow(_ location: DatabaseLocation?) throws {
        guard case .postgres(let postgres) = location else { return }
        try sharedServer.get().psql("DROP DATABASE IF EXISTS \(postgres.database) WITH (FORCE)")
    }

    private static func offThePool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(with: Result { try body() }) }
        }
    }

    private static let sharedServer: Result<TemporaryPostgres, any Error> = {
        let result = Result { try TemporaryPostgres.start() }
        if case .success = result { atexit { TestDatabase.stopSharedServer() } }
        return result
    }()

    private static func stopSharedServer() {
        try? sharedServer.get().stop()
    }
}

extension TemporaryPostgres {
    /// The location of one of this server's databases, on its unix socket.
    package func location(database: String) -> PostgresLocation {
        PostgresLocation(endpoint: .unixSocket(path: socketPath), user: user, database: database, tls: .disable)
    }
}
