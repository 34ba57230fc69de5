import CanvasCore
import Foundation
import GRDB
@testable import LayoutStore
import Testing

@Suite("Damaged database files")
struct CorruptFileTests {
    /// Deterministic bytes that are not a database.
    static func garbage(count: Int) -> Data {
        var state: UInt32 = 0x1234_5678
        return Data((0..<count).map { _ in
            state = state &* 1_664_525 &+ 1_013_904_223
            return UInt8(truncatingIfNeeded: state >> 24)
        })
    }

    static let garbageFiles: [(String, Data)] = [
        ("random bytes", garbage(count: 8192)),
        ("text", Data("this is not a database\n".utf8)),
        ("a fake header", Data("SQLite format 3\0".utf8) + garbage(count: 4080)),
    ]

    @Test(arguments: garbageFiles)
    func aFileThatIsNotADatabaseIsKeptAsideAndANewOneStarted(label: String, bytes: Data) throws {
        let scratch = try Scratch()
        try bytes.write(to: scratch.database)

        let opened = try LayoutStore.open(at: scratch.database)

        guard case .corrupt(let path, let keptAs) = try #require(opened.recovered) else {
            Issue.record("expected .corrupt, got \(String(describing: opened.recovered))")
            return
        }
        #expect(path == scratch.database.path)
        #expect(keptAs.hasPrefix(scratch.database.path + ".corrupt-"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: keptAs)) == bytes)
        #expect(opened.recovered?.description.contains(keptAs) == true)

        // The new store is empty and works.
        let store = opened.store
        #expect(try store.summaries().isEmpty)
        try store.save(Sample.planner)
        try store.recordStep("swap", layout: Sample.swapped)
        #expect(try store.load(named: Sample.name)?.layout == Sample.swapped)
        // And the file at the path is a real database now, which reopens cleanly.
        #expect(try Data(contentsOf: scratch.database).prefix(16) == Data("SQLite format 3\0".utf8))
        #expect(try openStore(scratch.database).load(named: Sample.name)?.layout == Sample.swapped)
        // The damaged file is still there next to it.
        #expect(try Data(contentsOf: URL(fileURLWithPath: keptAs)) == bytes)
    }

    @Test func aTruncatedDatabaseIsRecoveredOrReportedNeverUsedAsIs() throws {
        let scratch = try Scratch()
        do {
            let store = try openStore(scratch.database)
            for index in 0..<40 {
                try store.save(Sample.step(index, name: "layout \(index)"))
                try store.recordStep("step", layout: Sample.step(index + 1, name: "layout \(index)"))
            }
        }
        let full = try Data(contentsOf: scratch.database)
        #expect(full.count >= 8 * 4096, "the database should span many pages, has \(full.count) bytes")
        let half = full.prefix(full.count / 2)
        try half.write(to: scratch.database)

        let opened: LayoutStore.Opened
        do {
            // What truncates a file is what ends a run uncleanly (a power cut, a full disk): the
            // start after one reads the whole file (`IntegrityCheck`).
            opened = try LayoutStore.open(at: scratch.database, afterUncleanEnd: true)
        } catch let error as LayoutStoreError {
            // A clear error is acceptable; it must say which file.
            #expect(error.description.contains(scratch.database.path))
            return
        }
        guard case .corrupt(_, let keptAs) = try #require(opened.recovered, "a truncated database was used as if whole") else {
            Issue.record("expected .corrupt, got \(String(describing: opened.recovered))")
            return
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: keptAs)) == half)
        try opened.store.save(Sample.planner)
        #expect(try opened.store.summaries().map(\.name) == [Sample.name])
    }
}

