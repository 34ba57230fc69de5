@testable import BFF
import Foundation
import BFFTesting
import GRDB
@testable import ServerStore
import Testing

@Suite("BFF database durability and privacy (SQLite's files)", .enabled(if: !TestDatabase.isPostgres))
struct DurabilityTests {
    @Test("commits are synchronous=FULL on the writer (an answered write survives a power loss); the files are 0600 in a 0700 directory")
    func fullAndPrivate() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        let previous = umask(0o022)
        defer { umask(previous) }
        let url = harness.directory.appendingPathComponent("data/bff.sqlite")
        let engine = try SQLiteStore.open(at: url)
        let store = BFFStore(engine, bcryptCost: 4)
        #expect(try await engine.writer.write { db in try Int.fetchOne(db, sql: "PRAGMA synchronous") } == 2)
        _ = try await store.addUser(name: "ann", password: nil)
        for (path, mode) in [(url.deletingLastPathComponent().path, 0o700), (url.path, 0o600), (url.path + "-wal", 0o600)] as [(String, mode_t)] {
            var info = stat()
            #expect(stat(path, &info) == 0)
            #expect(info.st_mode & 0o777 == mode, "\(path): \(String(info.st_mode & 0o777, radix: 8))")
        }
    }
}
