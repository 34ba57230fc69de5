import CanvasUI
import Testing

@Suite("DisplayWidth: columns per grapheme cluster")
struct DisplayWidthTests {
    @Test(arguments: [
        ("a", 1), ("~", 1),
        ("日", 2), ("本", 2),
        ("🙂", 2),
        ("🇫🇷", 2),
        ("👨‍👩‍👧", 2),
        ("e\u{301}", 1),
        ("\u{2764}", 1), ("\u{2764}\u{FE0F}", 1), ("\u{1F44D}\u{1F3FD}", 2), ("\u{1F1E9}", 1),
        ("\u{1112}\u{1161}\u{11AB}", 2), ("\u{1161}", 0), ("a\u{20DD}\u{301}", 1),
        ("\u{200D}", 0), ("\u{200B}", 0), ("\u{2060}", 0), ("\u{301}", 0),
        ("Ａ", 2),
        ("한", 2),
        ("\u{1B}", 0), ("\u{7F}", 0),
    ] as [(Character, Int)])
    func widthOfOneCluster(character: Character, width: Int) {
        #expect(DisplayWidth.of(character) == width, "\(character.unicodeScalars.map { String($0.value, radix: 16) })")
    }

    @Test func stringsAddUpTheirClusters() {
        #expect(DisplayWidth.of("日本") == 4)
        #expect(DisplayWidth.of("ab日本🙂") == 8)
        #expect(DisplayWidth.of("cafe\u{301}") == 4)
        #expect(DisplayWidth.of("👨‍👩‍👧🇫🇷") == 4)
        #expect(DisplayWidth.of("") == 0)
    }
}
