import Foundation
import Logging
import PostgresNIO
import ServerRoutes
import ServerStore
import ServiceLifecycle

/// A server's store, opened: what its engine must run beside the server, and the secret tokens
/// are signed with.
struct OpenedStore {
    let store: BFFStore
    /// PostgreSQL's client and live event feed; none for SQLite.
    let services: [any Service]
    let signingSecret: String

    /// Opens the configured database. On PostgreSQL it first brings the schema up to date
    /// (`migrateDatabase`) or waits until it is, and takes the shared signing secret, over a
    /// connection of its own: the store's client runs only once the server's services do.
    static func open(_ configuration: BFFConfiguration, logger: Logger) async throws -> OpenedStore {
        let hub = LiveEventHub(limits: configuration.limits.streams)
        switch configuration.databaseLocation {
        case .sqlite(let url):
            let store = try SQLiteStore.open(at: url, liveEvents: hub, logger: logger)
            let secret = try configuration.jwtSecret ?? SigningSecret.loadOrCreate(in: url.deletingLastPathComponent())
            let opened = BFFStore(store, bcryptCost: configuration.bcryptCost)
            try await forgetInstallers(in: opened, secret: secret, logger: logger)
            return OpenedStore(store: opened, services: [], signingSecret: secret)
        case .postgres(let location):
            let (secret, newest) = try await BFFStores.withPostgres(location, logger: logger) {
                setup in
                try await setup.waitForSchema(migrating: configuration.migrateDatabase, logger: logger,
                                              onWaiting: configuration.onWaitingForSchema)
                // Before any stream can open: the feed hands on every event after it.
                let newest = try await BFFStore(setup).newestLiveEventID()
                let secret = if let secret = configuration.jwtSecret { secret } else { try await setup.signingSecret(orMake: SigningSecret.make) }
                try await forgetInstallers(in: BFFStore(setup), secret: secret, logger: logger)
                return (secret, newest)
            }
            let client = try PostgresStore.client(for: location, connections: configuration.databaseConnections, logger: logger)
            let store = PostgresStore(client: client, liveEvents: hub, logger: logger)
            let feed = PostgresLiveEventFeed(store: store, startingAfter: newest, logger: logger)
            return OpenedStore(store: BFFStore(store, bcryptCost: configuration.bcryptCost), services: [client, feed], signingSecret: secret)
        }
    }

    /// The installs an earlier server kept with their users (schema v17 and before), moved to marks
    /// that name nobody (`InstallMarks`).
    private static func forgetInstallers(in store: BFFStore, secret: String, logger: Logger) async throws {
        let marks = InstallMarks(secret: secret)
        let moved = try await store.forgetInstallers { marks.mark(user: $0, app: $1) }
        if moved > 0 { logger.notice("installs now counted without their users", metadata: ["installs": "\(moved)"]) }
    }
}

/// The store outside a server: for `termcanvas-bff user`, `migrate` and tests.
package enum BFFStores {
    /// Runs `body` with the store at `location`. On PostgreSQL its client runs meanwhile, and the
    /// schema must be this build's unless `migrate` brings it up to date first.
    package static func with<T: Sendable>(
        _ location: DatabaseLocation, bcryptCost: UInt8 = 12, migrate: Bool = false, logger: Logger = Logger(label: "termcanvas.bff"),
        _ body: (BFFStore) async throws -> T
    ) async throws -> T {
        switch location {
        case .sqlite(let url):
            return try await body(BFFStore(try SQLiteStore.open(at: url, logger: logger), bcryptCost: bcryptCost))
        case .postgres(let postgres):
            return try await withPostgres(postgres, logger: logger) { store in
                if migrate { try await store.migrate() }
                let version = try await store.schemaVersion()
                guard version <= PostgresStore.migrations.count else { throw BFFStoreError.newerVersion }
                guard version == PostgresStore.migrations.count else {
                    throw BFFStoreError.schemaBehind(version: version, wanted: PostgresStore.migrations.count)
                }
                return try await body(BFFStore(store, bcryptCost: bcryptCost))
            }
        }
    }

    /// Runs `body` with a PostgreSQL store of a few connections, its client running meanwhile.
    static func withPostgres<T: Sendable>(
        _ location: PostgresLocation, logger: Logger, _ body: (PostgresStore) async throws -> T
    ) async throws -> T {
        let client = try PostgresStore.client(for: location, connections: 2, logger: logger)
        let store = PostgresStore(client: client, logger: logger)
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await client.run() }
            defer { group.cancelAll() }
            return try await body(store)
        }
    }
}

extension PostgresStore {
    /// Returns once the schema is this build's: migrating it when asked to, else waiting (and
    /// saying so every ten seconds) until `termcanvas-bff migrate` has.
    /// - Throws: `BFFStoreError.newerVersion` when a newer build migrated it.
    func waitForSchema(migrating: Bool, logger: Logger, onWaiting: @Sendable (String) -> Void) async throws {
        if migrating {
            let applied = try await migrate()
            if applied > 0 { logger.notice("database migrated", metadata: ["applied": "\(applied)", "version": "\(Self.migrations.count)"]) }
            return
        }
        var waited = Duration.zero
        while true {
            let version = try await schemaVersion()
            guard version <= Self.migrations.count else { throw BFFStoreError.newerVersion }
            if version == Self.migrations.count { return }
            if waited == .zero || waited.components.seconds % 10 == 0 {
                let message = "the database's schema is at version \(version), this server needs \(Self.migrations.count): "
                    + "waiting for `termcanvas-bff migrate` (or start with --migrate)"
                logger.warning("\(message)")
                onWaiting(message)
            }
            try await Task.sleep(for: .seconds(1))
            waited += .seconds(1)
        }
    }
}
