import CanvasCore
import CanvasStyle
import CanvasUI
import Testing

@Suite("Color.ansi16: the nearest of the 16 colours in RGB")
struct ColorDownsamplingTests {
    @Test(arguments: [
        (Color.palette(196), Color.ansi(9)),  // pure red (255,0,0)
        (.palette(46), .ansi(10)),  // pure green
        (.palette(21), .ansi(4)),  // pure blue (0,0,255) is nearer xterm's blue (0,0,238) than its bright blue
        (.palette(231), .ansi(15)),  // white
        (.palette(16), .ansi(0)),  // black
        (.palette(244), .ansi(8)),  // grey 128 → bright black (127)
        (.palette(255), .ansi(7)),  // grey 238 → white (229)
        (.palette(232), .ansi(0)),  // grey 8 → black
        (.palette(75), .ansi(12)),  // the theme's accent (95,175,255)
        (.palette(9), .ansi(9)),  // the first 16 palette entries are the ANSI colours
        (.ansi(3), .ansi(3)),
        (.default, .default),
    ])
    func nearestColour(color: Color, expected: Color) {
        #expect(color.ansi16 == expected)
    }
}
