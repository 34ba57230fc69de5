import FoundationEssentials
import SQLiteDatabase
import ServerAPI
import SQLiteFiles

/// The micro-apps' data on this machine: what the BFF last said, with the user's own writes
/// applied on top, and the outbox of writes still to send. One SQLite file per server and user,
/// so the dashboard starts with content before the network answers and keeps it offline.
///
/// Each method is one transaction (but storing a channel's newest messages, two); callers are
/// the `ServerSync` actor only.
public struct SyncCache: Sendable {
    let writer: DatabaseQueue
    /// Kept alive as long as the cache: the lock that makes the file this process's alone.
    private let lock: (any Sendable)?
    /// Why this cache lives in memory instead of its file, if it does: nothing is kept offline.
    public let notKept: String?

    /// Opens (creating) the cache at `url`. A file SQLite says is damaged is moved aside, with its
    /// `-wal` and `-shm`, to `NAME.corrupt-TIME` and a new one started: a cache holds nothing the
    /// server does not, except unsent writes, which the moved file keeps for inspection. Any other
    /// failure (a full disk, an I/O error, a lock) keeps the file, outbox and all, and throws.
    ///
    /// - Parameter lock: Held as long as the cache is open (see `MicroAppLink` for why one
    ///   process owns a cache file).
    public static func open(at url: URL, holding lock: (any Sendable)? = nil) throws -> SyncCache {
        try SQLiteFile.prepare(url)
        do {
            return try SyncCache(writer: DatabaseQueue(path: url.path, prepare: prepare), lock: lock)
        } catch let error as SQLiteError where error.isDamaged {
            _ = try SQLiteFile.moveAside(url)
            try SQLiteFile.prepare(url)
            return try SyncCache(writer: DatabaseQueue(path: url.path, prepare: prepare), lock: lock)
        }
    }

    /// A cache that lives only as long as the process (tests, or when the file cannot be used).
    /// - Parameter notKept: Why the file could not be used, which pane titles show.
    public static func inMemory(notKept: String? = nil) throws -> SyncCache {
        try SyncCache(writer: DatabaseQueue.inMemory(), lock: nil, notKept: notKept)
    }

    /// FULL: the outbox holds writes the user was told are kept (see `SQLiteFile`).
    private static func prepare(_ db: Database) throws {
        try db.execute(sql: "PRAGMA synchronous = FULL")
    }

    init(writer: DatabaseQueue, lock: (any Sendable)?, notKept: String? = nil) throws {
        self.writer = writer
        self.lock = lock
        self.notKept = notKept
        try writer.writeWithoutTransaction { db in
            if writer.path != ":memory:" {
                try db.execute(sql: "PRAGMA journal_mode = WAL")
            }
        }
        try Self.migrations.migrate(writer)
    }

    static var migrations: Migrations {
        var migrations = Migrations()
        migrations.register("v1") { db in
            try db.execute(sql: """
                CREATE TABLE todo (id INTEGER PRIMARY KEY, title TEXT NOT NULL, notes TEXT NOT NULL,
                                   done BOOLEAN NOT NULL, due TEXT);
                CREATE TABLE calendarEvent (id INTEGER PRIMARY KEY, title TEXT NOT NULL, start TEXT NOT NULL,
                                            "end" TEXT NOT NULL, allDay BOOLEAN NOT NULL);
                CREATE INDEX calendarEventByStart ON calendarEvent(start);
                CREATE TABLE chatChannel (id TEXT PRIMARY KEY, name TEXT NOT NULL);
                CREATE TABLE chatMessage (id INTEGER PRIMARY KEY, channel TEXT NOT NULL, author TEXT NOT NULL,
                                          text TEXT NOT NULL, sentAt TEXT NOT NULL);
                CREATE INDEX chatMessageByChannel ON chatMessage(channel, id);
                CREATE TABLE outbox (seq INTEGER PRIMARY KEY AUTOINCREMENT, app TEXT NOT NULL,
                                     idempotencyKey TEXT NOT NULL, write TEXT NOT NULL);
                CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
                """)
        }
        // Each instance of a repeating event is a row (by its id and its instance's start, '' for
        // an event that does not repeat), with the whole event as the server gave it.
        migrations.register("v2: instances of repeating events") { db in
            try db.execute(sql: """
                CREATE TABLE calendarInstance (id INTEGER NOT NULL, instanceStart TEXT NOT NULL, title TEXT NOT NULL, start TEXT NOT NULL,
                                               "end" TEXT NOT NULL, allDay BOOLEAN NOT NULL, json TEXT, PRIMARY KEY (id, instanceStart));
                INSERT INTO calendarInstance SELECT id, '', title, start, "end", allDay, NULL FROM calendarEvent;
                DROP TABLE calendarEvent;
                ALTER TABLE calendarInstance RENAME TO calendarEvent;
                CREATE INDEX calendarEventByStart ON calendarEvent(start);
                """)
        }
        migrations.register("v3: todo priorities") { db in
            try db.execute(sql: "ALTER TABLE todo ADD COLUMN priority INTEGER")
        }
        return migrations
    }

