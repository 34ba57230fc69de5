/// The one way a text's length is bounded: at most a number of characters as a user sees them
/// (grapheme clusters), and at most `bytesPerCharacter` bytes of UTF-8 for each.
///
/// A limit counted in characters alone is no limit: one character can carry tens of kilobytes of
/// combining marks. Four bytes is the most one Unicode scalar takes, so a text of that many
/// scalars always fits, as an OpenAPI `maxLength` (counted in scalars) promises. Bytes are counted
/// first: counting the characters of a huge text is itself work.
public enum TextLength {
    public static let bytesPerCharacter = 4

    /// The most bytes of UTF-8 a text of at most `characters` characters may take.
    public static func maximumBytes(characters: Int) -> Int {
        let (bytes, overflow) = characters.multipliedReportingOverflow(by: bytesPerCharacter)
        return overflow ? .max : bytes
    }

    /// Whether `text` is within `characters` characters and their bytes.
    public static func admits(_ text: String, characters: ClosedRange<Int>) -> Bool {
        text.utf8.count <= maximumBytes(characters: characters.upperBound) && characters.contains(text.count)
    }
}
