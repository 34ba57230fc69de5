import Foundation
import Logging
import NIOSSL
import PostgresNIO
import Synchronization

/// The server's data in a PostgreSQL database that any number of server instances share.
///
/// What instances must agree on is decided by the database: ids, the order of live events, users,
/// the signing secret, idempotency keys, webhook receipts and deliveries. Live events are rows
/// written in the transaction of their change; `PostgresLiveEventFeed` hands each committed one to
/// this instance's streams, whichever instance wrote it (`LISTEN/NOTIFY`).
///
/// `client` must run (it is a `Service`) for any function to work.
package struct PostgresStore: SQLEngine {
    package let client: PostgresClient
    let logger: Logger
    package let liveEvents: LiveEventHub

    package init(client: PostgresClient, liveEvents: LiveEventHub = LiveEventHub(), logger: Logger) {
        self.client = client
        self.liveEvents = liveEvents
        self.logger = logger
    }

    /// A client for `location` with at most `connections` connections (one of them is the feed's,
    /// held while it listens).
    package static func client(for location: PostgresLocation, connections: Int, logger: Logger) throws -> PostgresClient {
        var configuration = switch location.endpoint {
        case .tcp(let host, let port):
            PostgresClient.Configuration(host: host, port: port, username: location.user, password: location.password,
                                         database: location.database, tls: try tls(location))
        case .unixSocket(let path):
            PostgresClient.Configuration(unixSocketPath: path, username: location.user, password: location.password,
                                         database: location.database)
        }
        configuration.options.maximumConnections = max(connections, 2)
        configuration.options.connectTimeout = .seconds(5)
        return PostgresClient(configuration: configuration, backgroundLogger: logger)
    }

    private static func tls(_ location: PostgresLocation) throws -> PostgresClient.Configuration.TLS {
        var configuration = TLSConfiguration.makeClientConfiguration()
        if let root = location.rootCertificate {
            configuration.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(root))
        }
        switch location.tls {
        case .disable: return .disable
        case .allow, .prefer:
            configuration.certificateVerification = .none
            return .prefer(configuration)
        case .require:
            // As libpq: encrypted, the certificate unchecked (unless a root certificate is given).
            configuration.certificateVerification = location.rootCertificate == nil ? .none : .noHostnameVerification
            return .require(configuration)
        case .verifyCA:
            configuration.certificateVerification = .noHostnameVerification
            return .require(configuration)
        case .verifyFull:
            configuration.certificateVerification = .fullVerification
            return .require(configuration)
        }
    }

    /// Throws unless the database answers within two seconds and its schema is this build's, for `/ready`.
    package func checkReadable() async throws {
        try await withDeadline(.seconds(2)) {
            let version = try await schemaVersion()
            guard version == Self.migrations.count else { throw BFFStoreError.schemaBehind(version: version, wanted: Self.migrations.count) }
        }
    }

    /// Runs `body` in one transaction: committed when it returns, rolled back when it throws.
    /// The body's own error comes out as it was thrown (a validation error stays one).
    func transaction<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> T) async throws -> T {
        try await withConnection { [logger] connection in
            do {
                return try await connection.withTransaction(logger: logger) { connection in try await body(connection) }
            } catch let error as PostgresTransactionError {
                // The body's error as thrown; else the BEGIN's, COMMIT's or ROLLBACK's own (a lost
                // connection there is `unavailable` too).
                throw error.closureError ?? error.beginError ?? error.commitError ?? error.rollbackError ?? error
            }
        }
    }

    /// The rows of a query outside any transaction, each decoded as `type`.
    func rows<each Column: PostgresDecodable & Sendable>(_ query: PostgresQuery, as type: (repeat each Column).Type) async throws
        -> [(repeat each Column)] {
        try await withConnection { [logger] connection in try await connection.rows(query, as: type, logger: logger) }
    }

    /// How long one call of the database may take, waiting for a connection included.
    static let callDeadline = Duration.seconds(5)

    /// Runs `body` on a pooled connection within `callDeadline`. Past it, or when the connection
    /// is lost (the database restarted or went away), it throws `BFFStoreError.unavailable`, which
    /// the API answers with 503 and `Retry-After`; at the deadline the connection is closed, so
    /// whatever still waits on it fails and its lease returns to the pool, which opens another.
    /// Nothing is left waiting for good: not a request, and not the pool at shutdown.
    func withConnection<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> T) async throws -> T {
        let held = Mutex<PostgresConnection?>(nil)
        do {
            return try await withDeadline(Self.callDeadline) { [client] in
                try await client.withConnection { connection in
                    held.withLock { $0 = connection }
                    return try await body(connection)
                }
            }
        } catch let error as DeadlineExceeded {
            held.withLock { $0 }?.close().whenComplete { _ in }
            throw BFFStoreError.unavailable("\(error)")
        } catch let error as PSQLError where error.isConnectionLoss {
            throw BFFStoreError.unavailable("\(error.code)")
        }
    }

    static func decode<each Column: PostgresDecodable & Sendable>(_ rows: PostgresRowSequence, as type: (repeat each Column).Type) async throws
        -> [(repeat each Column)] {
        var decoded: [(repeat each Column)] = []
        for try await row in rows.decode(type) { decoded.append(row) }
        return decoded
    }
}

extension PostgresConnection {
    /// The rows of a query in this connection's transaction, each decoded as `type`.
    func rows<each Column: PostgresDecodable & Sendable>(_ query: PostgresQuery, as type: (repeat each Column).Type, logger: Logger)
        async throws -> [(repeat each Column)] {
        try await PostgresStore.decode(try await self.query(query, logger: logger), as: type)
    }

    /// Runs a statement for its effect, reading (and dropping) any rows it returns.
    func run(_ query: PostgresQuery, logger: Logger) async throws {
        for try await _ in try await self.query(query, logger: logger) {}
    }
}

/// Runs `body`, or throws `DeadlineExceeded` once `duration` has passed, cancelling it. It does
/// not wait for `body` to end: a query on a dead connection ignores cancellation, and `/ready`
/// must answer anyway.
func withDeadline<T: Sendable>(_ duration: Duration, _ body: @escaping @Sendable () async throws -> T) async throws -> T {
    let outcome = Mutex<CheckedContinuation<T, any Error>?>(nil)
    let finish: @Sendable (Result<T, any Error>) -> Void = { result in
        outcome.withLock { continuation in
            continuation?.resume(with: result)
            continuation = nil
        }
    }
    var work: Task<Void, Never>?
    var timer: Task<Void, Never>?
    defer {
        work?.cancel()
        timer?.cancel()
    }
    return try await withCheckedThrowingContinuation { continuation in
        outcome.withLock { $0 = continuation }
        work = Task {
            do { finish(.success(try await body())) } catch { finish(.failure(error)) }
        }
        timer = Task {
            guard (try? await Task.sleep(for: duration)) != nil else { return }
            finish(.failure(DeadlineExceeded(duration: duration)))
        }
    }
}

extension PSQLError {
    /// The connection went, or the server is shutting down or starting: the request may be sent
    /// again, and the pool replaces the connection.
    var isConnectionLoss: Bool {
        switch code {
        case .serverClosedConnection, .clientClosedConnection, .connectionError, .uncleanShutdown: true
        case .server:
            // SQLSTATE class 08 (connection exception) or 57 (operator intervention: shutdown, restart).
            serverInfo?[.sqlState].map { $0.hasPrefix("08") || $0.hasPrefix("57") } ?? false
        default: false
        }
    }
}

struct DeadlineExceeded: Error, CustomStringConvertible {
    let duration: Duration
    var description: String { "no answer within \(duration)" }
}
