import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

/// Reads a password: from the terminal without echo, or the first line of standard input when
/// it is not a terminal (for scripts). Never from the command line, where `ps` would show it.
public enum PasswordInput {
    /// bcrypt uses at most 72 bytes of a password.
    static let maximumBytes = 72
    /// The fewest characters a new password may have (`docs/server.md` says so).
    public static let minimumCharacters = 8

    /// Why a password was not taken: the user's input, not the command's usage, so no usage line.
    public struct Refused: Error, CustomStringConvertible {
        public let description: String
    }

    /// A password the user has already (to log in): read once, checked only for what no
    /// password can be.
    public static func read(prompt: String) throws(Refused) -> String {
        let password: String
        if isatty(STDIN_FILENO) == 1 {
            guard let typed = getpass(prompt) else { throw Refused(description: "no password was given; nothing was changed") }
            password = String(cString: typed)
        } else {
            password = readLine(strippingNewline: true) ?? ""
        }
        guard !password.isEmpty else { throw Refused(description: "the password must not be empty; nothing was changed") }
        guard password.utf8.count <= maximumBytes else {
            throw Refused(description: "the password must be at most \(maximumBytes) bytes; nothing was changed")
        }
        return password
    }

    /// A new password (`user add`): at least `minimumCharacters`, and typed twice on a terminal,
    /// since a typing mistake in a password no one sees would lock its owner out.
    public static func new(prompt: String) throws(Refused) -> String {
        let password = try read(prompt: prompt)
        guard password.count >= minimumCharacters else {
            throw Refused(description: "a password must be at least \(minimumCharacters) characters; nothing was changed")
        }
        if isatty(STDIN_FILENO) == 1 {
            guard try read(prompt: "Again, to be sure: ") == password else {
                throw Refused(description: "the two passwords differ; nothing was changed: run the command again")
            }
        }
        return password
    }
}
