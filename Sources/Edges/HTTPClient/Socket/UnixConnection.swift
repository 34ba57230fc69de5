#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import PlainText

/// Opening a non-blocking connection to a unix socket, and saying why one failed.
enum UnixConnection {
    /// `sun_path` holds 108 bytes including the terminating NUL.
    static let maximumPathBytes = 107

    /// A connection to the socket at `path`; `inProgress` when the connect finishes later (the
    /// socket then becomes writable).
    static func open(_ path: String) -> Result<(fd: Int32, inProgress: Bool), HTTPClientError> {
        let bytes = Array(path.utf8)
        guard !bytes.isEmpty, bytes.count <= maximumPathBytes, !bytes.contains(0) else {
            return .failure(.unreachable("unix socket path is empty, longer than \(maximumPathBytes) bytes or contains NUL: \(path)"))
        }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { return .failure(.unreachable(describe(errno, path))) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            buffer.copyBytes(from: bytes)
            buffer[bytes.count] = 0
        }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        let error = errno
        if result == 0 { return .success((fd, false)) }
        if error == EINPROGRESS { return .success((fd, true)) }
        close(fd)
        if error == EAGAIN {
            // A unix socket's listen queue is full: the server is overloaded, not down.
            return .failure(.unreachable("the server on unix socket \(path) accepts no more connections right now"))
        }
        return .failure(.unreachable(describe(error, path)))
    }

    /// "cannot reach the server on unix socket PATH: it is not there".
    static func describe(_ error: Int32, _ path: String) -> String {
        "cannot reach the server on unix socket \(path): \(SystemErrorWords.describe(error))"
    }
}
