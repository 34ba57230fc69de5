/// Why a BFF could not be reached: the local one not found or started, a remote one without a
/// usable credential. Each says what to do about it.
public enum BFFAccessError: Error, Equatable, CustomStringConvertible {
    /// The runtime directory exists but is not safe to keep a token in.
    case unsafeDirectory(path: String, reason: String)
    /// A file could not be created, read or written.
    case io(path: String, errno: Int32)
    /// The socket path is longer than a unix socket address can hold.
    case socketPathTooLong(path: String)
    /// The server could not be started at all.
    case spawnFailed(String, errno: Int32)
    /// The server started but exited before it listened.
    case serverExited(status: Int32, log: String)
    /// The server did not listen in time.
    case notListening(seconds: Int, log: String)
    /// Not an address of a BFF.
    case invalidServerURL(String, reason: String)
    /// `--bff URL` without a stored token for it.
    case notLoggedIn(server: String)
    /// A credential file that is not one (edited by hand, truncated).
    case malformedCredential(path: String)
    /// The caller stopped waiting.
    case cancelled

    public var description: String {
        switch self {
        case .unsafeDirectory(let path, let reason):
            "\(path) is not a safe place for the local server's token: \(reason)"
        case .io(let path, let errno):
            "\(path): \(SystemErrorWords.describe(errno))"
        case .socketPathTooLong(let path):
            "the socket path \(path) is too long for a unix socket (at most \(UnixSocket.maximumPathBytes) bytes); set XDG_RUNTIME_DIR to a shorter directory"
        case .spawnFailed(let path, let errno):
            "could not start the local server \(path): \(SystemErrorWords.describe(errno))"
        case .serverExited(let status, let log):
            "the local server exited (status \(status)) before it was ready; see \(log)"
        case .notListening(let seconds, let log):
            "the local server did not answer within \(seconds) s; see \(log)"
        case .invalidServerURL(let text, let reason):
            "'\(text)' is not a server address: \(reason)"
        case .notLoggedIn(let server):
            "no token for \(server): run `termcanvas login \(server) --user NAME` first"
        case .malformedCredential(let path):
            "\(path) is not a credential file; run `termcanvas login` again to replace it"
        case .cancelled:
            "cancelled while waiting for the local server"
        }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

import PlainText
import PrivateFiles

extension BFFAccessError {
    /// A private file's or folder's error as this module says it: one there but unsafe to keep a
    /// token in is `.unsafeDirectory`, any other `.io`.
    init(_ error: PrivatePathError) {
        self = if let reason = error.reason { .unsafeDirectory(path: error.path, reason: reason) } else { .io(path: error.path, errno: error.errno) }
    }
}
