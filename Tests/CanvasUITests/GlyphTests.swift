import CanvasUI
import Testing

@Suite("Glyph: five scalars in a plain value")
struct GlyphTests {
    @Test(arguments: ["a", "é", "e\u{301}\u{302}\u{303}\u{304}", "\u{10FFFF}", "中", "\u{1F44D}", "\u{10FFFF}\u{10FFFE}\u{10FFFD}\u{10FFFC}\u{10FFFB}"])
    func scalarsComeBackAsTheyWent(text: String) {
        let glyph = Glyph(text)
        #expect(glyph.string.unicodeScalars.elementsEqual(text.unicodeScalars))
        #expect(glyph.count == text.unicodeScalars.count)
        #expect(glyph.base == text.unicodeScalars.first)
    }

    @Test func aSixthScalarDoesNotFit() {
        var glyph = Glyph("e\u{301}\u{302}\u{303}\u{304}")
        let appended = glyph.append("\u{305}")
        #expect(!appended)
        #expect(glyph.count == 5)
        #expect(Glyph("abcdefg").string == "abcde")
    }

    @Test func theEmptyGlyphIsTheRightHalfOfAWideCharacter() {
        #expect(Glyph.empty.isEmpty)
        #expect(Glyph("").isEmpty)
        #expect(Cell(.empty).isContinuation)
        #expect(!Cell(.space).isContinuation)
        #expect(Glyph.empty.base == nil && Glyph.empty.string.isEmpty)
    }

    @Test func equalTextIsAnEqualGlyph() {
        #expect(Glyph("x") == Glyph(Unicode.Scalar("x")))
        #expect(Glyph("xy") != Glyph("x"))
        #expect(Glyph("a\u{301}") != Glyph("a"))
    }
}
