import CanvasCore
import CanvasUI
import TestSupport
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

    /// Plain text written over wide characters, clipped anywhere: no half is left, and the text
    /// is where it was written. (ASCII takes a path of its own, which checks only the run's ends.)
    @Test func asciiOverWideCharactersLeavesNoHalves() {
        var rng = SplitMix64(seed: 0xA5C11)
        for _ in 0..<400 {
            let width = Int.random(in: 1...12, using: &rng)
            var buffer = Buffer(size: Size(width: width, height: 1))
            for _ in 0..<3 {
                let wide = (0..<Int.random(in: 1...6, using: &rng)).map { _ in ["日", "本", "🙂", "a"].randomElement(using: &rng)! }.joined()
                buffer.write(wide, at: Point(x: Int.random(in: -1...width, using: &rng), y: 0), style: .plain)
            }
            let text = String(repeating: "x", count: Int.random(in: 0...6, using: &rng))
            let at = Int.random(in: -3...width, using: &rng)
            let clip = Rect(x: Int.random(in: 0..<width, using: &rng), y: 0, width: Int.random(in: 0...width, using: &rng), height: 1)
            buffer.write(text, at: Point(x: at, y: 0), style: .plain, clip: clip)
            expectWellFormed(buffer)
            let (first, end) = (max(at, clip.minX), min(at + text.count, clip.maxX, width))
            for x in first..<max(first, end) { #expect(buffer[x, 0].symbol == "x", "\(x) in \(buffer.lines)") }
        }
    }
}
