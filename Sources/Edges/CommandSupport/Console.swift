#if canImport(Glibc)
import Glibc
#endif

/// Standard output and error, written whole with `write(2)` (Foundation's `FileHandle` is not in
/// FoundationEssentials).
public enum Console {
    public static func output(_ text: String) { write(text, to: STDOUT_FILENO) }
    public static func error(_ text: String) { write(text, to: STDERR_FILENO) }

    private static func write(_ text: String, to fd: Int32) {
        let bytes = Array(text.utf8)
        var sent = 0
        while sent < bytes.count {
            let count = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + sent, bytes.count - sent) }
            if count > 0 { sent += count } else if count < 0, errno == EINTR { continue } else { return }
        }
    }
}
