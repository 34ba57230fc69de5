import CanvasCore

/// A one-line text input as a value: the text, a cursor, and the usual editing keys.
///
/// Keys arrive one Unicode scalar at a time, and a scalar may join the character before it (a
/// combining accent, a skin tone, the second half of a flag, a ZWJ sequence, Hangul jamo). So
/// the field never counts on an insert adding one character: the cursor is kept as a position in
/// the text's scalars, always on a character (grapheme cluster) boundary of the text as Swift
/// now sees it, and every edit snaps it back onto one. No edit indexes the text by an unchecked
/// offset: a Swift trap would end the whole canvas.
///
/// A field offered with text to keep or replace (a name to save under, to rename) opens with it
/// all selected, as dialogs do: typing replaces it, Backspace clears it, a cursor key keeps it.
public struct TextField: Hashable, Sendable {
    public private(set) var text: String
    /// The cursor, in Unicode scalars from the start; always on a character boundary of `text`.
    private var scalarCursor: Int
    /// The most characters the field holds.
    public let limit: Int
    /// Whether the whole text is selected: the next edit replaces it.
    public private(set) var isAllSelected: Bool

    public init(_ text: String = "", limit: Int = 200, selected: Bool = false) {
        self.text = String(text.prefix(limit))
        self.scalarCursor = self.text.unicodeScalars.count
        self.limit = limit
        self.isAllSelected = selected && !self.text.isEmpty
    }

    /// The cursor, in characters (grapheme clusters) from the start.
    public var cursor: Int { text[..<cursorIndex].count }
    /// The text before the cursor.
    public var beforeCursor: Substring { text[..<cursorIndex] }
    /// The text from the cursor on: the character under it and those after it.
    public var fromCursor: Substring { text[cursorIndex...] }

    /// Applies an editing key. Returns false for keys that are not editing keys.
    ///
    /// Left/Right, Home/End (and Ctrl-A/Ctrl-E), Backspace/Delete, Ctrl-U (delete to start),
    /// Ctrl-W (delete the word before the cursor), and printable characters.
    public mutating func edit(_ key: Key) -> Bool {
        if isAllSelected { return editSelection(key) }
        let index = cursorIndex
        switch (key.code, key.modifiers) {
        case (.left, []):
            if index > text.startIndex { moveCursor(to: text.index(before: index)) }
        case (.right, []):
            if index < text.endIndex { moveCursor(to: text.index(after: index)) }
        case (.home, []), (.char("a"), .ctrl): scalarCursor = 0
        case (.end, []), (.char("e"), .ctrl): scalarCursor = text.unicodeScalars.count
        case (.backspace, []):
            guard index > text.startIndex else { return true }
            replace(text.index(before: index)..<index, with: "")
        case (.delete, []):
            guard index < text.endIndex else { return true }
            replace(index..<text.index(after: index), with: "", cursorAtStart: true)
        case (.char("u"), .ctrl):
            replace(text.startIndex..<index, with: "")
        case (.char("w"), .ctrl):
            var start = index
            while start > text.startIndex, text[text.index(before: start)] == " " { start = text.index(before: start) }
            while start > text.startIndex, text[text.index(before: start)] != " " { start = text.index(before: start) }
            replace(start..<index, with: "")
        default:
            guard let character = key.text, SafeText.placeholder(for: character) == nil else { return false }
            insert(character)
        }
        return true
    }

    /// An edit of the selected text: a cursor key ends the selection (Left and Home at the start,
    /// Right and End at the end), a deleting key clears the text, a character replaces it.
    private mutating func editSelection(_ key: Key) -> Bool {
        switch (key.code, key.modifiers) {
        case (.left, []), (.home, []), (.char("a"), .ctrl): scalarCursor = 0
        case (.right, []), (.end, []), (.char("e"), .ctrl): break
        case (.backspace, []), (.delete, []), (.char("u"), .ctrl), (.char("w"), .ctrl):
            text = ""
            scalarCursor = 0
        default:
            guard let character = key.text, SafeText.placeholder(for: character) == nil else { return false }
            text = ""
            scalarCursor = 0
            isAllSelected = false
            insert(character)
        }
        isAllSelected = false
        return true
    }

    /// Inserts at the cursor and moves the cursor past what was inserted. The inserted scalars
    /// may join the character before the cursor (or after it), so the result is measured, not
    /// assumed; an insert that would take the text past `limit` characters is dropped.
    private mutating func insert(_ character: Character) {
        let index = cursorIndex
        var edited = String(text[..<index])
        edited.unicodeScalars.append(contentsOf: character.unicodeScalars)
        let end = edited.unicodeScalars.count
        edited += text[index...]
        guard edited.count <= limit else { return }
        text = edited
        scalarCursor = end
        snapCursor()
    }

    /// Replaces a range of whole characters; the cursor goes to where the range ended (or began).
    private mutating func replace(_ range: Range<String.Index>, with replacement: String, cursorAtStart: Bool = false) {
        let start = text.unicodeScalars.distance(from: text.startIndex, to: range.lowerBound)
        text.replaceSubrange(range, with: replacement)
        scalarCursor = start + (cursorAtStart ? 0 : replacement.unicodeScalars.count)
        snapCursor()
    }

    private mutating func moveCursor(to index: String.Index) {
        scalarCursor = text.unicodeScalars.distance(from: text.startIndex, to: index)
    }

    /// Moves the cursor to the first character boundary at or after it: joining text can merge
    /// the characters on both sides of a position that was a boundary before the edit.
    private mutating func snapCursor() {
        var boundary = text.startIndex
        var offset = 0
        while boundary < text.endIndex, offset < scalarCursor {
            let next = text.index(after: boundary)
            offset += text.unicodeScalars.distance(from: boundary, to: next)
            boundary = next
        }
        scalarCursor = offset
    }

    /// The cursor as an index of `text`, always a character boundary.
    private var cursorIndex: String.Index {
        let scalars = text.unicodeScalars
        let offset = min(max(0, scalarCursor), scalars.count)
        return scalars.index(scalars.startIndex, offsetBy: offset)
    }
}
