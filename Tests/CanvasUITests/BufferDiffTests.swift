import CanvasCore
import CanvasStyle
import CanvasUI
import Testing

/// Runs as `x,y:symbols`, symbols separated by `|` so continuation cells show as empty.
func describe(_ runs: [CellRun]) -> [String] {
    runs.map { "\($0.origin.x),\($0.origin.y):" + $0.cells.map(\.symbol).joined(separator: "|") }
}

@Suite("Buffer.changes(since:): only what changed, in runs per row")
struct BufferDiffTests {
    @Test func aFirstFrameSendsEveryCellInOneRunPerRow() {
        let frame = Buffer(lines: ["ab", "日"])
        #expect(describe(frame.changes(since: nil)) == ["0,0:a|b", "0,1:日|"])
    }

    @Test func identicalFramesSendNothing() {
        let frame = Buffer(lines: ["abc", "日本x"])
        #expect(frame.changes(since: frame).isEmpty)
    }

    @Test func oneChangedCellIsOneRunOfOneCell() {
        let previous = Buffer(lines: ["abcd", "efgh"])
        var next = previous
        next.write("X", at: Point(x: 2, y: 1), style: .plain)
        #expect(describe(next.changes(since: previous)) == ["2,1:X"])
    }

    @Test func aStyleChangeAloneIsAChange() {
        let previous = Buffer(lines: ["abcd"])
        var next = previous
        next.write("bc", at: Point(x: 1, y: 0), style: Style(attributes: .reverse))
        let runs = next.changes(since: previous)
        #expect(describe(runs) == ["1,0:b|c"])
        #expect(runs.first?.cells.map(\.style) == [Style(attributes: .reverse), Style(attributes: .reverse)])
    }

    @Test func separateChangesOnARowAreSeparateRuns() {
        let previous = Buffer(lines: ["abcdef"])
        var next = previous
        next.write("X", at: Point(x: 1, y: 0), style: .plain)
        next.write("YZ", at: Point(x: 4, y: 0), style: .plain)
        #expect(describe(next.changes(since: previous)) == ["1,0:X", "4,0:Y|Z"])
    }

    @Test func aChangedContinuationPullsInItsLead() {
        let previous = Buffer(lines: ["a日b"])
        var next = previous
        next.fill(Rect(x: 2, y: 0, width: 1, height: 1), with: Cell(next[2, 0].glyph, style: Style(attributes: .bold)))
        #expect(describe(next.changes(since: previous)) == ["1,0:日|"])
    }

    @Test func aChangedWideLeadIsSentWithItsContinuation() {
        let previous = Buffer(lines: ["a日b"])
        var next = previous
        next.write("本", at: Point(x: 1, y: 0), style: .plain)
        #expect(describe(next.changes(since: previous)) == ["1,0:本|"])
    }

    @Test func aDifferentSizeSendsEverything() {
        let previous = Buffer(lines: ["ab", "cd"])
        let next = Buffer(lines: ["ab ", "cd "])
        #expect(describe(next.changes(since: previous)) == ["0,0:a|b| ", "0,1:c|d| "])
    }
}
