import AsyncHTTPClient
import Logging
import NIOCore

/// How the server reaches remote apps' entries (the proxy and the health checks), with a client of
/// its own rather than `HTTPClient.shared`: it follows no redirect (an entry cannot send the
/// server elsewhere); gives up on a refused connection at once instead of retrying until the
/// deadline; ends a connection silent for `idleLimit` (a stream sends at least a comment more
/// often); and may hold a connection per session the server proxies, since each stream keeps one
/// (the default pool queues whatever passes eight per entry, so a ninth pane would wait).
enum EntryClient {
    static let idleLimit = TimeAmount.seconds(45)

    static let shared: HTTPClient = {
        var configuration = HTTPClient.Configuration(redirectConfiguration: .disallow,
                                                     timeout: .init(connect: .seconds(2), read: idleLimit))
        configuration.connectionPool = .init(idleTimeout: .seconds(60),
                                             concurrentHTTP1ConnectionsPerHostSoftLimit: RemoteSessions.standardTotal + 64)
        configuration.connectionPool.retryConnectionEstablishment = false
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration,
                          backgroundActivityLogger: Logger(label: "termcanvas.bff.entries", factory: { _ in SwiftLogNoOpLogHandler() }))
    }()

    /// One call whose whole answer, head and body, arrives within `timeout` and in at most
    /// `maximumBody` bytes: an entry that answers its head and then trickles is cut off too.
    static func call(_ request: HTTPClientRequest, timeout: TimeAmount, maximumBody: Int,
                     logger: Logger) async throws -> (response: HTTPClientResponse, body: ByteBuffer) {
        try await withThrowingTaskGroup(of: (response: HTTPClientResponse, body: ByteBuffer)?.self) { group in
            group.addTask {
                let response = try await shared.execute(request, timeout: timeout, logger: logger)
                return (response, try await response.body.collect(upTo: maximumBody))
            }
            group.addTask {
                try await Task.sleep(for: .nanoseconds(timeout.nanoseconds))
                return nil
            }
            defer { group.cancelAll() }
            guard let answer = try await group.next() ?? nil else { throw HTTPClientError.deadlineExceeded }
            return answer
        }
    }
}
