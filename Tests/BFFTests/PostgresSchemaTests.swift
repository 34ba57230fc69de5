import BFF
import BFFTesting
import Foundation
import Logging
import ServerStore
import Synchronization
import Testing
import TestSupport

/// What an instance does with a PostgreSQL schema that is not its own.
@Suite("PostgreSQL schema versions", .enabled(if: TestDatabase.isPostgres))
struct PostgresSchemaTests {
    @Test("an instance waits on an older schema, saying so, and starts once `migrate` has run")
    func waitsForMigrate() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        let said = Mutex<[String]>([])
        var configuration = harness.configuration()
        configuration.migrateDatabase = false
        configuration.onWaitingForSchema = { message in said.withLock { $0.append(message) } }
        let starting = Task { [configuration] in _ = try await buildApplication(configuration) }
        try await eventually("the server saying it waits for the schema") { !said.withLock { $0.isEmpty } }
        #expect(said.withLock { $0.first?.contains("schema is at version 0, this server needs") == true })
        try await harness.withStore { _ in }  // migrates, as `termcanvas-bff migrate` does
        defer { starting.cancel() }
        try await withDeadline(.seconds(5), for: "the server to start") { try await starting.value }
    }

    @Test("an instance refuses a schema newer than its own, and so does `migrate`")
    func refusesANewerSchema() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.withStore { store in
            guard let postgres = store.engine as? PostgresStore else { throw BFFStoreError.newerVersion }
            try await postgres.client.query("INSERT INTO schema_migrations (version, name) VALUES (99, 'from the future')")
        }
        await #expect(throws: BFFStoreError.newerVersion) { _ = try await buildApplication(harness.configuration()) }
        await #expect(throws: BFFStoreError.newerVersion) { try await harness.withStore { _ in } }
    }
}
