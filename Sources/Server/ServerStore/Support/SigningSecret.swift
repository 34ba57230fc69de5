import Foundation
import PrivateFiles

/// The secret tokens are signed with, when none is configured: generated once and kept in the data
/// directory (beside a SQLite database; a PostgreSQL one keeps it for every instance), readable by
/// its owner only, so tokens survive a restart.
package enum SigningSecret {
    static let fileName = "jwt-secret"

    /// A new secret: 32 random bytes as hex.
    package static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<32).map { _ in String(format: "%02x", UInt8.random(in: .min ... .max, using: &generator)) }.joined()
    }

    /// Reads the secret file in `directory`, creating it (mode 0600) with 32 random bytes if absent.
    package static func loadOrCreate(in directory: URL) throws -> String {
        let url = directory.appendingPathComponent(fileName)
        if let existing = try? String(contentsOf: url, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines),
           existing.count >= 32 {
            // Keep it private even if someone loosened its mode.
            try PrivatePath.tighten(url.path, to: 0o600)
            return existing
        }
        try PrivatePath.makeDirectory(directory, existing: .keep)
        let secret = make()
        // Create with 0600 from the start: never a moment where others could read it.
        let fd = open(url.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard fd >= 0 else { throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: url.path]) }
        defer { close(fd) }
        _ = fchmod(fd, 0o600)
        let data = Array(secret.utf8)
        let written = data.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        guard written == data.count else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path]) }
        return secret
    }
}
