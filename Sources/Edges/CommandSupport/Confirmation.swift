import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

/// Asks the user to confirm with one key: Enter says yes; Esc, `n`, Ctrl-C or the end of input
/// say no. From a terminal the key is read at once (no Enter after Esc); from a pipe, a line that
/// is empty or `y`/`yes` says yes.
public enum Confirmation {
    /// Asks `question` (on standard output, flushed: it has no line end) and waits for the answer.
    public static func ask(_ question: String) -> Bool {
        print(question, terminator: " ")
        fflush(nil)
        return ask()
    }

    public static func ask() -> Bool {
        guard isatty(STDIN_FILENO) == 1 else {
            guard let line = readLine(strippingNewline: true)?.lowercased() else { return false }
            return ["", "y", "yes"].contains(line)
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
            case 0x0D, 0x0A: return true
            case 0x1B, 0x03, 0x04, UInt8(ascii: "n"), UInt8(ascii: "N"): return false
            default: continue
            }
        }
        return false
    }
}
