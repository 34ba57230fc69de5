import CanvasCore
import Dispatch
import Foundation
import GRDB
import SQLiteDatabase
@testable import LayoutStore
import Testing

/// A flag several threads may set; `first()` is true exactly once.
final class OnceFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var states: [String: Bool] = [:]

    func set(_ key: String) { lock.withLock { states[key] = true } }
    func isSet(_ key: String) -> Bool { lock.withLock { states[key] ?? false } }
    func first(_ key: String) -> Bool {
        lock.withLock {
            defer { states[key] = true }
            return states[key] != true
        }
    }
}

@Suite("Opening a file another program is setting up")
struct OpenRaceTests {
    /// The moment that two dashboards starting at once can meet, made certain: this store has
    /// read which migrations are applied and is about to run them, and another program
    /// migrates the file first.
    @Test func aMigrationAnotherProgramFinishesFirstIsAccepted() throws {
        let scratch = try Scratch()
        let path = scratch.database.path
        let flags = OnceFlag()
        let errors = ErrorLog()

        let store = try LayoutStore(SQLiteDatabase.DatabaseQueue(path: path) { _ in } trace: { sql in
            if sql.contains("FROM grdb_migrations") { flags.set("read migrations") }
            guard sql.hasPrefix("BEGIN IMMEDIATE"), flags.isSet("read migrations"), flags.first("other program") else { return }
            do {
                // Another program, on its own connection, migrates the new file now.
                let other = try LayoutStore(SQLiteDatabase.DatabaseQueue(path: path), path: path)
                try other.save(LayoutData(name: "from the other program"))
            } catch {
                errors.add(error)
            }
        }, path: path)

        #expect(flags.isSet("other program"), "the other program did not get to run")
        #expect(errors.all == [])
        try store.save(Sample.planner)
        #expect(try store.summaries().map(\.name) == ["from the other program", Sample.name])
        #expect(try count("SELECT COUNT(*) FROM grdb_migrations", in: scratch.database) == 5)
    }

    /// Switching a file to WAL needs it to itself for a moment: opening waits for another
    /// program's read to end rather than failing as locked. (Two stores setting up the same new
    /// file at once can also meet where SQLite does not wait at all; the repeated race in
    /// `ConcurrencyTests` covers that.)
    @Test func openingWaitsWhileAnotherProgramReadsTheNewFile() throws {
        let scratch = try Scratch()
        let other = try DatabaseQueue(path: scratch.database.path)
        try other.write { db in try db.execute(sql: "CREATE TABLE elsewhere (x)") }
        let reading = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        let errors = ErrorLog()
        // A thread of its own: the test blocks until it signals, and a pool thread could be the
        // one the blocked test holds (two cores, two pool threads).
        Thread {
            do {
                try other.inDatabase { db in
                    try db.execute(sql: "BEGIN DEFERRED")
                    _ = try Row.fetchAll(db, sql: "SELECT * FROM elsewhere")
                    reading.signal()
                    Thread.sleep(forTimeInterval: 0.3)
                    try db.execute(sql: "COMMIT")
                }
            } catch {
                errors.add(error)
                reading.signal()
            }
            done.signal()
        }.start()
        reading.wait()

        let store = try openStore(scratch.database)
        done.wait()

        #expect(errors.all == [])
        try store.save(Sample.planner)
        #expect(try store.load(named: Sample.name)?.layout == Sample.planner)
        let journalMode = try rawQueue(scratch.database).read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") }
        #expect(journalMode == "wal")
    }
}
