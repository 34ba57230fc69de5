import BFF
import Foundation
import ServerStore
import Testing

@Suite("Database URLs: sqlite:PATH and postgres://")
struct DatabaseLocationTests {
    @Test func sqliteTakesAPath() throws {
        #expect(try DatabaseLocation(url: "sqlite:/var/lib/tc/bff.sqlite") == .sqlite(URL(fileURLWithPath: "/var/lib/tc/bff.sqlite")))
        #expect(try DatabaseLocation(url: "sqlite:///var/lib/tc/bff.sqlite") == .sqlite(URL(fileURLWithPath: "/var/lib/tc/bff.sqlite")))
        #expect(throws: DatabaseLocationError.self) { try DatabaseLocation(url: "sqlite:") }
    }

    @Test func postgresTakesUserHostPortDatabaseAndTLSMode() throws {
        let location = try DatabaseLocation(url: "postgres://tc:s%40cret@db.example:6432/termcanvas?sslmode=verify-full")
        #expect(location == .postgres(PostgresLocation(endpoint: .tcp(host: "db.example", port: 6432), user: "tc", password: "s@cret",
                                                       database: "termcanvas", tls: .verifyFull)))
        let defaults = try DatabaseLocation(url: "postgresql://tc@db/termcanvas")
        #expect(defaults == .postgres(PostgresLocation(endpoint: .tcp(host: "db", port: 5432), user: "tc", database: "termcanvas", tls: .prefer)))
        let socket = try DatabaseLocation(url: "postgres://tc@/termcanvas?host=/run/postgresql")
        #expect(socket == .postgres(PostgresLocation(endpoint: .unixSocket(path: "/run/postgresql/.s.PGSQL.5432"), user: "tc",
                                                     database: "termcanvas")))
    }

    @Test("the password comes from the URL, else the one given (PGPASSWORD or a file)")
    func passwordFallback() throws {
        guard case .postgres(let given) = try DatabaseLocation(url: "postgres://tc@db/x", password: "from-env") else { throw Failure() }
        #expect(given.password == "from-env")
        guard case .postgres(let inURL) = try DatabaseLocation(url: "postgres://tc:in-url@db/x", password: "from-env") else { throw Failure() }
        #expect(inURL.password == "in-url")
    }

    @Test("no password is ever shown: not in the description, not in errors")
    func passwordsAreNeverShown() throws {
        let location = try DatabaseLocation(url: "postgres://tc:hunter2@db:5432/termcanvas")
        #expect(location.description == "postgres://tc@db:5432/termcanvas")
        for bad in ["postgres://tc:hunter2@db/termcanvas?sslmode=sometimes", "postgres://tc:hunter2@db/", "postgres://:hunter2@db/x",
                    "postgres://tc:hunter2@db/x?colour=blue", "postgres://tc:hunter2@db:99999/x"] {
            #expect(throws: DatabaseLocationError.self) { try DatabaseLocation(url: bad) }
            do { _ = try DatabaseLocation(url: bad) } catch { #expect(!"\(error)".contains("hunter2"), "\(error)") }
        }
    }

    @Test func otherSchemesAreRefusedByName() {
        #expect(throws: DatabaseLocationError.invalid(text: "mysql://tc@db/x", reason: "unknown scheme 'mysql'; use sqlite: or postgres://")) {
            try DatabaseLocation(url: "mysql://tc@db/x")
        }
    }

    struct Failure: Error {}
}
