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

@Suite("Color(hex:): a calendar's #RRGGBB as the nearest of the 256-colour palette")
struct ColorFromHexTests {
    @Test(arguments: [
        ("#3366cc", Color?.some(.palette(62))),  // (51,102,204) → cube (95,95,215)
        ("#000000", .palette(16)), ("#FFFFFF", .palette(231)), ("#ff0000", .palette(196)),
        ("#808080", .palette(244)),  // a grey: the ramp, not the cube
        ("#12345", nil), ("3366cc", nil), ("#+12345", nil), ("#gggggg", nil), ("blue", nil), ("", nil),
    ])
    func nearest(hex: String, expected: Color?) {
        #expect(Color(hex: hex) == expected)
    }
}
