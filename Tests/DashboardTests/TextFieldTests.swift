import CanvasCore
import CanvasUI
import Testing

/// The one-line input of the save prompt, the picker's filter and rename: editing keys as in a shell.
@Suite("TextField editing")
struct TextFieldTests {
    /// A field with `text`, after pressing `keys`.
    func field(_ text: String = "", limit: Int = 64, _ keys: Key..., sourceLocation: SourceLocation = #_sourceLocation) -> TextField {
        var field = TextField(text, limit: limit)
        for key in keys { press(&field, key, sourceLocation: sourceLocation) }
        return field
    }

    /// Presses keys that must all be taken as editing keys.
    func press(_ field: inout TextField, _ keys: Key..., sourceLocation: SourceLocation = #_sourceLocation) {
        for key in keys {
            let consumed = field.edit(key)
            #expect(consumed, "\(key) is an editing key", sourceLocation: sourceLocation)
        }
    }

    /// Presses a key and says whether the field took it.
    func takes(_ field: inout TextField, _ key: Key) -> Bool {
        field.edit(key)
    }

    func typed(_ text: String, into field: inout TextField) {
        for character in text { _ = field.edit(.char(character)) }
    }

    @Test func startsWithTheCursorAtTheEnd() {
        let field = TextField("planner")
        #expect(field.text == "planner")
        #expect(field.cursor == 7)
    }

    @Test func typingInsertsAtTheCursor() {
        var field = TextField()
        typed("ac", into: &field)
        #expect(field.text == "ac" && field.cursor == 2)
        press(&field, .left)
        press(&field, .char("b"))
        #expect(field.text == "abc")
        #expect(field.cursor == 2)
        // Unicode and spaces are text too.
        press(&field, .char(" "))
        press(&field, .char("é"))
        #expect(field.text == "ab éc")
    }

    @Test func leftAndRightStopAtTheEdges() {
        var field = TextField("ab")
        press(&field, .right)
        #expect(field.cursor == 2)
        press(&field, .left, .left, .left)
        #expect(field.cursor == 0)
        press(&field, .right)
        #expect(field.cursor == 1)
        #expect(field.text == "ab")
    }

    @Test func homeAndEndAndTheirControlKeys() {
        var field = TextField("middle")
        press(&field, .home)
        #expect(field.cursor == 0)
        press(&field, .char("<"))
        press(&field, .end)
        #expect(field.cursor == 7)
        press(&field, .char(">"))
        #expect(field.text == "<middle>")
        press(&field, .ctrl("a"))
        #expect(field.cursor == 0)
        press(&field, .ctrl("e"))
        #expect(field.cursor == 8)
        #expect(field.text == "<middle>")
    }

    @Test func backspaceAndDeleteAtTheEdgesChangeNothing() {
        var field = TextField("ab")
        press(&field, .delete)  // at the end: nothing after the cursor
        #expect(field.text == "ab" && field.cursor == 2)
        press(&field, .home)
        press(&field, .backspace)  // at the start: nothing before the cursor
        #expect(field.text == "ab" && field.cursor == 0)
        var empty = TextField()
        press(&empty, .backspace, .delete)
        #expect(empty.text == "" && empty.cursor == 0)
    }

    @Test func backspaceAndDeleteInTheMiddle() {
        var field = TextField("abcd")
        press(&field, .left, .left)  // a b | c d
        press(&field, .backspace)
        #expect(field.text == "acd" && field.cursor == 1)
        press(&field, .delete)
        #expect(field.text == "ad" && field.cursor == 1)
    }

    @Test func ctrlUDeletesToTheStartKeepingWhatFollows() {
        let end = field("hello world", .ctrl("u"))
        #expect(end.text == "" && end.cursor == 0)
        let middle = field("hello world", .ctrl("a"), .right, .right, .right, .right, .right, .right, .ctrl("u"))
        #expect(middle.text == "world" && middle.cursor == 0)
        let start = field("hello", .home, .ctrl("u"))
        #expect(start.text == "hello" && start.cursor == 0)
    }

