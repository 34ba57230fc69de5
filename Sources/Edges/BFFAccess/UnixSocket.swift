#if canImport(Glibc)
import Glibc
#endif

/// The one question the launcher asks of the local server's socket: does something listen on it?
enum UnixSocket {
    /// `sun_path` holds 108 bytes including the terminating NUL.
    static let maximumPathBytes = 107

    /// Whether a connection to the socket at `path` is accepted right now. A unix socket connects
    /// or fails at once (no network), so this never waits.
    static func isListening(at path: String) -> Bool {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count <= maximumPathBytes else { return false }
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            buffer.copyBytes(from: bytes)
            buffer[bytes.count] = 0
        }
        let length = socklen_t(MemoryLayout<sockaddr_un>.size)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, length) == 0 }
        }
    }
}
