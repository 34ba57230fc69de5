import BFFTesting
import Foundation
import Logging
import PostgresNIO
import Testing

/// The PostgreSQL server tests start for themselves (for the PostgreSQL store of issue 16, under
/// way): a real one, reached on its socket, gone with its files once stopped.
@Suite struct TemporaryPostgresTests {
    @Test func aServerOfTheTestsOwnStartsAnswersAndGoes() async throws {
        let server = try TemporaryPostgres.start()
        defer { server.stop() }
        var mode = stat()
        #expect(stat(server.directory.path, &mode) == 0 && mode.st_mode & 0o777 == 0o700)

        let client = PostgresClient(configuration: .init(unixSocketPath: server.socketPath, username: server.user, password: nil,
                                                         database: "postgres"))
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await client.run() }
            try await client.query("CREATE TABLE probe (id BIGINT NOT NULL, name TEXT NOT NULL)")
            try await client.query("INSERT INTO probe VALUES (\(Int64(42)), \("fourty-two"))")
            var rows: [(Int64, String)] = []
            for try await row in try await client.query("SELECT id, name FROM probe").decode((Int64, String).self) {
                rows.append(row)
            }
            #expect(rows.count == 1 && rows.first?.0 == 42 && rows.first?.1 == "fourty-two")
            group.cancelAll()
        }

        server.stop()
        #expect(!FileManager.default.fileExists(atPath: server.directory.path))
    }
}
