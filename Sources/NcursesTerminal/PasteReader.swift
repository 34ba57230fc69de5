internal import CNcursesw

/// Collects a bracketed paste: between its start and end markers every character read is pasted
/// text, never a key. Line breaks are kept as `\n` and tabs as `\t`; other control characters
/// are dropped; past `limit` characters the rest of the paste is dropped too.
struct PasteReader {
    enum Read {
        case code(Int32)
        case character(UInt32)
    }

    static let limit = 64 * 1024

    private(set) var isOpen = false
    private var text = String.UnicodeScalarView()
    private var count = 0

    /// Takes what one `get_wch` read; the pasted text when this read ends a paste.
    mutating func take(_ read: Read) -> String? {
        switch read {
        case .code(TC_KEY_PASTE_START):
            isOpen = true
            text = String.UnicodeScalarView()
            count = 0
        case .code(TC_KEY_PASTE_END):
            guard isOpen else { return nil }
            isOpen = false
            defer { text = String.UnicodeScalarView() }
            return String(text)
        case .code:
            break  // a key code inside a paste (or outside: not ours)
        case .character(let value):
            guard isOpen, count < Self.limit, let scalar = Unicode.Scalar(value) else { return nil }
            switch value {
            case 10, 13: text.append("\n")
            case 9: text.append("\t")
            case 0..<32, 127..<160: return nil
            default: text.append(scalar)
            }
            count += 1
        }
        return nil
    }
}
