import CanvasCore

/// A one-line text input as a value: the text, a cursor, and the usual editing keys.
public struct TextField: Hashable, Sendable {
    public private(set) var text: String
    /// The cursor, in characters from the start.
    public private(set) var cursor: Int
    public let limit: Int

    public init(_ text: String = "", limit: Int = 200) {
        self.text = String(text.prefix(limit))
        self.cursor = self.text.count
        self.limit = limit
    }

    /// Applies an editing key. Returns false for keys that are not editing keys.
    ///
    /// Left/Right, Home/End (and Ctrl-A/Ctrl-E), Backspace/Delete, Ctrl-U (delete to start),
    /// Ctrl-W (delete the word before the cursor), and printable characters.
    public mutating func edit(_ key: Key) -> Bool {
        var characters = Array(text)
        switch (key.code, key.modifiers) {
        case (.left, []): cursor = max(0, cursor - 1)
        case (.right, []): cursor = min(characters.count, cursor + 1)
        case (.home, []), (.char("a"), .ctrl): cursor = 0
        case (.end, []), (.char("e"), .ctrl): cursor = characters.count
        case (.backspace, []):
            guard cursor > 0 else { return true }
            characters.remove(at: cursor - 1)
            cursor -= 1
        case (.delete, []):
            guard cursor < characters.count else { return true }
            characters.remove(at: cursor)
        case (.char("u"), .ctrl):
            characters.removeFirst(cursor)
            cursor = 0
        case (.char("w"), .ctrl):
            var start = cursor
            while start > 0, characters[start - 1] == " " { start -= 1 }
            while start > 0, characters[start - 1] != " " { start -= 1 }
            characters.removeSubrange(start..<cursor)
            cursor = start
        default:
            guard let character = key.text, SafeText.placeholder(for: character) == nil else { return false }
            guard characters.count < limit else { return true }
            characters.insert(character, at: cursor)
            cursor += 1
        }
        text = String(characters)
        return true
    }
}
