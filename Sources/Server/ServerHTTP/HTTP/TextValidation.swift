import Foundation
import ServerAPI

/// The one rule every text field of every route follows; each failure names its field.
///
/// - NUL is refused everywhere: C APIs cut text at it (SQLite's text reads did, so a title sent
///   as `"\u0000secret"` came back empty), and no terminal text contains it.
/// - Single-line fields (titles, names) refuse every control character (C0, DEL, C1): they are
///   shown as one line each. Multi-line fields (notes, chat messages) keep the rest as sent;
///   clients draw control characters as placeholders.
/// - Lengths count characters (grapheme clusters), as users see them, and bytes: at most
///   `TextLength.bytesPerCharacter` for each allowed character (`TextLength`). A required field
///   must not be blank.
package enum TextValidation {
    package enum Lines {
        case single, multiple
    }

    /// - Parameters:
    ///   - length: The allowed number of characters; a lower bound above 0 also refuses blank text.
    ///   - trimmed: Count the length without leading and trailing whitespace (chat messages).
    package static func check(_ text: String, field: String, lines: Lines, length: ClosedRange<Int>, trimmed: Bool = false) throws {
        // Bytes first: what follows walks the text, and one character may be 60 KB of accents.
        let maximumBytes = TextLength.maximumBytes(characters: length.upperBound)
        guard text.utf8.count <= maximumBytes else {
            throw APIFailure.badRequest("must be at most \(length.upperBound) characters and \(maximumBytes) bytes", field: field)
        }
        switch lines {
        case .multiple:
            guard !text.unicodeScalars.contains("\u{0}") else {
                throw APIFailure.badRequest("must not contain NUL characters", field: field)
            }
        case .single:
            guard !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
                throw APIFailure.badRequest("must not contain control characters", field: field)
            }
        }
        if length.lowerBound > 0, text.allSatisfy(\.isWhitespace) {
            throw APIFailure.badRequest("must not be empty", field: field)
        }
        let count = trimmed ? text.trimmingCharacters(in: .whitespacesAndNewlines).count : text.count
        guard length.contains(count) else {
            let whitespace = trimmed ? ", leading and trailing whitespace aside" : ""
            throw APIFailure.badRequest(
                length.lowerBound > 0 ? "must be \(length.lowerBound) to \(length.upperBound) characters\(whitespace)"
                                      : "must be at most \(length.upperBound) characters\(whitespace)",
                field: field
            )
        }
    }
}
