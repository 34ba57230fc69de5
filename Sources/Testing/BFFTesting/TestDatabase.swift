import BFF
import Foundation
import ServerStore

/// The database the server tests run against: SQLite (a file in each test's directory), or with
/// `TERMCANVAS_TEST_DATABASE=postgres` a new database per test on a PostgreSQL server the test
/// process starts for itself and stops when it exits. `make test` runs the server suite both ways.
///
/// At most `databasesAtOnce` tests hold a database at a time: the test runner starts every test
/// at once, and two hundred servers migrating and writing on one PostgreSQL server on two cores
/// answer nothing within a query's timeout. Tests wait for a database before they start their
/// clocks, so the wait changes what none of them measures.
package enum TestDatabase {
    package static let isPostgres = ProcessInfo.processInfo.environment["TERMCANVAS_TEST_DATABASE"] == "postgres"

    /// A new, empty database for one test; nil on SQLite. Its server is started, and the database
    /// made, by programs (`initdb`, `psql`) waited for on a thread of their own: blocking one of
    /// Swift's few cooperative threads would stall every test's server meanwhile.
    package static func make() async throws -> DatabaseLocation? {
        guard isPostgres else { return nil }
        await turns.wait()
        let name = "t_" + UUID().uuidString.prefix(12).lowercased().replacingOccurrences(of: "-", with: "")
        do {
            return try await offThePool {
                let server = try sharedServer.get()
                try server.psql("CREATE DATABASE \(name)")
                return .postgres(server.location(database: name))
            }
        } catch {
            await turns.signal()
            throw error
        }
    }

    /// Drops a database `make` made, whoever is still connected to it, in the background, and
    /// lets the next test have one.
    package static func remove(_ location: DatabaseLocation?) {
        guard location != nil else { return }
        DispatchQueue.global().async { try? dropNow(location) }
        Task { await turns.signal() }
    }

    /// Tests holding a PostgreSQL database at once: measured on two cores, the suite takes 283 s
    /// one test at a time, 141 s four at a time, and fails with all at once.
    private static let databasesAtOnce = 4
    private static let turns = Turns(databasesAtOnce)

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

/// A counting semaphore for tasks: `wait` suspends (it never blocks a thread) while none is free.
private actor Turns {
    private var free: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(_ count: Int) { free = count }

    func wait() async {
        if free > 0 {
            free -= 1
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    func signal() {
        if waiting.isEmpty {
            free += 1
        } else {
            waiting.removeFirst().resume()
        }
    }
}
