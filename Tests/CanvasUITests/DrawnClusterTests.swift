import CanvasCore
import CanvasUI
import Testing

/// Clusters are drawn in a form every terminal measures alike; a ZWJ or VS16 left in a cell made
/// tmux and curses disagree on a row's columns, and the rest of the row slid on the real screen.
@Suite("DrawnCluster: what reaches the terminal for one cluster")
struct DrawnClusterTests {
    @Test(arguments: [
        ("e\u{301}", "e\u{301}"),
        ("a\u{20DD}\u{301}", "a\u{20DD}\u{301}"),
        ("\u{1112}\u{1161}\u{11AB}", "\u{1112}\u{1161}\u{11AB}"),
        ("\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}", "\u{1F468}"),
        ("\u{1F44D}\u{1F3FD}", "\u{1F44D}"),
        ("\u{2764}\u{FE0F}", "\u{2764}"),
        ("e\u{301}\u{302}\u{303}\u{304}\u{305}\u{306}", "e\u{301}\u{302}\u{303}\u{304}"),
    ] as [(Character, String)])
    func symbolKeepsTheFirstScalarAndItsMarks(character: Character, symbol: String) {
        #expect(DrawnCluster.glyph(of: character).string.unicodeScalars.elementsEqual(symbol.unicodeScalars))
        #expect(DisplayWidth.of(character) == DisplayWidth.of(Character(symbol)))
    }

    @Test func flagsAreDrawnAsTheirLetters() {
        #expect(DrawnCluster.letters(of: "\u{1F1E9}\u{1F1EA}") == "DE")
        #expect(DrawnCluster.letters(of: "\u{1F1EB}") == "F")
        #expect(DrawnCluster.letters(of: "a") == nil)
        var buffer = Buffer(size: Size(width: 6, height: 1))
        #expect(buffer.write("\u{1F1EB}\u{1F1F7}!", at: .zero, style: .plain) == 3)
        #expect(buffer.lines == ["FR!   "])
    }

    @Test func noCellEndsInAJoinerOrSelector() {
        var buffer = Buffer(size: Size(width: 12, height: 1))
        let end = buffer.write("\u{1F468}\u{200D}\u{1F469}x\u{200D}y\u{2764}\u{FE0F}z\u{1F44D}\u{1F3FD}", at: .zero, style: .plain)
        #expect(end == 8)
        #expect(buffer.cells.map(\.symbol) == ["\u{1F468}", "", "x", "y", "\u{2764}", "z", "\u{1F44D}", "", " ", " ", " ", " "])
    }

    @Test func loneMarksJoinTheCellBeforeUpToFiveScalars() {
        var buffer = Buffer(size: Size(width: 3, height: 1))
        buffer.write("e" + String(repeating: "\u{301}", count: 1) + "\u{FE0F}" + "\u{302}\u{303}\u{304}\u{305}\u{306}", at: .zero, style: .plain)
        #expect(buffer[0, 0].symbol.unicodeScalars.count == 5)
        #expect(!buffer[0, 0].symbol.unicodeScalars.contains("\u{FE0F}"))
    }
}
