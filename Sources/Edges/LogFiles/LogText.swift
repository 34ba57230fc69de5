import PlainText

/// What may go into a log line: text with every character that could break the line, drive a
/// terminal or reorder what a reader sees replaced by a visible escape.
public enum LogText {
    /// `text` with control characters (C0, DEL, C1), line and paragraph separators, and
    /// bidirectional marks, overrides and isolates (`ControlScalars`) written as escapes: `\n`, `\r`, `\t`, else `\u{1B}`
    /// (hex, as Swift writes them); a backslash is doubled, so an escape in the log always means
    /// the character was there. Printable text comes back unchanged, without copying.
    public static func escaped(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 < 0x20 || $0 >= 0x7F || $0 == 0x5C }) else { return text }
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            guard needsEscape(scalar) else {
                result.append(scalar)
                continue
            }
            let escape = switch scalar {
            case "\n": "\\n"
            case "\r": "\\r"
            case "\t": "\\t"
            case "\\": "\\\\"
            default: "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            }
            result.append(contentsOf: escape.unicodeScalars)
        }
        return String(result)
    }

    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "\\" || ControlScalars.contains(scalar)
    }
}
