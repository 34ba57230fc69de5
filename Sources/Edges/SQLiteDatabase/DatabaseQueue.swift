internal import CSQLite
import Dispatch
import Synchronization

/// One SQLite connection used by one caller at a time: every read and write is a transaction,
/// a write `BEGIN IMMEDIATE` (so two programs sharing a file wait for each other through the busy
/// timeout rather than failing at commit).
public final class DatabaseQueue: Sendable {
    /// The file's path, or ":memory:".
    public let path: String
    private let database: Database
    /// Held while `database` is in use.
    private let lock = Mutex(())
    /// Where the asynchronous calls run, off the caller's thread (and off Swift's cooperative
    /// pool, which a wait for a lock would hold).
    private let queue: DispatchQueue

    /// Opens (creating) the database at `path` with foreign keys on and a busy timeout, then runs
    /// `prepare` on it (pragmas).
    /// - Parameter readOnly: Opens an existing file for reading only.
    /// - Parameter trace: Called with each statement's SQL as it starts (tests use it to act at a
    ///   given moment).
    /// - Throws: `SQLiteError`.
    public init(path: String, readOnly: Bool = false, busyTimeout milliseconds: Int32 = 5000,
                prepare: (Database) throws -> Void = { _ in }, trace: (@Sendable (String) -> Void)? = nil) throws {
        var handle: OpaquePointer?
        let access = readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        let flags = access | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        let result = sqlite3_open_v2(path, &handle, flags, nil)
        guard result == SQLITE_OK, let handle else {
            let error = SQLiteError(code: result, connection: handle)
            sqlite3_close_v2(handle)
            throw error
        }
        let database = Database(handle: handle, trace: trace)  // closes the handle if what follows throws
        sqlite3_busy_timeout(handle, milliseconds)
        try database.execute(sql: "PRAGMA foreign_keys = ON")
        try prepare(database)
        self.path = path
        self.database = database
        queue = DispatchQueue(label: "sqlite \(path)")
    }

    /// A database that lives as long as this queue.
    public static func inMemory() throws -> DatabaseQueue {
        try DatabaseQueue(path: ":memory:")
    }

    /// Runs `body` in a read transaction (one consistent view of the file).
    public func read<T>(_ body: (Database) throws -> T) throws -> T {
        try transaction("BEGIN DEFERRED", body)
    }

    /// Runs `body` in a write transaction: committed when it returns, rolled back when it throws.
    public func write<T>(_ body: (Database) throws -> T) throws -> T {
        try transaction("BEGIN IMMEDIATE", body)
    }

    /// Runs `body` outside any transaction (pragmas that cannot run in one).
    public func writeWithoutTransaction<T>(_ body: (Database) throws -> T) throws -> T {
        try lock.withLock { _ in try body(database) }
    }

    public func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await onQueue { try self.read(body) }
    }

    public func write<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await onQueue { try self.write(body) }
    }

    private func transaction<T>(_ begin: String, _ body: (Database) throws -> T) throws -> T {
        try lock.withLock { _ in
            try database.execute(sql: begin)
            do {
                let result = try body(database)
                try database.execute(sql: "COMMIT")
                return result
            } catch {
                // A failed COMMIT or statement may have rolled back already; this one then fails too.
                try? database.execute(sql: "ROLLBACK")
                throw error
            }
        }
    }

    private func onQueue<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result { try body() }) }
        }
    }
}
