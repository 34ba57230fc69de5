import CanvasCore
import CanvasUI
import Testing

@Suite("Buffer.write: wide characters never leave orphan halves")
struct BufferWideOverlapTests {
    @Test func wideCharactersTakeTwoCellsAndShowOnce() {
        var buffer = Buffer(size: Size(width: 6, height: 1))
        let end = buffer.write("日🙂x", at: .zero, style: .plain)
        #expect(buffer.lines == ["日🙂x "])
        #expect(buffer.cells.map(\.symbol) == ["日", "", "🙂", "", "x", " "])
        #expect(end == 5)
    }

    @Test func overwritingTheRightHalfBlanksTheLeftHalf() {
        var buffer = Buffer(lines: ["日本語"])
        buffer.write("x", at: Point(x: 1, y: 0), style: .plain)
        #expect(buffer.lines == [" x本語"])
        expectWellFormed(buffer)
    }

    @Test func overwritingTheLeftHalfBlanksTheRightHalf() {
        var buffer = Buffer(lines: ["日本語"])
        buffer.write("y", at: Point(x: 2, y: 0), style: .plain)
        #expect(buffer.lines == ["日y 語"])
        expectWellFormed(buffer)
    }

    @Test func aWideCharacterOverlappingTwoOthersBlanksBothOuterHalves() {
        var buffer = Buffer(lines: ["日本語"])
        buffer.write("中", at: Point(x: 1, y: 0), style: .plain)
        #expect(buffer.lines == [" 中 語"])
        expectWellFormed(buffer)
    }
}
