import ArgumentParser
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Reads a password: from the terminal without echo, or the first line of standard input when
/// it is not a terminal (for scripts). Never from the command line, where `ps` would show it.
public enum PasswordInput {
    /// bcrypt uses at most 72 bytes of a password.
    static let maximumBytes = 72

    public static func read(prompt: String) throws -> String {
        let password: String
        if isatty(STDIN_FILENO) == 1 {
            guard let typed = getpass(prompt) else { throw ValidationError("no password given") }
            password = String(cString: typed)
        } else {
            password = readLine(strippingNewline: true) ?? ""
        }
        guard !password.isEmpty else { throw ValidationError("the password must not be empty") }
        guard password.utf8.count <= maximumBytes else {
            throw ValidationError("the password must be at most \(maximumBytes) bytes")
        }
        return password
    }
}
