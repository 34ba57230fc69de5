/// A value to write as YAML text, in block style.
public indirect enum YAMLText: Sendable {
    /// Written as it is: for numbers and other text the caller knows needs no quotes.
    case plain(String)
    /// Written plain when that reads back as the same text in any YAML reader, else double-quoted.
    case text(String)
    /// Always double-quoted.
    case quoted(String)
    case mapping([(String, YAMLText)])
    case sequence([YAMLText])

    /// The value as a document: every line ends with a line feed. Mappings are written with their
    /// nested values indented by two, lists at their key's indent (`- ` items), empty ones as
    /// `{}` and `[]`; keys as `.text`.
    public var document: String {
        var lines = ""
        write(into: &lines, indent: "")
        return lines
    }

    private func write(into output: inout String, indent: String) {
        switch self {
        case .mapping(let pairs) where !pairs.isEmpty:
            for (key, value) in pairs {
                output += indent + Self.scalar(key, plainIfSafe: true) + ":"
                value.writeValue(into: &output, indent: indent, inMapping: true)
            }
        case .sequence(let items) where !items.isEmpty:
            for item in items {
                output += indent + "-"
                item.writeValue(into: &output, indent: indent, inMapping: false)
            }
        default:
            output += indent + inline + "\n"
        }
    }

    /// After `key:` or `-`: a scalar or an empty collection on the same line, else the lines of
    /// the collection. A mapping in a list starts on the dash's line.
    private func writeValue(into output: inout String, indent: String, inMapping: Bool) {
        switch self {
        case .mapping(let pairs) where !pairs.isEmpty:
            if inMapping {
                output += "\n"
                write(into: &output, indent: indent + "  ")
            } else {
                var nested = ""
                write(into: &nested, indent: indent + "  ")
                output += " " + nested.dropFirst(indent.count + 2)
            }
        case .sequence(let items) where !items.isEmpty:
            output += "\n"
            write(into: &output, indent: inMapping ? indent : indent + "  ")
        default:
            output += " " + inline + "\n"
        }
    }

    /// A scalar or an empty collection, on one line.
    private var inline: String {
        switch self {
        case .plain(let text): text
        case .text(let text): Self.scalar(text, plainIfSafe: true)
        case .quoted(let text): Self.scalar(text, plainIfSafe: false)
        case .mapping: "{}"
        case .sequence: "[]"
        }
    }

    /// Words YAML 1.1 readers take for booleans or null when plain.
    private static let reserved: Set<String> = ["yes", "no", "true", "false", "on", "off", "null", "~"]

    private static func scalar(_ text: String, plainIfSafe: Bool) -> String {
        if plainIfSafe, let first = text.unicodeScalars.first, first.isASCIILetter || first == "_",
           text.unicodeScalars.allSatisfy({ $0.isASCIILetter || ("0"..."9").contains($0) || "_.-".unicodeScalars.contains($0) }),
           !reserved.contains(text.lowercased()) {
            return text
        }
        var quoted = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": quoted += "\\\""
            case "\\": quoted += "\\\\"
            case "\n": quoted += "\\n"
            case "\t": quoted += "\\t"
            default:
                // What libyaml reads unescaped: printable text (YAML 1.1's c-printable, less the BOM).
                let value = scalar.value
                let printable = (0x20...0x7E).contains(value) || (0xA0...0xD7FF).contains(value)
                    || ((0xE000...0xFFFD).contains(value) && value != 0xFEFF) || value >= 0x10000
                let hex = String(value, radix: 16, uppercase: true)  // at most FFFF: the others are printable
                quoted += printable ? String(scalar) : "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
            }
        }
        return quoted + "\""
    }
}

private extension Unicode.Scalar {
    var isASCIILetter: Bool { ("a"..."z").contains(self) || ("A"..."Z").contains(self) }
}
