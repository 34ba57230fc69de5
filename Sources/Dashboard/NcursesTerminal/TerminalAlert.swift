/// How the terminal is told of an urgent event (a reminder), beside the message line.
public enum TerminalAlert: String, CaseIterable, Sendable {
    /// A notification where the terminal is known to show them, its bell anywhere else.
    case auto
    /// The bell (BEL): every terminal has one; tmux and screen mark the window.
    case bell
    /// A desktop notification by `OSC 9` (iTerm2, kitty, WezTerm, Ghostty).
    case osc9
    /// A desktop notification by `OSC 777;notify` (foot, WezTerm, Ghostty).
    case osc777
    /// A desktop notification through the session bus (the dashboard sends it, not the terminal).
    case desktop
    /// The message line alone.
    case off

    /// What `auto` stands for in `environment`: under tmux or screen the bell (they keep a
    /// notification from the terminal outside), a notification for a terminal known to show
    /// them, else the bell.
    public func resolved(environment: [String: String]) -> TerminalAlert {
        guard self == .auto else { return self }
        if environment["TMUX"] != nil || environment["STY"] != nil { return .bell }
        let term = environment["TERM"] ?? ""
        switch environment["TERM_PROGRAM"] ?? "" {
        case "iTerm.app", "WezTerm", "ghostty": return .osc9
        default: break
        }
        if term == "xterm-kitty" { return .osc9 }
        if term.hasPrefix("foot") { return .osc777 }
        return .bell
    }

    /// The most bytes of text a notification carries.
    static let textBytes = 200

    /// The bytes that alert with `text`. The text is made plain first: a control character
    /// could end the sequence early and write the rest onto the screen, and `;` would start
    /// another field of `OSC 777`.
    public func bytes(for text: String) -> [UInt8] {
        let bell: [UInt8] = [0x07]
        switch self {
        case .auto, .bell: return bell
        case .off, .desktop: return []
        case .osc9: return Array("\u{1B}]9;".utf8) + Self.plain(text) + bell
        case .osc777: return Array("\u{1B}]777;notify;TermCanvas;".utf8) + Self.plain(text) + bell
        }
    }

    /// `text` without control characters (C0, DEL, C1) or `;`, cut at a character within
    /// `textBytes`.
    static func plain(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        for scalar in text.unicodeScalars {
            let value = scalar.value
            let shown: Unicode.Scalar = value < 0x20 || (0x7F...0x9F).contains(value) || scalar == ";" ? " " : scalar
            let encoded = Array(String(shown).utf8)
            guard bytes.count + encoded.count <= textBytes else { break }
            bytes += encoded
        }
        return bytes
    }
}
