import BFF
import Foundation

/// The database the server tests run against: SQLite (a file in each test's directory), or with
/// `TERMCANVAS_TEST_DATABASE=postgres` a new database per test on a PostgreSQL server the test
/// process starts for itself and stops when it exits. `make test` runs the server suite both ways.
public enum TestDatabase {
    public static let isPostgres = ProcessInfo.processInfo.environment["TERMCANVAS_TEST_DATABASE"] == "postgres"

    /// A new, empty database for one test; nil on SQLite.
    public static func make() throws -> DatabaseLocation? {
        guard isPostgres else { return nil }
        let server = try sharedServer.get()
        let name = "t_" + UUID().uuidString.prefix(12).lowercased().replacingOccurrences(of: "-", with: "")
        try server.psql("CREATE DATABASE \(name)")
        return .postgres(server.location(database: name))
    }

    /// Drops a database `make` made, whoever is still connected to it.
    public static func remove(_ location: DatabaseLocation?) {
        guard case .postgres(let postgres) = location, let server = try? sharedServer.get() else { return }
        try? server.psql("DROP DATABASE IF EXISTS \(postgres.database) WITH (FORCE)")
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
    public func location(database: String) -> PostgresLocation {
        PostgresLocation(endpoint: .unixSocket(path: socketPath), user: user, database: database, tls: .disable)
    }
}
