import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

/// Asks the user to confirm with one key: Enter says yes (unless `enterSays` is false), as `y`
/// does; Esc, `n`, Ctrl-C or the end of input say no. From a terminal the key is read at once (no
/// Enter after Esc); from a pipe, a line: `y` or `yes`, or an empty one for Enter.
public enum Confirmation {
    /// Asks `question` (on standard output, flushed: it has no line end) and waits for the answer.
    public static func ask(_ question: String, enterSays: Bool = true) -> Bool {
        print(question, terminator: " ")
        fflush(nil)
        return ask(enterSays: enterSays)
    }

    /// Whether a person can answer: the input is a terminal.
    public static var isInteractive: Bool { isatty(STDIN_FILENO) == 1 }

    public static func ask(enterSays: Bool = true) -> Bool {
        guard isatty(STDIN_FILENO) == 1 else {
            guard let line = readLine(strippingNewline: true)?.lowercased() else { return false }
            return ["y", "yes"].contains(line) || (line.isEmpty && enterSays)
        }
        var original = termios()
        guard tcgetattr(STDIN_FILENO, &original) == 0 else { return false }
        var raw = original
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO | ISIG)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw)
        defer { tcsetattr(STDIN_FILENO, TCSAFLUSH, &original) }
        var byte: UInt8 = 0
        while read(STDIN_FILENO, &byte, 1) == 1 {
            switch byte {
            case 0x0D, 0x0A: return enterSays
            case UInt8(ascii: "y"), UInt8(ascii: "Y"): return true
            case 0x1B, 0x03, 0x04, UInt8(ascii: "n"), UInt8(ascii: "N"): return false
            default: continue
            }
        }
        return false
    }
}
