import BFFTesting
import HTTPClient
import Testing

/// The two ways the client reaches a server, each with its own engine: a TCP port (libcurl) and a
/// unix socket (`SocketEngine`, the local server's). Tests of what goes over the wire run on both.
enum Transport: String, CaseIterable, CustomTestStringConvertible {
    case tcp
    case unixSocket

    var testDescription: String { rawValue }

    /// A raw server listening the way this transport connects.
    func server(
        backlog: Int32 = 64, accepting: Bool = true, handler: @escaping @Sendable (RawConnection, Int) -> Void = { _, _ in }
    ) throws -> RawServer {
        try RawServer(backlog: backlog, accepting: accepting, socketPath: self == .unixSocket ? temporarySocketPath() : nil, handler: handler)
    }
}

extension RawServer {
    /// Where a client reaches this server.
    var endpoint: HTTPClient.Endpoint {
        socketPath.map { .unixSocket($0) } ?? .loopback(port: port)
    }
}
