import Foundation
import MicroAppAPI

/// The rules for chat channel names and message text; each failure names its field.
enum ChatValidation {
    /// A channel name. The match must cover the whole name: ICU's `$` also matches before a final
    /// newline, so `"ops\n"` alone would pass the pattern.
    static func channelName(_ name: String) throws {
        guard name.range(of: ChatLimits.channelNamePattern, options: .regularExpression) == name.startIndex..<name.endIndex else {
            throw APIFailure.badRequest(
                "must be 1 to 32 lower-case letters, digits, '_' or '-', starting with a letter or digit", field: "name"
            )
        }
    }

    /// Text is stored as sent, byte for byte (clients render control characters safely); only NUL,
    /// which no terminal text contains and many C APIs cut at, is refused. Its length is counted
    /// without leading and trailing whitespace.
    static func text(_ text: String) throws {
        guard !text.unicodeScalars.contains("\u{0}") else {
            throw APIFailure.badRequest("must not contain NUL characters", field: "text")
        }
        let length = text.trimmingCharacters(in: .whitespacesAndNewlines).count
        guard length > 0 else { throw APIFailure.badRequest("must not be empty", field: "text") }
        guard length <= ChatLimits.textMaxLength else {
            throw APIFailure.badRequest(
                "must be at most \(ChatLimits.textMaxLength) characters, leading and trailing whitespace aside", field: "text"
            )
        }
    }
}
