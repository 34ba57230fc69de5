import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import SQLiteDatabase
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
    /// and a new database is started; the result says so. The whole file is read to look for
    /// damage only when a check is due (`IntegrityCheck`).
    /// - Parameter afterUncleanEnd: The run before did not end cleanly (`RunMark.endedRuns`).
    /// - Throws: `LayoutStoreError` for a locked, read-only or newer database.
    public static func open(at url: URL, afterUncleanEnd: Bool = false) throws -> Opened {
        let check = IntegrityCheck(database: url)
        let checking = check.isDue(afterUncleanEnd: afterUncleanEnd)
        let foreign: String?
        do {
            foreign = try SQLiteFile.prepare(url)
        } catch let error as PrivatePathError where [EACCES, EPERM, EROFS].contains(error.errno) {
            throw LayoutStoreError.readOnly(path: url.path)
        }
        do {
            let store = try openDatabase(at: url, checking: checking)
            if checking { check.passed() }
            return Opened(store: store, recovered: foreign.map { .corrupt(path: url.path, keptAs: $0) })
        } catch let error as SQLiteError where error.isDamaged {
            check.damaged()
            let aside = try SQLiteFile.moveAside(url)
            try SQLiteFile.prepare(url)
            let store = try openDatabase(at: url, checking: true)
            check.passed()
            return Opened(store: store, recovered: .corrupt(path: url.path, keptAs: aside))
        }
    }

    /// Opening switches the file to WAL mode, which SQLite refuses with SQLITE_BUSY, without
    /// waiting for the busy timeout, while another program sets up the same new file: try again for a moment.
    private static func makeQueue(at url: URL) throws -> DatabaseQueue {
        var attempts = 0
        while true {
            do {
                return try DatabaseQueue(path: url.path) { db in
                    guard try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL") == "wal" else {
                        throw SQLiteError.failed("could not activate WAL mode at path: \(url.path)")
                    }
                    // NORMAL: see `SQLiteFile` for which files are FULL and why.
                    try db.execute(sql: "PRAGMA synchronous = NORMAL")
                }
            } catch let error as SQLiteError where error.isBusy && attempts < 100 {
                attempts += 1
                usleep(10_000)
            }
        }
    }

    /// One connection in WAL mode: the dashboard makes one read or write at a time, and a single
    /// connection opens in a fraction of the time a pool takes, which start-up feels.
    private static func openDatabase(at url: URL, checking: Bool) throws -> LayoutStore {
        do {
            let queue = try makeQueue(at: url)
            // A damaged file can open fine and fail only when read: check it when due.
            if checking {
                let check = try queue.read { db in try String.fetchOne(db, sql: "PRAGMA quick_check") }
                guard check == "ok" else { throw SQLiteError.damaged(check ?? "the quick check found damage") }
            }
            return try LayoutStore(queue, path: url.path)
        } catch let error as SQLiteError where !error.isDamaged {
            if error.cannotOpen, !FileManager.default.isWritableFile(atPath: url.path) {
                throw LayoutStoreError.readOnly(path: url.path)
            }
            throw storeError(error, path: url.path)
        }
    }
}
