internal import CNcursesw

/// Collects a bracketed paste: between its start and end markers every character read is pasted
/// text, never a key. Line breaks (CR, LF or CR LF) are kept as `\n` and tabs as `\t`; past
/// `limit` characters the rest of the paste is dropped.
///
/// What a terminal never puts in a paste ends it early, the text so far pasted and the read
/// handled as a key: a key code (an arrow), an Esc or another control character (Ctrl-Q), or
/// a second's silence. So a start marker that comes alone — typed, or in hostile input — cannot
/// swallow the keys after it.
struct PasteReader {
    enum Read: Equatable {
        case code(Int32)
        case character(UInt32)
    }

    enum Outcome: Equatable {
        /// Not part of a paste: handle it as a key.
        case key
        /// Taken into the paste (or its start marker).
        case taken
        /// The paste ended, by its end marker, with this text.
        case pasted(String)
        /// The paste so far (never empty), ended by this read, which is to be handled as a key.
        case cutShort(String)
    }

    static let limit = 64 * 1024
    static let silence = Duration.seconds(1)

    private var isOpen = false
    private var text = String.UnicodeScalarView()
    private var count = 0
    private var lastRead = ContinuousClock.now
    /// The last character was a CR: an LF right after it is the same line break.
    private var afterReturn = false

    mutating func take(_ read: Read, at now: ContinuousClock.Instant = .now) -> Outcome {
        defer { lastRead = now }
        guard isOpen else {
            guard read == .code(TC_KEY_PASTE_START) else { return .key }
            isOpen = true
            return .taken
        }
        if now - lastRead > Self.silence { return cutShort() }
        switch read {
        case .code(TC_KEY_PASTE_END):
            return .pasted(finish())
        case .code(TC_KEY_PASTE_START):
            return .taken
        case .code:
            return cutShort()
        case .character(let value):
            defer { afterReturn = value == 13 }
            switch value {
            case 13: append("\n")
            case 10: if !afterReturn { append("\n") }
            case 9: append("\t")
            case 0..<32, 127..<160: return cutShort()
            default: if let scalar = Unicode.Scalar(value) { append(scalar) }
            }
            return .taken
        }
    }

    private mutating func append(_ scalar: Unicode.Scalar) {
        guard count < Self.limit else { return }
        text.append(scalar)
        count += 1
    }

    /// Ends the paste early: what it held, if anything, and the read is a key either way.
    private mutating func cutShort() -> Outcome {
        let text = finish()
        return text.isEmpty ? .key : .cutShort(text)
    }

    private mutating func finish() -> String {
        defer {
            isOpen = false
            text = String.UnicodeScalarView()
            count = 0
            afterReturn = false
        }
        return String(text)
    }
}
