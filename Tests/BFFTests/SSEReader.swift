import Foundation
import ServerAPI
#if canImport(Glibc)
import Glibc
#endif

/// A bare `GET /api/events` client over a TCP socket, so tests see exactly what goes over the wire:
/// it sends the request, then parses `text/event-stream` frames as they arrive.
///
/// Its blocking reads run on a queue of its own: blocking a Swift concurrency thread could starve
/// the server under test, which runs on the same small pool.
final class SSEReader: @unchecked Sendable {
    private let queue = DispatchQueue(label: "sse-reader")
    private let fd: Int32
    private var pending = [UInt8]()
    /// Status line and headers, once read.
    private(set) var head = ""
    /// Whether the stream starts afresh (no `Last-Event-ID`), so with `bff.stream.opened`.
    private let opensFresh: Bool
    /// The `bff.stream.opened` event a fresh stream started with, once `readHead` read it.
    private(set) var opened: LiveEvent?

    init(port: Int, token: String, lastEventID: Int64? = nil, path: String = APIPath.events) throws {
        opensFresh = lastEventID == nil && path == APIPath.events
        // Close-on-exec: a server another test starts meanwhile (nginx, Radicale) must not keep
        // this connection open after the test closes it.
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { close(fd); throw SSEReaderError.connect(errno) }
        var request = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(token)\r\nAccept: text/event-stream\r\n"
        if let lastEventID { request += "Last-Event-ID: \(lastEventID)\r\n" }
        request += "\r\n"
        _ = request.withCString { send(fd, $0, strlen($0), 0) }
    }

    deinit { close(fd) }

