import Foundation
import GRDB
import SQLiteFiles
import Logging
import PrivateFiles

/// The server's data in one SQLite file (WAL): the embedded default, one server process to a file.
/// A change's live event is recorded in its transaction (`record(_:in:)`) and published
/// once it commits.
///
/// Its functions are `async` for the protocol's sake but run GRDB's synchronous calls on the
/// caller's thread, as before the protocol: they are short, and WAL readers never wait on the writer.
package struct SQLiteStore: SQLEngine {
    let writer: any DatabaseWriter
    /// Where committed changes are published to the live event streams.
    package let liveEvents: LiveEventHub

    /// Wraps an open database and brings its schema up to date.
    /// - Throws: `BFFStoreError.newerVersion` when the file was written by a newer schema.
    package init(_ writer: any DatabaseWriter, liveEvents: LiveEventHub = LiveEventHub()) throws {
        self.writer = writer
        self.liveEvents = liveEvents
        let migrator = Self.migrator
        if try writer.read({ db in try migrator.hasBeenSuperseded(db) }) {
            throw BFFStoreError.newerVersion
        }
        try migrator.migrate(writer)
    }

    /// Opens (or creates) the database at `url` in WAL mode with a busy timeout.
    /// A missing directory is made 0700 and the files 0600 (users' data and password hashes); an
    /// existing directory is the user's choice and keeps its mode (it must be the user's, and a
    /// warning is logged when others may write in it). Every commit is `synchronous = FULL`, so an
    /// answered write survives a power loss (see `SQLiteFile`).
    package static func open(at url: URL, liveEvents: LiveEventHub = LiveEventHub(),
                            logger: Logger = Logger(label: "termcanvas.bff")) throws -> SQLiteStore {
        try SQLiteFile.prepare(url, directory: .keep)
        let directory = url.deletingLastPathComponent()
        if PrivatePath.othersMayWrite(directory) {
            logger.warning("the database's folder is writable by others, who could remove or replace its files; its mode is left as it is",
                           metadata: ["folder": "\(directory.path)"])
        }
        var configuration = Configuration()
        configuration.busyMode = .timeout(5)
        configuration.journalMode = .wal
        configuration.label = "bff"
        let pool = try DatabasePool(path: url.path, configuration: configuration)
        // After the pool's WAL set-up, which sets NORMAL on its one writer connection.
        try pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
        return try SQLiteStore(pool, liveEvents: liveEvents)
    }
}

extension SQLiteStore {
    // GRDB's synchronous calls, for the store's functions: in an `async` function GRDB's own
    // `async` overloads would be chosen, which hop to its queues.

    func write<T>(_ body: (Database) throws -> T) throws -> T { try availably { try writer.write(body) } }
    func read<T>(_ body: (Database) throws -> T) throws -> T { try availably { try writer.read(body) } }

    /// A database still locked by another process after the busy timeout (a `termcanvas-bff user`
    /// command, a backup) is `unavailable`: 503 with `Retry-After`, not 500.
    private func availably<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY || error.resultCode == .SQLITE_LOCKED {
            throw BFFStoreError.unavailable(error.message ?? "database is locked")
        }
    }
    func unsafeRead<T>(_ body: (Database) throws -> T) throws -> T { try availably { try writer.unsafeRead(body) } }
}

extension SQLiteStore {
    /// Throws unless the database file can be opened afresh and read, for `/ready`.
    ///
    /// The server's own connections keep working on a file that was deleted or damaged under them
    /// (its writes would then be lost), so this opens a new read-only connection to the path.
    package func checkReadable() async throws {
        try Self.probe(writer.path)
    }

    private static func probe(_ path: String) throws {
        var configuration = Configuration()
        configuration.readonly = true
        let probe = try DatabaseQueue(path: path, configuration: configuration)
        _ = try probe.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM users") }
        try probe.close()
    }
}
