import CanvasCore
import TestSupport
import CanvasUI
import Testing

/// Keys arrive one Unicode scalar at a time, and many scalars join the character before them.
/// Typing such text used to move the cursor past the end of the field and trap on the next slice
/// (SIGILL: the whole canvas gone).
@Suite("TextField with text that joins")
struct TextFieldJoiningTests {
    /// Text whose scalars join into fewer characters than they are.
    static let joining: [String] = [
        "e\u{301}",                                   // e + combining acute
        "\u{1F44D}\u{1F3FD}",                         // thumbs up + skin tone
        "\u{1F1E9}\u{1F1EA}",                         // flag: regional indicators D E
        "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}", // family: ZWJ sequence
        "\u{1112}\u{1161}\u{11AB}",                   // Hangul jamo: 한
        "a\u{20DD}\u{301}\u{302}",                    // enclosing and stacked marks
        "\u{2764}\u{FE0F}",                           // text emoji with VS16
    ]

    /// Types every scalar of `text` as its own key, as the terminal delivers them.
    static func typeScalars(_ text: String, into field: inout TextField) {
        for scalar in text.unicodeScalars { _ = field.edit(.char(Character(scalar))) }
    }

    /// What must hold after any key: the cursor inside the text, the two parts giving the text back.
    static func checkInvariants(_ field: TextField, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(field.cursor >= 0 && field.cursor <= field.text.count, sourceLocation: sourceLocation)
        #expect(field.text.count <= field.limit, sourceLocation: sourceLocation)
        let joined = String(field.beforeCursor) + String(field.fromCursor)
        #expect(joined.unicodeScalars.elementsEqual(field.text.unicodeScalars), sourceLocation: sourceLocation)
    }

    @Test(arguments: joining)
    func typedScalarByScalarTheyMakeOneCharacter(_ text: String) {
        var field = TextField()
        Self.typeScalars(text, into: &field)
        #expect(field.text == text)
        #expect(field.text.count == 1)
        #expect(field.cursor == 1)
        Self.checkInvariants(field)
        // Every editing key after it works on the whole character.
        var copy = field
        _ = copy.edit(.left)
        #expect(copy.cursor == 0 && copy.fromCursor.first == Character(text))
        _ = copy.edit(Key(.delete))
        #expect(copy.text.isEmpty)
        _ = field.edit(Key(.backspace))
        #expect(field.text.isEmpty && field.cursor == 0)
    }

    @Test(arguments: joining)
    func joiningTextBetweenOtherTextKeepsTheCursorOnACharacter(_ text: String) {
        var field = TextField("ab")
        _ = field.edit(.left)
        Self.typeScalars(text, into: &field)
        Self.checkInvariants(field)
        #expect(field.text == "a" + text + "b")
        #expect(field.fromCursor.first == "b")
        _ = field.edit(.ctrl("w"))
        Self.checkInvariants(field)
        #expect(field.text == "b")
    }

    @Test("a combining mark typed at the start joins the character after it")
    func markBeforeText() {
        var field = TextField("\u{301}x")  // a lone mark, then x
        _ = field.edit(Key(.home))
        _ = field.edit(.char("e"))
        Self.checkInvariants(field)
        #expect(field.text == "e\u{301}x")
        #expect(field.cursor == 1 && field.fromCursor.first == "x")
    }

    @Test("a joining scalar does not count against the limit, a new character past it is dropped")
    func limitCountsCharacters() {
        var field = TextField(limit: 2)
        Self.typeScalars("e\u{301}\u{1F44D}\u{1F3FD}x", into: &field)
        #expect(field.text == "e\u{301}\u{1F44D}\u{1F3FD}")
        Self.checkInvariants(field)
    }

    @Test("thousands of random editing keys with joining text never break the field", arguments: [1, 2, 3, 4, 5] as [UInt64])
    func fuzz(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let scalars = Self.joining.flatMap { Array($0.unicodeScalars) } + Array("ab \u{300}".unicodeScalars)
        let editing: [Key] = [.left, .right, Key(.home), Key(.end), Key(.backspace), Key(.delete), .ctrl("a"), .ctrl("e"), .ctrl("u"), .ctrl("w")]
        var field = TextField(limit: Int.random(in: 3...40, using: &random))
        for _ in 0..<4000 {
            if Bool.random(using: &random) {
                _ = field.edit(.char(Character(scalars.randomElement(using: &random)!)))
            } else {
                _ = field.edit(editing.randomElement(using: &random)!)
            }
            Self.checkInvariants(field)
        }
    }
}
