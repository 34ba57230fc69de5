import CanvasCore
import CanvasStyle
import CanvasUI
import Testing

@Suite("Buffer boxes and centred text")
struct BoxTests {
    @Test func lightBox() {
        var buffer = Buffer(size: Size(width: 6, height: 4))
        buffer.drawBox(buffer.bounds, lines: .light, style: .plain)
        #expect(buffer.lines == ["┌────┐", "│    │", "│    │", "└────┘"])
    }

    @Test func heavyBoxInsideABuffer() {
        var buffer = Buffer(size: Size(width: 7, height: 4))
        buffer.drawBox(Rect(x: 1, y: 1, width: 4, height: 3), lines: .heavy, style: .plain)
        #expect(buffer.lines == ["       ", " ┏━━┓  ", " ┃  ┃  ", " ┗━━┛  "])
    }

    @Test func theSmallestBoxIsTwoByTwoAndSmallerDrawsNothing() {
        var buffer = Buffer(size: Size(width: 4, height: 3))
        buffer.drawBox(Rect(x: 0, y: 0, width: 2, height: 2), lines: .light, style: .plain)
        buffer.drawBox(Rect(x: 2, y: 0, width: 1, height: 3), lines: .light, style: .plain)
        buffer.drawBox(Rect(x: 2, y: 2, width: 2, height: 1), lines: .light, style: .plain)
        #expect(buffer.lines == ["┌┐  ", "└┘  ", "    "])
    }

    @Test func aBoxPartlyOutsideTheBufferIsClipped() {
        var buffer = Buffer(size: Size(width: 5, height: 3))
        buffer.drawBox(Rect(x: 2, y: 1, width: 6, height: 4), lines: .light, style: .plain)
        #expect(buffer.lines == ["     ", "  ┌──", "  │  "])
    }

    @Test func theBorderCarriesItsStyle() {
        var buffer = Buffer(size: Size(width: 3, height: 3))
        let style = Style(foreground: .palette(75), attributes: .bold)
        buffer.drawBox(buffer.bounds, lines: .heavy, style: style)
        #expect(buffer[0, 0].style == style)
        #expect(buffer[2, 1].style == style)
        #expect(buffer[1, 1].style == .plain)
    }

    @Test func centredTextIsClippedToItsRect() {
        var buffer = Buffer(lines: ["......", "......"])
        buffer.writeCentered("ab", row: 0, in: buffer.bounds, style: .plain)
        buffer.writeCentered("abcdefgh", row: 1, in: Rect(x: 1, y: 0, width: 4, height: 2), style: .plain)
        #expect(buffer.lines == ["..ab..", ".abcd."])
    }
}
