import CanvasStyle
import CanvasUI
@testable import NcursesTerminal
import Testing

/// Styles fitted to what the terminal can show, without starting curses.
struct CursesPaletteTests {
    private func fit(_ foreground: Color, _ background: Color = .default, _ attributes: TextAttributes = [], colors: Int)
        -> CursesPalette.Fitted {
        CursesPalette.fit(Style(foreground: foreground, background: background, attributes: attributes), colors: colors)
    }

    private func numbers(_ foreground: Int32, _ background: Int32) -> CursesPalette.ColorNumbers {
        CursesPalette.ColorNumbers(foreground: foreground, background: background)
    }

    @Test func twoHundredFiftySixColoursPassPaletteNumbers() {
        #expect(fit(.palette(208), .palette(17), colors: 256) == .init(attributes: [], colors: numbers(208, 17)))
        #expect(fit(.ansi(9), .ansi(4), colors: 256) == .init(attributes: [], colors: numbers(9, 4)))
        #expect(fit(.default, .default, colors: 256).colors == numbers(-1, -1))
        #expect(fit(.palette(244), colors: 32_767).colors == numbers(244, -1))
    }

    @Test func sixteenColoursDownsample() {
        #expect(fit(.palette(196), colors: 16).colors == numbers(9, -1))   // pure red: bright red
        #expect(fit(.palette(21), colors: 16).colors == numbers(4, -1))    // pure blue: xterm's blue is nearest
        #expect(fit(.palette(232), colors: 16).colors == numbers(0, -1))   // darkest grey: black
        #expect(fit(.palette(5), colors: 16).colors == numbers(5, -1))     // the first 16 are the ANSI colours
        #expect(fit(.ansi(14), .palette(231), colors: 16).colors == numbers(14, 15))
        #expect(fit(.ansi(14), colors: 16).attributes == [])
    }

    @Test func eightColoursShowBrightForegroundsAsBold() {
        #expect(fit(.ansi(9), colors: 8) == .init(attributes: .bold, colors: numbers(1, -1)))
        #expect(fit(.ansi(3), colors: 8) == .init(attributes: [], colors: numbers(3, -1)))
        #expect(fit(.palette(196), .default, .underline, colors: 8) == .init(attributes: [.bold, .underline], colors: numbers(1, -1)))
        // A bright background can only become its base colour: bold would change the text instead.
        #expect(fit(.ansi(2), .ansi(12), colors: 8) == .init(attributes: [], colors: numbers(2, 4)))
    }

    @Test func noColoursMeansPairZeroAndTheStyleAttributes() {
        let fitted = fit(.ansi(9), .palette(17), [.reverse, .italic], colors: 0)
        #expect(fitted == .init(attributes: [.reverse, .italic], colors: nil))
        var palette = CursesPalette(colors: 0)
        #expect(palette.curses(Style(foreground: .ansi(1), background: .ansi(2))).1 == 0)
    }

    @Test func colourNumbers() {
        #expect(CursesPalette.number(.default, colors: 8) == (-1, false))
        #expect(CursesPalette.number(.ansi(15), colors: 8) == (7, true))
        #expect(CursesPalette.number(.ansi(15), colors: 16) == (15, false))
        #expect(CursesPalette.number(.palette(100), colors: 256) == (100, false))
    }
}
