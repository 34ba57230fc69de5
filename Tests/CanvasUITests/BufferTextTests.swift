import CanvasCore
import CanvasUI
import Testing

@Suite("Buffer as text: lines and text")
struct BufferTextTests {
    @Test func linesKeepTrailingSpacesAndShowWideCharactersOnce() {
        var buffer = Buffer(size: Size(width: 5, height: 3))
        buffer.write("ab", at: .zero, style: .plain)
        buffer.write("日本", at: Point(x: 1, y: 1), style: .plain)
        #expect(buffer.lines == ["ab   ", " 日本", "     "])
    }

    @Test func textTrimsTrailingSpacesOnly() {
        let buffer = Buffer(lines: ["  ab  ", "", "日 x"])
        #expect(buffer.size == Size(width: 6, height: 3))
        #expect(buffer.text == "  ab\n\n日 x")
    }

    @Test func bufferFromLinesPadsToTheWidestLine() {
        let buffer = Buffer(lines: ["a", "日本"])
        #expect(buffer.lines == ["a   ", "日本"])
    }
}
