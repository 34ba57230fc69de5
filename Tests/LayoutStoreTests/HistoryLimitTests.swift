import CanvasCore
import Foundation
import GRDB
@testable import LayoutStore
import Testing

@Suite("The history is bounded")
struct HistoryLimitTests {
    static func pageCount(_ url: URL) throws -> Int {
        try rawQueue(url).read { db in try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0 }
    }

    @Test func after600StepsOnlyTheLimitOfPastStepsRemainPlusTheCurrent() throws {
        let limit = LayoutStore.historyLimit
        #expect(limit == 500)
        let scratch = try Scratch()
        let store = try openStore(scratch.database)
        try store.save(Sample.step(0))
        for index in 1...600 {
            try store.recordStep("step \(index)", layout: Sample.step(index))
        }

        let history = try store.history(named: "long")
        #expect(history.count == limit + 1)
        #expect(history.first?.position == 600 - limit)
        #expect(history.first?.step == "step \(600 - limit)")
        #expect(history.last?.step == "step 600")
        #expect(history.map(\.position) == Array((600 - limit)...600))
        #expect(history.filter(\.isCurrent).map(\.position) == [600])
        // No rows left behind in the table either.
        #expect(try count("SELECT COUNT(*) FROM history", in: scratch.database) == limit + 1)

        let loaded = try #require(try store.load(named: "long"))
        #expect(loaded.layout == Sample.step(600))
        #expect(loaded.history.undoSnapshots.count == limit)
        #expect(loaded.history.undoSnapshots.first == Sample.step(100))
        #expect(loaded.history.undoSnapshots.last == Sample.step(599))
        #expect(loaded.history.undoSnapshots == (100...599).map { Sample.step($0) })
    }

    @Test func theFileStopsGrowingOnceTheHistoryIsFull() throws {
        let scratch = try Scratch()
        let store = try openStore(scratch.database)
        try store.save(Sample.step(0))
        for index in 1...600 { try store.recordStep("step \(index)", layout: Sample.step(index)) }
        let pagesAtFull = try Self.pageCount(scratch.database)
        for index in 601...1200 { try store.recordStep("step \(index)", layout: Sample.step(index)) }
        let pagesLater = try Self.pageCount(scratch.database)

        #expect(try store.history(named: "long").count == LayoutStore.historyLimit + 1)
        #expect(try count("SELECT COUNT(*) FROM history", in: scratch.database) == LayoutStore.historyLimit + 1)
        // Twice as many steps would take about twice the pages if nothing were forgotten;
        // freed pages are reused, so the file stays about the same size.
        #expect(Double(pagesLater) <= Double(pagesAtFull) * 1.2, "pages: \(pagesAtFull) then \(pagesLater)")
    }

    @Test func undoingPastTheLimitAfterARestartStopsAtTheOldestKeptStep() throws {
        let scratch = try Scratch()
        do {
            let store = try openStore(scratch.database)
            try store.save(Sample.step(0))
            for index in 1...520 { try store.recordStep("step \(index)", layout: Sample.step(index)) }
        }
        let store = try openStore(scratch.database)
        let loaded = try #require(try store.load(named: "long"))
        var manager = try CanvasManager(layout: loaded.layout, history: loaded.history)
        var undone = 0
        while manager.undo() { undone += 1 }
        #expect(undone == LayoutStore.historyLimit)
        #expect(manager.panes.map(\.frame) == Sample.step(20).panes.map(\.frame))
    }
}