    @Test func ctrlWDeletesTheWordBeforeTheCursor() {
        let last = field("save as work", .ctrl("w"))
        #expect(last.text == "save as " && last.cursor == 8)
        // Spaces before the cursor go with the word before them.
        let trailing = field("save as   ", .ctrl("w"))
        #expect(trailing.text == "save " && trailing.cursor == 5)
        // In the middle: only the word before the cursor, what follows stays.
        let middle = field("one two three", .left, .left, .left, .left, .left, .left, .ctrl("w"))
        #expect(middle.text == "one  three" && middle.cursor == 4)
        let afterSpace = field("one two three", .left, .left, .left, .left, .left, .ctrl("w"))
        #expect(afterSpace.text == "one three" && afterSpace.cursor == 4)
        // Leading spaces: the word goes, the spaces before it stay, and a second Ctrl-W takes them.
        var leading = field("   word", .ctrl("w"))
        #expect(leading.text == "   " && leading.cursor == 3)
        press(&leading, .ctrl("w"))
        #expect(leading.text == "" && leading.cursor == 0)
        // At the start there is nothing before the cursor.
        let start = field("word", .home, .ctrl("w"))
        #expect(start.text == "word" && start.cursor == 0)
    }

    @Test func theLimitCapsTypingAndTheInitialText() {
        var field = TextField(limit: 3)
        typed("abcdef", into: &field)
        #expect(field.text == "abc")
        #expect(field.cursor == 3)
        // Typing in the middle of a full field changes nothing either.
        press(&field, .home, .char("z"))
        #expect(field.text == "abc" && field.cursor == 0)
        let long = TextField("abcdef", limit: 4)
        #expect(long.text == "abcd" && long.cursor == 4)
    }

    @Test(arguments: ["\u{1B}", "\u{07}", "\t", "\n", "\u{7F}", "\u{9B}", "\u{202E}", "\u{2028}"] as [Character])
    func controlCharactersAreRefused(_ character: Character) {
        var field = TextField("ab")
        #expect(!takes(&field, .char(character)))
        #expect(field.text == "ab" && field.cursor == 2)
    }

    @Test func keysThatAreNotEditingKeysAreNotConsumed() {
        var field = TextField("ab")
        for key: Key in [.up, .down, .enter, .escape, .tab, .ctrl("x"), .alt(.char("b")), Key(.function(2))] {
            #expect(!takes(&field, key), "\(key)")
        }
        #expect(field.text == "ab" && field.cursor == 2)
    }

    /// Issue 40: a name offered to keep or replace opens selected, as dialogs do.
    @Test func aSelectedTextIsReplacedByTypingAndKeptByACursorKey() {
        var replaced = TextField("default", limit: 64, selected: true)
        #expect(replaced.isAllSelected)
        typed("mine", into: &replaced)
        #expect(replaced.text == "mine" && !replaced.isAllSelected && replaced.cursor == 4)

        var kept = TextField("default", limit: 64, selected: true)
        press(&kept, .right)
        typed("2", into: &kept)
        #expect(kept.text == "default2")

        var fromStart = TextField("default", limit: 64, selected: true)
        press(&fromStart, .home)
        typed("my-", into: &fromStart)
        #expect(fromStart.text == "my-default")

        var cleared = TextField("default", limit: 64, selected: true)
        press(&cleared, .backspace)
        #expect(cleared.text.isEmpty && !cleared.isAllSelected)

        // A key that is not an editing key leaves the selection as it was; empty text has none.
        var untouched = TextField("default", limit: 64, selected: true)
        #expect(!takes(&untouched, .up))
        #expect(untouched.isAllSelected && untouched.text == "default")
        #expect(!TextField("", selected: true).isAllSelected)
    }
}