/// Issue 56, item 4: a start reads the whole file only when a check is due, so its cost does
/// not grow with the database; damage met in use makes the next start check.
@Suite("The integrity check at start, when due")
struct IntegrityCheckTests {
    @Test func aCheckIsDueWithoutAMarkAfterAnUncleanEndAndAfterAWeek() throws {
        let scratch = try Scratch()
        let check = IntegrityCheck(database: scratch.database)
        #expect(check.isDue(afterUncleanEnd: false))
        _ = try LayoutStore.open(at: scratch.database)
        let now = Date().timeIntervalSince1970
        #expect(!check.isDue(afterUncleanEnd: false, now: now))
        #expect(check.isDue(afterUncleanEnd: true, now: now))
        #expect(check.isDue(afterUncleanEnd: false, now: now + IntegrityCheck.interval + 60))
        #expect(check.isDue(afterUncleanEnd: false, now: now - 3_600), "a clock set back")
        let mark = try FileManager.default.attributesOfItem(atPath: scratch.database.path + "-checked")
        #expect((mark[.posixPermissions] as? NSNumber)?.intValue == 0o600)
    }

    @Test func damageMetInUseMakesTheNextStartCheckAndSetTheFileAside() throws {
        let scratch = try Scratch()
        do {
            let store = try LayoutStore.open(at: scratch.database).store
            for index in 0..<40 { try store.save(Sample.step(index, name: "layout \(index)")) }
        }
        // Pages past the schema's made garbage, the file's size kept: what opening reads is whole.
        var full = try Data(contentsOf: scratch.database)
        let start = full.count / 2
        full.replaceSubrange(start..<full.count, with: Data(repeating: 0x55, count: full.count - start))
        try full.write(to: scratch.database)
        // Checked a moment ago and no unclean end: this start does not read the whole file…
        let unchecked = try LayoutStore.open(at: scratch.database)
        #expect(unchecked.recovered == nil)
        // …and the damage, met when read, is an error, after which the next start checks.
        #expect(throws: LayoutStoreError.self) {
            for index in 0..<40 { _ = try unchecked.store.load(named: "layout \(index)") }
        }
        #expect(IntegrityCheck(database: scratch.database).isDue(afterUncleanEnd: false))
        let next = try LayoutStore.open(at: scratch.database)
        guard case .corrupt? = next.recovered else { Issue.record("not set aside: \(String(describing: next.recovered))"); return }
    }
}

@Suite("Damaged files are never overwritten")
struct CorruptFileNamingTests {
    @Test func aDamagedFileIsNotKeptOverAnEarlierKeptFile() throws {
        let scratch = try Scratch()
        // Files kept from earlier damage, under every name the next seconds would give.
        let now = Int(Date().timeIntervalSince1970)
        var earlier: [String: Data] = [:]
        for second in (now - 1)...(now + 30) {
            let path = scratch.database.path + ".corrupt-\(second)"
            earlier[path] = Data("kept at \(second)".utf8)
            try earlier[path]!.write(to: URL(fileURLWithPath: path))
        }
        let damaged = CorruptFileTests.garbage(count: 4096)
        try damaged.write(to: scratch.database)

        let opened = try LayoutStore.open(at: scratch.database)

        guard case .corrupt(_, let keptAs) = try #require(opened.recovered) else {
            Issue.record("expected .corrupt, got \(String(describing: opened.recovered))")
            return
        }
        #expect(earlier[keptAs] == nil, "kept over an earlier file: \(keptAs)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: keptAs)) == damaged)
        for (path, bytes) in earlier {
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
        }
        try opened.store.save(Sample.planner)
        #expect(try opened.store.summaries().count == 1)
    }

    @Test func twoDamagedFilesInARowAreBothKept() throws {
        let scratch = try Scratch()
        var kept: [String] = []
        for round in 0..<3 {
            try? FileManager.default.removeItem(atPath: scratch.database.path + "-wal")
            try? FileManager.default.removeItem(atPath: scratch.database.path + "-shm")
            try Data("garbage \(round) is not a database".utf8).write(to: scratch.database)
            let opened = try LayoutStore.open(at: scratch.database)
            guard case .corrupt(_, let keptAs) = try #require(opened.recovered) else {
                Issue.record("round \(round): expected .corrupt, got \(String(describing: opened.recovered))")
                return
            }
            kept.append(keptAs)
        }
        #expect(Set(kept).count == 3)
        for (round, path) in kept.enumerated() {
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data("garbage \(round) is not a database".utf8))
        }
    }
}
