import CanvasCore
import Foundation
import GRDB
@testable import LayoutStore
import Testing

@Suite("Invalid layouts are refused")
struct InvalidLayoutTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let label: String
        let layout: LayoutData
        let reason: CanvasError
        var testDescription: String { label }
    }

    static var cases: [Case] {
        var overlap = Sample.planner
        overlap.panes[2].frame = rect(7, 4, 9, 6) // pane 7 now overlaps panes 1 and 2
        var outside = Sample.planner
        outside.panes[1].frame = rect(8, 0, 9, 5) // x + width = 17 > 16 columns
        var duplicate = Sample.planner
        duplicate.panes[2].id = 1
        var unknownFocus = Sample.planner
        unknownFocus.focused = 5
        var tooSmall = Sample.planner
        tooSmall.panes[2].frame = rect(8, 5, 2, 5) // narrower than the 3-column minimum
        var badGrid = Sample.planner
        badGrid.grid.columns = 65
        return [
            Case(label: "overlapping panes", layout: overlap, reason: .overlap(7, 1)),
            Case(label: "pane outside the grid", layout: outside, reason: .outOfGrid(2, rect(8, 0, 9, 5))),
            Case(label: "duplicate pane ids", layout: duplicate, reason: .duplicatePane(1)),
            Case(label: "focus on no pane", layout: unknownFocus, reason: .unknownPane(5)),
            Case(label: "pane below minimum", layout: tooSmall,
                 reason: .belowMinimumSize(7, minimum: Size(width: 3, height: 2))),
            Case(label: "grid too large", layout: badGrid,
                 reason: .invalidGrid("columns and rows must be between 1 and 64, got 65×10")),
        ]
    }

    @Test(arguments: cases)
    func saveAndRecordStepRefuseAndLeaveTheDatabaseUntouched(_ bad: Case) throws {
        let scratch = try Scratch()
        let store = try HistoryTests.threeSteps(scratch)
        let dump = try Self.dump(scratch.database)
        let expected = LayoutStoreError.invalidLayout(name: Sample.name, reason: bad.reason.description)

        #expect(throws: expected) { try store.save(bad.layout) }
        #expect(throws: expected) { try store.recordStep("bad", layout: bad.layout) }
        #expect(throws: expected) { try store.recordUndo(layout: bad.layout) }
        #expect(throws: expected) { try store.recordRedo(layout: bad.layout) }

        #expect(try Self.dump(scratch.database) == dump)
        #expect(try store.load(named: Sample.name)?.layout == Sample.narrowed)
    }

    @Test func aNewLayoutThatIsInvalidIsNotCreated() throws {
        let scratch = try Scratch()
        let store = try openStore(scratch.database)
        var bad = Sample.planner
        bad.panes[2].frame = rect(7, 4, 9, 6)
        #expect(throws: LayoutStoreError.invalidLayout(name: Sample.name, reason: CanvasError.overlap(7, 1).description)) {
            try store.save(bad)
        }
        #expect(try store.summaries().isEmpty)
        #expect(try count("SELECT COUNT(*) FROM history", in: scratch.database) == 0)
    }

    /// Every row of every table, as text.
    static func dump(_ url: URL) throws -> [String] {
        try rawQueue(url).read { db in
            try ["layout", "pane", "history", "preference"].flatMap { table in
                try Row.fetchAll(db, sql: "SELECT * FROM \(table) ORDER BY rowid").map { "\(table): \($0)" }
            }
        }
    }
}
