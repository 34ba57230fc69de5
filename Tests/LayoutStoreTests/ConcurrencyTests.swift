import CanvasCore
import Dispatch
import Foundation
import GRDB
@testable import LayoutStore
import Testing

/// Errors collected from several threads.
final class ErrorLog: @unchecked Sendable {
    private let lock = NSLock()
    private var errors: [String] = []

    func add(_ error: any Error) { lock.withLock { errors.append("\(error)") } }
    var all: [String] { lock.withLock { errors } }
}

@Suite("Two connections to one file")
struct ConcurrencyTests {
    static func named(_ name: String, _ layout: LayoutData = Sample.planner) -> LayoutData {
        var copy = layout
        copy.name = name
        return copy
    }

    @Test func interleavedWritesFromTwoStoresAreSeenByBoth() throws {
        let scratch = try Scratch()
        let first = try openStore(scratch.database)
        let second = try openStore(scratch.database)

        try first.save(Self.named("from first"))
        #expect(try second.load(named: "from first")?.layout == Self.named("from first"))
        try second.save(Self.named("from second", Sample.swapped))
        #expect(try first.load(named: "from second")?.layout == Self.named("from second", Sample.swapped))

        try first.recordStep("narrow", layout: Self.named("from second", Sample.narrowed))
        try second.recordUndo(layout: Self.named("from second", Sample.swapped))
        let seenByFirst = try #require(try first.load(named: "from second"))
        #expect(seenByFirst.layout == Self.named("from second", Sample.swapped))
        #expect(seenByFirst.history.redoSnapshots == [Self.named("from second", Sample.narrowed)])

        try second.setPreference("theme", to: "light")
        #expect(try first.preference("theme") == "light")
        try first.rename("from first", to: "renamed")
        #expect(try second.summaries().map(\.name) == ["from second", "renamed"])
        try second.delete(named: "renamed")
        #expect(try first.summaries().map(\.name) == ["from second"])
    }

    @Test func concurrentWritesFromTwoThreadsAllLand() throws {
        let scratch = try Scratch()
        let stores = [try openStore(scratch.database), try openStore(scratch.database)]
        try stores[0].save(Self.named("shared", Sample.step(0)))
        let perThread = 60
        let errors = ErrorLog()

        DispatchQueue.concurrentPerform(iterations: 2) { thread in
            let store = stores[thread]
            for index in 0..<perThread {
                do {
                    // Each thread's own layouts, steps on a layout both share, and a reader.
                    try store.save(Self.named("t\(thread)-\(index)", Sample.step(index)))
                    try store.recordStep("t\(thread) step \(index)", layout: Sample.step(index, name: "shared"))
                    try store.setPreference("t\(thread)", to: "\(index)")
                    _ = try store.summaries()
                    _ = try store.load(named: "shared")
                } catch {
                    errors.add(error)
                }
            }
        }

        #expect(errors.all == [])
        for store in stores {
            let names = Set(try store.summaries().map(\.name))
            #expect(names.count == 2 * perThread + 1)
            for thread in 0..<2 {
                for index in 0..<perThread {
                    #expect(names.contains("t\(thread)-\(index)"))
                }
                #expect(try store.preference("t\(thread)") == "\(perThread - 1)")
            }
            // Every step of both threads is in the shared history, at contiguous positions.
            let history = try store.history(named: "shared")
            #expect(history.count == 2 * perThread + 1)
            #expect(history.map(\.position) == Array(0...(2 * perThread)))
            #expect(history.filter(\.isCurrent).map(\.position) == [2 * perThread])
            for thread in 0..<2 {
                let steps = history.map(\.step).filter { $0.hasPrefix("t\(thread) ") }
                #expect(steps == (0..<perThread).map { "t\(thread) step \($0)" })
            }
        }
    }

    @Test func aWriterWaitsForAnotherProgramsTransactionInsteadOfFailing() throws {
        let scratch = try Scratch()
        let store = try openStore(scratch.database)
        try store.save(Sample.planner)
        let other = try rawQueue(scratch.database)
        let errors = ErrorLog()
        let started = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)

        // Another connection holds the write lock for a moment.
        // A thread of its own: the test blocks until it signals, and a pool thread could be the
        // one the blocked test holds (two cores, two pool threads).
        Thread {
            do {
                try other.inDatabase { db in
                    try db.execute(sql: "BEGIN IMMEDIATE")
                    started.signal()
                    Thread.sleep(forTimeInterval: 0.5)
                    try db.execute(sql: "INSERT INTO preference (key, value) VALUES ('held', 'yes')")
                    try db.execute(sql: "COMMIT")
                }
            } catch {
                errors.add(error)
            }
            done.signal()
        }.start()
        started.wait()
        let before = Date()
        try store.recordStep("swap", layout: Sample.swapped)
        let waited = Date().timeIntervalSince(before)
        done.wait()

        #expect(errors.all == [])
        #expect(waited > 0.3, "the write should have waited for the lock, took \(waited)s")
        #expect(try store.load(named: Sample.name)?.layout == Sample.swapped)
        #expect(try store.preference("held") == "yes")
    }

    /// Two dashboards started at once on a first run race to create the schema (and to switch
    /// the new file to WAL); both must come up. The race is timing-dependent, so it runs many times.
    @Test func twoProgramsOpeningANewFileAtOnceBothSucceed() throws {
        for round in 0..<80 {
            let scratch = try Scratch()
            let url = scratch.database
            let errors = ErrorLog()
            DispatchQueue.concurrentPerform(iterations: 2) { index in
                do {
                    let store = try LayoutStore.open(at: url).store
                    try store.save(Self.named("opened \(index)"))
                } catch {
                    errors.add(error)
                }
            }
            #expect(errors.all == [], "round \(round)")
            let store = try openStore(url)
            #expect(try store.summaries().map(\.name) == ["opened 0", "opened 1"], "round \(round)")
            #expect(try count("SELECT COUNT(*) FROM grdb_migrations", in: url) == 5, "round \(round)")
            if !errors.all.isEmpty { return }
        }
    }
}
