import CanvasCore
import CanvasUI
import Testing

@Suite("Buffer.write: zero-width clusters and control characters")
struct BufferSafeTextTests {
    @Test func combiningMarksStayWithTheirBase() {
        var buffer = Buffer(size: Size(width: 4, height: 1))
        buffer.write("e\u{301}x", at: .zero, style: .plain)
        #expect(buffer.cells.map(\.symbol) == ["e\u{301}", "x", " ", " "])
        #expect(buffer.lines == ["e\u{301}x  "])
    }

    /// A zero-width space breaks clusters on both sides, so the accent after it stands alone.
    @Test func aZeroWidthClusterTakesNoCellAndOnlyItsMarksJoinThePreviousOne() {
        var buffer = Buffer(size: Size(width: 4, height: 1))
        let end = buffer.write("a\u{200B}\u{301}b", at: .zero, style: .plain)
        #expect(buffer.cells.map(\.symbol) == ["a\u{301}", "b", " ", " "])
        #expect(end == 2)
    }

    @Test func aZeroWidthClusterAtTheStartOfAWriteDoesNotTouchOtherText() {
        var buffer = Buffer(lines: ["ab"])
        buffer.write("\u{200B}c", at: Point(x: 1, y: 0), style: .plain)
        #expect(buffer.cells.map(\.symbol) == ["a", "c"])
    }

    @Test func controlCharactersAreDrawnAsVisiblePlaceholders() {
        var buffer = Buffer(size: Size(width: 16, height: 1))
        buffer.write("a\u{1B}[31mb\u{07}c\u{7F}d\u{9B}e\u{0}", at: .zero, style: .plain)
        #expect(buffer.lines == ["a␛[31mb␇c␡d�e␀  "])
        expectWellFormed(buffer)
    }

    @Test func lineBreaksAndTabsAreDrawnAsPlaceholders() {
        var buffer = Buffer(size: Size(width: 8, height: 1))
        buffer.write("a\tb\nc\r\nd", at: .zero, style: .plain)
        #expect(buffer.lines == ["a␉b␊c␍d "])
        expectWellFormed(buffer)
    }

    @Test func hostileTextLeavesNoRawControlScalarInAnyCell() {
        let hostile = "\u{1B}]0;pwned\u{07}\u{1B}[2J\u{9B}31m\u{85}\u{90}x\u{1B}P+q\u{9C}e\u{301}\u{1B}\u{7F}"
        var buffer = Buffer(size: Size(width: 40, height: 1))
        buffer.write(hostile, at: .zero, style: .plain)
        expectWellFormed(buffer)
        #expect(buffer.lines[0].hasPrefix("␛]0;pwned␇␛[2J�31m��x␛P+q�"))
    }
}