    // MARK: Meta

    func meta(_ key: String, in db: Database) throws -> String? {
        try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = ?", arguments: [key])
    }

    func setMeta(_ key: String, _ value: String?, in db: Database) throws {
        if let value {
            try db.execute(sql: "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", arguments: [key, value])
        } else {
            try db.execute(sql: "DELETE FROM meta WHERE key = ?", arguments: [key])
        }
    }

    /// A fresh local id: negative, never reused in this cache.
    func nextLocalID(in db: Database) throws -> Int64 {
        let next = (try meta("nextLocalID", in: db).flatMap { Int64($0) }) ?? -1
        try setMeta("nextLocalID", String(next - 1), in: db)
        return next
    }

    public func lastEventID() async throws -> Int64? {
        try await writer.read { db in try meta("lastEventID", in: db).flatMap { Int64($0) } }
    }

    /// When a refresh of every app last came back whole, if nothing (a stream reset, a live event
    /// that could not be applied) has made the cache doubtful since.
    func completeSince() async throws -> Date? {
        try await writer.read { db in
            try meta("completeSince", in: db).flatMap(Double.init).map(Date.init(timeIntervalSince1970:))
        }
    }

    /// Marks the cache complete as of `date`, or (nil) doubtful until the next whole refresh.
    func setComplete(since date: Date?) async throws {
        try await writer.write { db in try setMeta("completeSince", date.map { String($0.timeIntervalSince1970) }, in: db) }
    }

    func lastSynced(_ app: String) async throws -> Date? {
        try await writer.read { db in
            try meta("lastSynced.\(app)", in: db).flatMap(Double.init).map(Date.init(timeIntervalSince1970:))
        }
    }

    func setLastSynced(_ app: String, _ date: Date) async throws {
        try await writer.write { db in try setMeta("lastSynced.\(app)", String(date.timeIntervalSince1970), in: db) }
    }

    func remindedUntil() async throws -> Date? {
        try await writer.read { db in
            try meta("remindedUntil", in: db).flatMap(Double.init).map(Date.init(timeIntervalSince1970:))
        }
    }

    func setRemindedUntil(_ date: Date) async throws {
        try await writer.write { db in try setMeta("remindedUntil", String(date.timeIntervalSince1970), in: db) }
    }

    func registry() async throws -> [MicroAppInfo]? {
        try await writer.read { db in
            try meta("registry", in: db).flatMap { try? JSONDecoder().decode([MicroAppInfo].self, from: Data($0.utf8)) }
        }
    }

    func setRegistry(_ apps: [MicroAppInfo]) async throws {
        let json = try Self.jsonArray(apps)
        try await writer.write { db in try setMeta("registry", json, in: db) }
    }

    /// `items` as one JSON array, each item encoded on its own: Foundation's encoder builds a
    /// tree of the whole value before it writes a byte, and for a registry of 500 packages that
    /// tree was 2 MB of a team dashboard's peak heap (valgrind's massif).
    static func jsonArray<Item: Encodable>(_ items: [Item]) throws -> String {
        let encoder = JSONEncoder()
        var bytes: [UInt8] = [UInt8(ascii: "[")]
        for item in items {
            if bytes.count > 1 { bytes.append(UInt8(ascii: ",")) }
            try encoder.encode(item).withUnsafeBytes { bytes.append(contentsOf: $0) }
        }
        bytes.append(UInt8(ascii: "]"))
        return String(decoding: bytes, as: UTF8.self)
    }
}
