import Foundation
import GRDB
import PrivateFiles
import SQLiteFiles

extension LayoutStore {
    /// What opening a database file gave: the store, and a warning when a damaged file had to be
    /// kept aside and a new one started.
    public struct Opened: Sendable {
        public let store: LayoutStore
        public let recovered: LayoutStoreError?
    }

    /// Opens (or creates) the database at `url` in WAL mode with a busy timeout.
    ///
    /// A file that is not a usable database is renamed (never deleted) to `NAME.corrupt-TIMESTAMP`
    /// and a new database is started; the result says so.
    /// - Throws: `LayoutStoreError` for a locked, read-only or newer database.
    public static func open(at url: URL) throws -> Opened {
        let foreign: String?
        do {
            foreign = try SQLiteFile.prepare(url)
        } catch let error as PrivatePathError where [EACCES, EPERM, EROFS].contains(error.errno) {
            throw LayoutStoreError.readOnly(path: url.path)
        }
        do {
            return Opened(store: try openDatabase(at: url), recovered: foreign.map { .corrupt(path: url.path, keptAs: $0) })
        } catch where SQLiteFile.isDamaged(error) {
            let aside = try SQLiteFile.moveAside(url)
            try SQLiteFile.prepare(url)
            return Opened(store: try openDatabase(at: url), recovered: .corrupt(path: url.path, keptAs: aside))
        }
    }

    /// Opening switches the file to WAL mode, which SQLite refuses with SQLITE_BUSY, without
    /// waiting for the busy timeout, while another program sets up the same new file: try again for a moment.
    private static func makeQueue(at url: URL, configuration: Configuration) throws -> DatabaseQueue {
        var attempts = 0
        while true {
            do {
                return try DatabaseQueue(path: url.path, configuration: configuration)
            } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY && attempts < 100 {
                attempts += 1
                Thread.sleep(forTimeInterval: 0.01)
            }
        }
    }

    /// One connection in WAL mode: the dashboard makes one read or write at a time, and a single
    /// connection opens in a fraction of the time a pool takes, which start-up feels.
    ///
    /// WAL is switched on here rather than with GRDB's `journalMode = .wal`, whose set-up also
    /// reads the WAL file's attributes through Foundation (user and group names included): on
    /// Linux that took 2 of the 3 ms this open costs before the first frame. What it ensures
    /// beyond the pragmas (a non-empty WAL file) only matters to a pool.
    private static func openDatabase(at url: URL) throws -> LayoutStore {
        var configuration = Configuration()
        configuration.busyMode = .timeout(5)
        configuration.prepareDatabase { db in
            guard try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL") == "wal" else {
                throw DatabaseError(message: "could not activate WAL mode at path: \(url.path)")
            }
            // NORMAL: see `SQLiteFile` for which files are FULL and why.
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
        }
        configuration.label = "layouts"
        do {
            let queue = try makeQueue(at: url, configuration: configuration)
            // A damaged file can open fine and fail only when read: check it now.
            let check = try queue.read { db in try String.fetchOne(db, sql: "PRAGMA quick_check") }
            guard check == "ok" else { throw DatabaseError(resultCode: .SQLITE_CORRUPT, message: check) }
            return try LayoutStore(queue, path: url.path)
        } catch let error as DatabaseError where ![.SQLITE_CORRUPT, .SQLITE_NOTADB].contains(error.resultCode) {
            if error.resultCode == .SQLITE_CANTOPEN || error.resultCode == .SQLITE_PERM || error.resultCode == .SQLITE_AUTH,
               !FileManager.default.isWritableFile(atPath: url.path) {
                throw LayoutStoreError.readOnly(path: url.path)
            }
            throw storeError(error, path: url.path)
        }
    }
}
