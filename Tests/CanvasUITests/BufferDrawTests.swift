import CanvasCore
import CanvasStyle
import CanvasUI
import Testing

@Suite("Buffer.draw: blitting with clipping")
struct BufferDrawTests {
    static let tile = Buffer(lines: ["ab", "cd"])

    @Test func copiesAtTheOrigin() {
        var buffer = Buffer(lines: ["......", "......", "......"])
        buffer.draw(Self.tile, at: Point(x: 1, y: 1))
        #expect(buffer.lines == ["......", ".ab...", ".cd..."])
    }

    @Test func clipsAtEveryEdge() {
        var buffer = Buffer(lines: ["...", "...", "..."])
        buffer.draw(Self.tile, at: Point(x: -1, y: -1))
        buffer.draw(Self.tile, at: Point(x: 2, y: 2))
        #expect(buffer.lines == ["d..", "...", "..a"])
    }

    @Test func drawingWhollyOutsideChangesNothing() {
        var buffer = Buffer(lines: ["...", "..."])
        buffer.draw(Self.tile, at: Point(x: 3, y: 0))
        buffer.draw(Self.tile, at: Point(x: -2, y: 0))
        buffer.draw(Self.tile, at: Point(x: 0, y: 5))
        #expect(buffer.lines == ["...", "..."])
    }

    @Test func keepsStyles() {
        var tile = Buffer(size: Size(width: 2, height: 1))
        let bold = Style(attributes: .bold)
        tile.write("hi", at: .zero, style: bold)
        var buffer = Buffer(lines: ["...."])
        buffer.draw(tile, at: Point(x: 1, y: 0))
        #expect(buffer.cells.map(\.style) == [.plain, bold, bold, .plain])
    }

    @Test func aWideCharacterCutByTheRightEdgeOfTheBufferBecomesASpace() {
        var buffer = Buffer(lines: ["...."])
        buffer.draw(Buffer(lines: ["ab日"]), at: Point(x: 1, y: 0))
        #expect(buffer.lines == [".ab "])
        expectWellFormed(buffer)
    }

    @Test func aWideCharacterCutByTheLeftEdgeLeavesASpace() {
        var buffer = Buffer(lines: ["...."])
        buffer.draw(Buffer(lines: ["日x"]), at: Point(x: -1, y: 0))
        #expect(buffer.lines == [" x.."])
        expectWellFormed(buffer)
    }

    @Test func blittingOverHalfOfAWideCharacterBlanksItsOtherHalf() {
        var onRightHalf = Buffer(lines: ["日本語"])
        onRightHalf.draw(Buffer(lines: ["x"]), at: Point(x: 1, y: 0))
        #expect(onRightHalf.lines == [" x本語"])
        expectWellFormed(onRightHalf)

        var onLeftHalf = Buffer(lines: ["日本語"])
        onLeftHalf.draw(Buffer(lines: ["y"]), at: Point(x: 2, y: 0))
        #expect(onLeftHalf.lines == ["日y 語"])
        expectWellFormed(onLeftHalf)
    }
}
