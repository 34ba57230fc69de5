#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One request of `SocketEngine` in flight: its connection, how much of the request is written,
/// the response read so far, and where the result goes. Confined to the engine's worker thread
/// once queued (it crosses threads once, inside the engine's lock, hence `@unchecked Sendable`).
final class SocketTransfer: @unchecked Sendable {
    /// Where a transfer is after a step.
    enum Progress {
        case going
        case done(HTTPClient.Response, keepingConnection: Bool)
        case failed(HTTPClientError)
        /// A kept connection turned out closed before any answer: send the request again on a new one.
        case staleConnection
    }

    let id: UInt64
    let exchange: Exchange
    let sink: TransferSink
    private let request: [UInt8]
    private let submitted = ContinuousClock.now

    /// The connection, -1 before one is given.
    private(set) var fd: Int32 = -1
    private var reused = false
    /// A non-blocking connect not finished yet, since when.
    private var connectStarted: ContinuousClock.Instant?
    private var written = 0
    private var parser: ResponseParser
    private var status = 0
    private var headers: [(name: String, value: String)] = []
    private var body: [UInt8] = []
    private var lastActivity = ContinuousClock.now

    init(id: UInt64, exchange: Exchange, sink: TransferSink) {
        self.id = id
        self.exchange = exchange
        self.sink = sink
        request = RequestHead.bytes(of: exchange)
        parser = ResponseParser(isHeadRequest: exchange.method == .head)
    }

    func begin(on fd: Int32, reused: Bool, connecting: Bool = false) {
        self.fd = fd
        self.reused = reused
        connectStarted = connecting ? .now : nil
        lastActivity = .now
    }

    /// Back to before `begin`, to go again on a new connection.
    func reset() {
        fd = -1
        written = 0
        parser = ResponseParser(isHeadRequest: exchange.method == .head)
        status = 0
        headers = []
        body = []
    }

    var wantsToWrite: Bool { connectStarted != nil || written < request.count }

    /// The earliest of the total timeout, the connect timeout (while connecting) and the idle
    /// timeout (event streams), or nil for none.
    var nextDeadline: ContinuousClock.Instant? {
        var deadlines: [ContinuousClock.Instant] = []
        if exchange.totalTimeoutMilliseconds > 0 { deadlines.append(submitted + .milliseconds(exchange.totalTimeoutMilliseconds)) }
        if let connectStarted { deadlines.append(connectStarted + .milliseconds(exchange.connectTimeoutMilliseconds)) }
        if let idle = exchange.idleTimeout { deadlines.append(lastActivity + idle) }
        return deadlines.min()
    }

    /// Finishes a connect, then writes what the socket takes of the request.
    func write() -> Progress {
        if connectStarted != nil {
            var error: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            if getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length) != 0 { error = errno }
            guard error == 0 else { return .failed(.unreachable(UnixConnection.describe(error, exchange.unixSocketPath ?? ""))) }
            connectStarted = nil
        }
        let count = request[written...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        guard count >= 0 else { return failure(errno) }
        written += count
        lastActivity = .now
        return .going
    }

    /// Reads what the socket has into `buffer` and takes it in.
    func read(into buffer: inout [UInt8]) -> Progress {
        let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        guard count >= 0 else { return failure(errno) }
        lastActivity = .now
        let parts: [ResponseParser.Part]
        do {
            parts = count == 0 ? try parser.endOfInput() : try parser.feed(buffer[..<count])
        } catch {
            if reused, !parser.receivedAnything { return .staleConnection }
            return .failed(.unreachable("the server's response could not be read: \(error.reason)"))
        }
        for part in parts {
            switch part {
            case .head(let status, let headers):
                self.status = status
                self.headers = headers.map { (name: $0.name, value: $0.value) }
                if case .streaming(let continuation) = sink, isStreamingBody {
                    continuation.yield(.head(headers: self.headers))
                }
            case .body(let bytes):
                if case .streaming(let continuation) = sink, isStreamingBody {
                    guard case .enqueued = continuation.yield(.bytes(Array(bytes))) else {
                        return .failed(.undecodable(status: status, body: [], reason: "the server sends faster than its stream is read"))
                    }
                } else {
                    guard body.count + bytes.count <= exchange.maxResponseBytes else {
                        return .failed(.undecodable(status: status, body: body, reason: "response larger than \(exchange.maxResponseBytes) bytes"))
                    }
                    body += bytes
                }
            case .end:
                let response = HTTPClient.Response(status: status, headers: headers, body: body, connectionReused: reused)
                return .done(response, keepingConnection: parser.keepsConnection)
            }
        }
        return .going
    }

    private var isStreamingBody: Bool {
        if case .streaming = sink { return (200..<300).contains(status) }
        return false
    }

    /// A failed `send` or `recv`: nothing to do yet, a kept connection found closed, or the end.
    private func failure(_ error: Int32) -> Progress {
        if error == EAGAIN || error == EINTR { return .going }
        if error == EPIPE || error == ECONNRESET, reused, !parser.receivedAnything { return .staleConnection }
        return .failed(.unreachable(UnixConnection.describe(error, exchange.unixSocketPath ?? "")))
    }
}
