import CanvasCore
import CanvasStyle
import CanvasUI
import Testing

@Suite("ANSI output: SGR codes per style change")
struct ANSITests {
    static let esc = "\u{1B}["

    @Test func plainTextIsResetOnceAndAtTheEnd() {
        #expect(Buffer(lines: ["ab"]).ansiLines() == ["\(Self.esc)0mab\(Self.esc)0m"])
    }

    @Test func aStyleIsWrittenWhenItChanges() {
        var buffer = Buffer(size: Size(width: 4, height: 1))
        buffer.write("xy", at: .zero, style: Style(foreground: .palette(196), attributes: .bold))
        buffer.write("z", at: Point(x: 2, y: 0), style: Style(foreground: .ansi(2), background: .ansi(12), attributes: [.underline, .reverse]))
        let e = Self.esc
        #expect(buffer.ansiLines() == ["\(e)0;1;38;5;196mxy\(e)0;4;7;32;104mz\(e)0m \(e)0m"])
    }

    @Test func paletteColoursAreDownsampledTo16() {
        var buffer = Buffer(size: Size(width: 3, height: 1))
        buffer.write("ab", at: .zero, style: Style(foreground: .palette(196), background: .palette(16), attributes: .bold))
        buffer.write("c", at: Point(x: 2, y: 0), style: Style(foreground: .palette(244), background: .palette(231)))
        let e = Self.esc
        #expect(buffer.ansiLines(colors16: true) == ["\(e)0;1;91;40mab\(e)0;90;107mc\(e)0m"])
        #expect(buffer.ansiLines(colors16: false) == ["\(e)0;1;38;5;196;48;5;16mab\(e)0;38;5;244;48;5;231mc\(e)0m"])
    }

    @Test func wideCharactersAreWrittenOnce() {
        var buffer = Buffer(size: Size(width: 4, height: 2))
        buffer.write("日x", at: .zero, style: .plain)
        #expect(buffer.ansiLines() == ["\(Self.esc)0m日x \(Self.esc)0m", "\(Self.esc)0m    \(Self.esc)0m"])
    }

    @Test func attributesInTheirFixedOrder() {
        var buffer = Buffer(size: Size(width: 1, height: 1))
        buffer.write("a", at: .zero, style: Style(attributes: [.reverse, .italic, .dim, .bold, .underline]))
        #expect(buffer.ansiLines() == ["\(Self.esc)0;1;2;3;4;7ma\(Self.esc)0m"])
    }
}
