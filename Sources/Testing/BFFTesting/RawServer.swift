import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// A tiny blocking server on 127.0.0.1 (or a unix socket) for what the BFF never does: stall, answer 503,
/// send garbage, drop a stream. Each accepted connection runs `handler` on its own thread (never
/// on Swift's cooperative pool, which the client under test needs) with the connection's index
/// (0 for the first); handlers usually answer with `Connection: close`, so one connection is one
/// request.
package final class RawServer: Sendable {
    /// The TCP port, 0 when listening on a unix socket.
    package let port: Int
    /// The unix socket listened on, if asked for one.
    package let socketPath: String?
    private let listener: Int32
    private let stopped = Atomic<Bool>(false)
    private let heads = Mutex<[String]>([])
    private let bodies = Mutex<[String]>([])
    private let closes = Atomic<Int>(0)
    private let accepted = Atomic<Int>(0)

    /// The request heads read so far, in order.
    package var requests: [String] { heads.withLock { $0 } }
    /// Their bodies (`Content-Length` ones), in the same order.
    package var requestBodies: [String] { bodies.withLock { $0 } }
    /// Connections whose client closed them (seen by `waitForClose`).
    package var closedByClient: Int { closes.load(ordering: .relaxed) }
    /// Connections accepted so far.
    package var connections: Int { accepted.load(ordering: .relaxed) }

    /// - Parameters:
    ///   - backlog: The listen backlog; with `accepting` false and a full backlog, connects hang.
    ///   - accepting: Whether to accept connections at all.
    ///   - socketPath: A unix socket to listen on instead of a loopback port.
    package init(
        backlog: Int32 = 64, accepting: Bool = true, socketPath: String? = nil,
        handler: @escaping @Sendable (RawConnection, Int) -> Void = { _, _ in }
    ) throws {
        let fd = socket(socketPath == nil ? AF_INET : AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw RawServerError.socket(errno) }
        if let socketPath {
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            let bytes = Array(socketPath.utf8)
            guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
                close(fd)
                throw RawServerError.socket(ENAMETOOLONG)
            }
            withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes + [0]) }
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
            guard bound == 0, listen(fd, backlog) == 0 else {
                close(fd)
                throw RawServerError.socket(errno)
            }
            port = 0
        } else {
            var yes: Int32 = 1
            setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = 0
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard bound == 0, listen(fd, backlog) == 0 else {
                close(fd)
                throw RawServerError.socket(errno)
            }
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            _ = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
            }
            port = Int(UInt16(bigEndian: address.sin_port))
        }
        self.socketPath = socketPath
        listener = fd
        guard accepting else { return }
        Thread.detachNewThread { [self] in
            var index = 0
            while !stopped.load(ordering: .relaxed) {
                let connection = accept(fd, nil, nil)
                if connection < 0 {
                    if errno == EINTR { continue }
                    return
                }
                let number = index
                index += 1
                accepted.add(1, ordering: .relaxed)
                Thread.detachNewThread { [self] in
                    let raw = RawConnection(fd: connection, server: self)
                    handler(raw, number)
                    raw.close()
                }
            }
        }
    }

    deinit { stop() }

    /// Stops accepting; connections in progress carry on until their handlers return.
    package func stop() {
        guard !stopped.exchange(true, ordering: .relaxed) else { return }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        if let socketPath { unlink(socketPath) }
    }

    fileprivate func record(head: String, body: String) {
        heads.withLock { $0.append(head) }
        bodies.withLock { $0.append(body) }
    }
    fileprivate func recordClose() { closes.add(1, ordering: .relaxed) }
}

package enum RawServerError: Error {
    case socket(Int32)
}

/// One accepted connection, used by one handler thread.
package final class RawConnection: @unchecked Sendable {
    private let fd: Int32
    private let server: RawServer
    private var closed = false

    fileprivate init(fd: Int32, server: RawServer) {
        self.fd = fd
        self.server = server
    }

    /// Reads one request (head and a `Content-Length` body); returns the head, or nil when the
    /// client closed first.
    @discardableResult
    package func readRequest() -> String? {
        var data: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            if let end = data.firstRange(of: Array("\r\n\r\n".utf8)) {
                let head = String(decoding: data[..<end.lowerBound], as: UTF8.self)
                let length = head.split(separator: "\r\n")
                    .first { $0.lowercased().hasPrefix("content-length:") }
                    .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
                var body = Array(data[end.upperBound...])
                while body.count < length {
                    let count = read(fd, &buffer, buffer.count)
                    if count <= 0 { break }
                    body += buffer[..<count]
                }
                server.record(head: head, body: String(decoding: body, as: UTF8.self))
                return head
            }
            let count = read(fd, &buffer, buffer.count)
            if count <= 0 { return nil }
            data += buffer[..<count]
        }
    }

    /// Writes all of `text`; false when the client has gone.
    @discardableResult
    package func write(_ text: String) -> Bool {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if written <= 0 { return false }
            bytes = bytes.dropFirst(written)
        }
        return true
    }

    /// A whole response, with `Connection: close` unless `keepAlive`.
    package func respond(status: String, headers: [String] = [], body: String = "", keepAlive: Bool = false) {
        let connection = keepAlive ? [] : ["Connection: close"]
        let head = (["HTTP/1.1 \(status)", "Content-Length: \(body.utf8.count)"] + connection + headers).joined(separator: "\r\n")
        write(head + "\r\n\r\n" + body)
    }

    /// Blocks until the client closes the connection (or `limit` passes); counts the close.
    package func waitForClose(limit: Duration = .seconds(10)) {
        var timeout = timeval(tv_sec: Int(limit.components.seconds), tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var buffer = [UInt8](repeating: 0, count: 1024)
        while true {
            let count = read(fd, &buffer, buffer.count)
            if count == 0 {
                server.recordClose()
                return
            }
            if count < 0 { return }
        }
    }

    package func close() {
        guard !closed else { return }
        closed = true
        #if canImport(Glibc)
        Glibc.close(fd)
        #else
        Darwin.close(fd)
        #endif
    }
}

/// A loopback port that refuses connections: bound (so no other test can take it) but not
/// listening, for as long as this value lives.
package final class ClosedPort {
    package let port: Int
    private let fd: Int32

    package init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw RawServerError.socket(errno) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard bound == 0, named == 0 else {
            let error = errno
            close(fd)
            throw RawServerError.socket(error)
        }
        self.fd = fd
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit { close(fd) }
}
