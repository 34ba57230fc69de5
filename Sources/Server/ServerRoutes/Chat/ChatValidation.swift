import Foundation
import ServerAPI
import ServerHTTP

/// The rules for chat channel names and message text; each failure names its field.
enum ChatValidation {
    /// A channel name. The match must cover the whole name: ICU's `$` also matches before a final
    /// newline, so `"ops\n"` alone would pass the pattern.
    static func channelName(_ name: String) throws {
        guard ChatLimits.isChannelName(name) else {
            throw APIFailure.badRequest(
                "must be 1 to 32 lower-case letters, digits, '_' or '-', starting with a letter or digit", field: "name"
            )
        }
    }

    /// Text is stored as sent, byte for byte (clients render control characters safely), but for
    /// NUL; its length is counted without leading and trailing whitespace.
    static func text(_ text: String) throws {
        try TextValidation.check(text, field: "text", lines: .multiple, length: 1...ChatLimits.textMaxLength, trimmed: true)
    }
}
