/// Why the ncurses terminal could not start.
public enum NcursesError: Error, CustomStringConvertible {
    case notATerminal
    case initFailed
    case pipeFailed(Int32)

    public var description: String {
        switch self {
        case .notATerminal: "standard input and output must be a terminal (use `termcanvas render` to print a frame)"
        case .initFailed: "could not start the terminal (is TERM set to a terminal type this system knows?)"
        case .pipeFailed(let code): "could not create the signal pipe (errno \(code))"
        }
    }
}
