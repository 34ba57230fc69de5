import CanvasCore
import CanvasUI
import Testing

@Suite("Buffer.write: clipping by columns")
struct BufferClipTests {
    @Test func textStopsAtTheBufferEdge() {
        var buffer = Buffer(size: Size(width: 5, height: 2))
        let end = buffer.write("abcdefgh", at: Point(x: 2, y: 1), style: .plain)
        #expect(buffer.lines == ["     ", "  abc"])
        #expect(end == 5)
    }

    @Test func textStaysInsideTheClipRect() {
        var buffer = Buffer(lines: ["..........", ".........."])
        let end = buffer.write("abcdef", at: Point(x: 1, y: 0), style: .plain, clip: Rect(x: 3, y: 0, width: 3, height: 1))
        buffer.write("xyz", at: Point(x: 0, y: 1), style: .plain, clip: Rect(x: 3, y: 0, width: 3, height: 1))
        #expect(buffer.lines == ["...cde....", ".........."])
        #expect(end == 6)
    }

    @Test func textStartingLeftOfTheBufferShowsOnlyItsTail() {
        var buffer = Buffer(size: Size(width: 4, height: 1))
        buffer.write("abcdef", at: Point(x: -3, y: 0), style: .plain)
        #expect(buffer.lines == ["def "])
    }

    @Test func aWideCharacterCutByTheRightClipEdgeBecomesASpace() {
        var buffer = Buffer(lines: ["......"])
        let end = buffer.write("ab日x", at: .zero, style: .plain, clip: Rect(x: 0, y: 0, width: 3, height: 1))
        #expect(buffer.lines == ["ab ..."])
        #expect(end == 3)
        expectWellFormed(buffer)
    }

    @Test func aWideCharacterCutByTheBufferEdgeBecomesASpace() {
        var buffer = Buffer(size: Size(width: 3, height: 1))
        buffer.write("ab日", at: .zero, style: .plain)
        #expect(buffer.lines == ["ab "])
        expectWellFormed(buffer)
    }

    @Test func aWideCharacterCutByTheLeftClipEdgeLeavesASpace() {
        var buffer = Buffer(lines: ["......"])
        buffer.write("日x", at: .zero, style: .plain, clip: Rect(x: 1, y: 0, width: 5, height: 1))
        #expect(buffer.lines == [". x..."])
        expectWellFormed(buffer)
    }

    @Test func aCutWideCharacterOverAnotherWideCharacterLeavesNoOrphanHalf() {
        // Right clip edge inside an old wide character: its right half lies beyond the clip.
        var right = Buffer(lines: ["abcd日ef"])
        right.write("本", at: Point(x: 4, y: 0), style: .plain, clip: Rect(x: 0, y: 0, width: 5, height: 1))
        #expect(right.lines == ["abcd  ef"])
        expectWellFormed(right)

        // Left clip edge on the right half of an old wide character.
        var leftOnHalf = Buffer(lines: ["a日bcd"])
        leftOnHalf.write("本", at: Point(x: 1, y: 0), style: .plain, clip: Rect(x: 2, y: 0, width: 4, height: 1))
        #expect(leftOnHalf.lines == ["a  bcd"])
        expectWellFormed(leftOnHalf)

        // Left clip edge on the left half of an old wide character.
        var leftOnLead = Buffer(lines: ["ab日cd"])
        leftOnLead.write("本", at: Point(x: 1, y: 0), style: .plain, clip: Rect(x: 2, y: 0, width: 4, height: 1))
        #expect(leftOnLead.lines == ["ab  cd"])
        expectWellFormed(leftOnLead)
    }

    @Test func rowsOutsideTheClipAreUntouched() {
        var buffer = Buffer(lines: ["...", "..."])
        let end = buffer.write("abc", at: Point(x: 1, y: 1), style: .plain, clip: Rect(x: 0, y: 0, width: 3, height: 1))
        buffer.write("abc", at: Point(x: 0, y: 5), style: .plain)
        buffer.write("abc", at: Point(x: 0, y: -1), style: .plain)
        #expect(buffer.lines == ["...", "..."])
        #expect(end == 1)
    }
}
