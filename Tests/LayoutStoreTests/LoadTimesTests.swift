import CanvasCore
import Foundation
import LayoutStore
import Testing

@Suite("Load times in the layout database")
struct LoadTimesTests {
    static func times(_ canvas: Int, layout: String = "default") -> LoadTimes {
        LoadTimes(layout: layout, canvasLoadTime: .milliseconds(canvas),
                  panes: [.init(app: "todo", microAppLoadTime: .milliseconds(canvas / 2)),
                          .init(app: "chat", microAppLoadTime: .microseconds(2_500))])
    }

    @Test func aStartsTimesComeBackNewestFirstWithTheirPanesAfterAReopen() throws {
        let scratch = try Scratch()
        do {
            let store = try LayoutStore.open(at: scratch.database).store
            #expect(try store.loadTimes().isEmpty)
            try store.record(Self.times(30), at: Date(timeIntervalSince1970: 100))
            try store.record(Self.times(40, layout: "planner"), at: Date(timeIntervalSince1970: 200))
        }
        let starts = try LayoutStore.open(at: scratch.database).store.loadTimes()
        #expect(starts.map(\.times) == [Self.times(40, layout: "planner"), Self.times(30)])
        #expect(starts.map(\.recordedAt) == [Date(timeIntervalSince1970: 200), Date(timeIntervalSince1970: 100)])
    }

    @Test func onlyTheNewestStartsAreKept() throws {
        let scratch = try Scratch()
        let store = try LayoutStore.open(at: scratch.database).store
        let count = LayoutStore.keptLoadTimes + 5
        for index in 1...count { try store.record(Self.times(index)) }
        let starts = try store.loadTimes()
        #expect(starts.count == LayoutStore.keptLoadTimes)
        #expect(starts.first?.times == Self.times(count))
        #expect(starts.last?.times == Self.times(count - LayoutStore.keptLoadTimes + 1))
        // Their panes went with them.
        #expect(starts.allSatisfy { $0.times.panes.count == 2 })
    }
}
