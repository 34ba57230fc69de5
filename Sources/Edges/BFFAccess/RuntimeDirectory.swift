import FoundationEssentials
import PrivateFiles

#if canImport(Glibc)
import Glibc
#endif

/// Where the embedded local server and its dashboards meet: `$XDG_RUNTIME_DIR/termcanvas/`, or
/// `/tmp/termcanvas-UID/` when there is no runtime directory (containers, ssh without a session).
///
/// The directory is the security boundary of the local server: the socket and the token file in it
/// are reachable only because the directory is the user's own and closed to everyone else (0700).
/// A directory someone else created in `/tmp` first is refused, never used.
public struct RuntimeDirectory: Sendable, Equatable {
    public let url: URL

    /// The unix socket the local server listens on.
    public var socket: URL { url.appendingPathComponent("bff.sock") }
    /// Held (flock) by the running local server, so only one runs per user.
    public var lock: URL { url.appendingPathComponent("bff.lock") }
    /// The local user's bearer token (mode 0600), rewritten at every server start.
    public var token: URL { url.appendingPathComponent("bff.token") }

    public init(url: URL) {
        self.url = url
    }

    /// The directory for this environment (not created).
    public init(environment: [String: String]) {
        if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") {
            url = URL(fileURLWithPath: runtime).appendingPathComponent("termcanvas")
        } else {
            url = URL(fileURLWithPath: "/tmp/termcanvas-\(getuid())")
        }
    }

    /// Creates the directory (0700) if needed and checks it is safe: a real directory, owned by
    /// this user, closed to group and others; tightens the mode of our own directory if loosened.
    /// - Throws: `BFFAccessError.unsafeDirectory` or `.io`; `.socketPathTooLong` when the socket
    ///   could not be bound here.
    public func prepare() throws(BFFAccessError) {
        do { try PrivateFile.prepareDirectory(url) } catch { throw BFFAccessError(error) }
        guard socket.path.utf8.count <= UnixSocket.maximumPathBytes else { throw .socketPathTooLong(path: socket.path) }
    }
}
