#if canImport(Glibc)
import Glibc
#endif
import PlainText

/// Why the ncurses terminal could not start.
public enum NcursesError: Error, CustomStringConvertible {
    case notATerminal
    /// curses could not start; carries the value of TERM.
    case initFailed(terminalType: String?)
    case pipeFailed(Int32)

    public var description: String {
        switch self {
        case .notATerminal: "standard input and output must be a terminal (use `termcanvas render` to print a frame)"
        case .initFailed(let type?) where !type.isEmpty:
            "could not start the terminal: TERM is \"\(type)\", which is not a terminal type this system knows"
        case .initFailed: "could not start the terminal: TERM is not set"
        case .pipeFailed(let code): "could not set up terminal input: \(SystemErrorWords.describe(code))"
        }
    }
}