    /// Runs a blocking read on this reader's own queue.
    private func blocking<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result { try body() }) }
        }
    }

    /// Reads the response head (status line and headers) and, on a fresh stream, the
    /// `bff.stream.opened` event that must come first.
    @discardableResult
    func readHead(timeout: Duration = .seconds(5)) async throws -> String {
        try await blocking { try self.readHeadBlocking(timeout: timeout) }
    }

    /// The next event (comments, `retry:` and events `ignored` skipped), or nil when the server
    /// ends the stream.
    func next(timeout: Duration = .seconds(5), ignoring ignored: @escaping @Sendable (LiveEvent) -> Bool = { _ in false })
        async throws -> LiveEvent? {
        try await blocking { try self.nextBlocking(timeout: timeout, ignoring: ignored) }
    }

    /// Collects events until `count` arrived or the stream ended.
    func events(_ count: Int, timeout: Duration = .seconds(5)) async throws -> [LiveEvent] {
        try await blocking {
            var events: [LiveEvent] = []
            while events.count < count, let event = try self.nextBlocking(timeout: timeout) { events.append(event) }
            return events
        }
    }

    /// Whether the next event (past those `ignored`) is the `name` that `barrier`, a later change
    /// this stream must carry, causes. Events come in order, so anything that should not have
    /// come would have come before it: surer than waiting a fixed time for nothing, and quicker.
    func nextIs(_ name: EventName, after barrier: () async throws -> Void,
                ignoring ignored: @escaping @Sendable (LiveEvent) -> Bool = { _ in false }) async throws -> Bool {
        try await barrier()
        return try await next(ignoring: ignored)?.name == name.rawValue
    }

    /// Reads until the body holds `text` (a keep-alive comment, say), so the server is writing
    /// the body by then; false when the stream ends or `timeout` passes first.
    func receives(_ text: String, timeout: Duration = .seconds(5)) async throws -> Bool {
        try await blocking {
            let deadline = ContinuousClock.now + timeout
            while true {
                self.decodeChunks()
                if self.receivedText.contains(text) { return true }
                if self.ended { return false }
                do { try self.fill(timeout: max(.zero, deadline - .now)) } catch SSEReaderError.timeout, SSEReaderError.closed { return false }
            }
        }
    }

    /// Whether nothing but comments (and events `ignored`) arrives within `window`.
    func staysQuiet(for window: Duration, ignoring ignored: @escaping @Sendable (LiveEvent) -> Bool = { _ in false }) async throws -> Bool {
        try await blocking {
            do { return try self.nextBlocking(timeout: window, ignoring: ignored) == nil } catch SSEReaderError.timeout { return true }
        }
    }

    private func nextBlocking(timeout: Duration, ignoring ignored: (LiveEvent) -> Bool) throws -> LiveEvent? {
        let deadline = ContinuousClock.now + timeout
        while let event = try nextBlocking(timeout: max(.zero, deadline - .now)) {
            if !ignored(event) { return event }
        }
        return nil
    }

    private func readHeadBlocking(timeout: Duration) throws -> String {
        while true {
            if let end = pending.firstRange(of: Array("\r\n\r\n".utf8)) {
                head = String(decoding: pending[..<end.lowerBound], as: UTF8.self)
                pending.removeSubrange(..<end.upperBound)
                if opensFresh, head.hasPrefix("HTTP/1.1 200") {
                    opened = try nextBlocking(timeout: timeout)
                    guard opened?.name == EventName.streamOpened.rawValue else { throw SSEReaderError.notOpened(opened) }
                }
                return head
            }
            try fill(timeout: timeout)
        }
    }

    private func nextBlocking(timeout: Duration) throws -> LiveEvent? {
        while true {
            if let event = takeEvent() { return event }
            if ended { return nil }
            do { try fill(timeout: timeout) } catch SSEReaderError.closed { return nil }
        }
    }

    private var body = [UInt8]()
    /// The last (empty) chunk came: the server ended the response, even if it keeps the connection.
    private var ended = false
    /// Everything of the body decoded so far, comments included.
    private(set) var receivedText = ""

    private func takeEvent() -> LiveEvent? {
        decodeChunks()
        while let end = body.firstRange(of: Array("\n\n".utf8)) {
            let frame = String(decoding: body[..<end.lowerBound], as: UTF8.self)
            body.removeSubrange(..<end.upperBound)
            var id: Int64?, name = "message", data: [String] = []
            for line in frame.split(separator: "\n", omittingEmptySubsequences: false) {
                if line.hasPrefix("id: ") { id = Int64(line.dropFirst(4)) }
                if line.hasPrefix("event: ") { name = String(line.dropFirst(7)) }
                if line.hasPrefix("data: ") { data.append(String(line.dropFirst(6))) }
            }
            if let id { return LiveEvent(id: id, name: name, data: data.joined(separator: "\n")) }
        }
        return nil
    }

    /// Moves whole chunks of the chunked body from `pending` to `body`.
    private func decodeChunks() {
        while let lineEnd = pending.firstRange(of: Array("\r\n".utf8)),
              let size = Int(String(decoding: pending[..<lineEnd.lowerBound], as: UTF8.self), radix: 16),
              pending.count >= lineEnd.upperBound + size + 2 {
            body += pending[lineEnd.upperBound ..< lineEnd.upperBound + size]
            receivedText += String(decoding: pending[lineEnd.upperBound ..< lineEnd.upperBound + size], as: UTF8.self)
            pending.removeSubrange(..<(lineEnd.upperBound + size + 2))
            if size == 0 {
                ended = true
                return
            }
        }
    }

    private func fill(timeout: Duration) throws {
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let milliseconds = Int32(timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)
        guard poll(&poller, 1, milliseconds) > 0 else { throw SSEReaderError.timeout }
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let count = recv(fd, &chunk, chunk.count, 0)
        guard count > 0 else { throw SSEReaderError.closed }
        pending += chunk[..<count]
    }
}

enum SSEReaderError: Error {
    case connect(Int32)
    case timeout
    case closed
    /// A fresh stream's first event was not `bff.stream.opened`.
    case notOpened(LiveEvent?)
}
