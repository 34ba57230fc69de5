import Foundation
@testable import ServerSync
import Testing

/// The micro-app cache of today's users, written while it was kept through GRDB
/// (`Fixtures/cache-grdb.sqlite`: the release build of 33b5131 against a server seeded with 3
/// todos and 4 chat messages), opens in the build that keeps it through its own SQLite layer.
struct CacheBeforeIssue43Tests {
    @Test func aCacheWrittenThroughGRDBOpensWithItsRecords() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tc-cache-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("local.sqlite")
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/cache-grdb.sqlite")
        try FileManager.default.copyItem(at: fixture, to: file)

        let cache = try SyncCache.open(at: file)
        #expect(try await cache.todos().map(\.title) == ["Seeded item 1", "Seeded item 2", "Seeded item 3"])
        #expect(try await cache.lastEventID() != nil)
        #expect(try await cache.completeSince() != nil)
        let channel = try #require(try await cache.channels().first)
        #expect(try await cache.messages(channel: channel.id, before: nil, limit: 10).count == 4)
        #expect(try await cache.registry() != nil)
    }
}
