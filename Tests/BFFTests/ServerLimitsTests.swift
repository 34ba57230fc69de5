import BFF
import Foundation
import HummingbirdTesting
import ServerAPI
import ServerHTTP
import ServerStore
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// What no client may hold on the server, logged in or not: connections, live streams, time.
@Suite("BFF connection and stream limits", .serialized)
struct ServerLimitsTests {
    @Test("live streams are capped per user and in all: 429 with Retry-After past a cap, others unaffected")
    func streamCaps() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addUsers("ann", "bob", "cat")
        var configuration = harness.configuration()
        configuration.limits.streams = LiveEventHub.StreamLimits(perUser: 3, total: 5)
        // A stream learns its client left when a write fails: keep-alives come often here.
        configuration.heartbeatInterval = .milliseconds(100)
        try await harness.withServer(configuration: configuration) { client in
            let port = try #require(client.port)
            let ann = try await client.token(for: "ann")
            let bob = try await client.token(for: "bob")
            let cat = try await client.token(for: "cat")
            var open: [SSEReader] = []
            for _ in 0..<3 {
                let reader = try SSEReader(port: port, token: ann)
                #expect(try await reader.readHead().hasPrefix("HTTP/1.1 200"))
                open.append(reader)
            }
            let fourth = try SSEReader(port: port, token: ann)
            let refused = try await fourth.readHead()
            #expect(refused.hasPrefix("HTTP/1.1 429"), "\(refused)")
            #expect(refused.lowercased().contains("retry-after: 5"))
            for _ in 0..<2 {
                let reader = try SSEReader(port: port, token: bob)
                #expect(try await reader.readHead().hasPrefix("HTTP/1.1 200"))
                open.append(reader)
            }
            // Five open in all: the total cap refuses a user with none.
            #expect(try await SSEReader(port: port, token: cat).readHead().hasPrefix("HTTP/1.1 429"))
            // A closed stream frees its place.
            open.removeFirst()
            try await eventually("a place for another stream", every: .milliseconds(50)) {
                try await SSEReader(port: port, token: cat).readHead().hasPrefix("HTTP/1.1 200")
            }
        }
    }

    @Test("a stream whose client closed it frees its place at once, not at the next keep-alive")
    func closedStreamFreesItsPlaceAtOnce() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addUsers("ann")
        var configuration = harness.configuration()
        configuration.limits.streams = LiveEventHub.StreamLimits(perUser: 1, total: 5)
        configuration.heartbeatInterval = .seconds(60)
        try await harness.withServer(configuration: configuration) { client in
            let port = try #require(client.port)
            let ann = try await client.token(for: "ann")
            // A dashboard quit and started again, three times in a row: each start's stream
            // is let in once the last one's connection closed.
            for start in 1...3 {
                try await eventually("start \(start)'s stream let in", within: .seconds(2), every: .milliseconds(20)) {
                    try await SSEReader(port: port, token: ann).readHead().hasPrefix("HTTP/1.1 200")
                }
            }
        }
    }

    @Test("a live stream ends when its token expires")
    func streamEndsWithToken() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addUsers("ann")
        var configuration = harness.configuration()
        configuration.tokenLifetime = 2
        try await harness.withServer(configuration: configuration) { client in
            let reader = try SSEReader(port: try #require(client.port), token: try await client.token(for: "ann"))
            try await reader.readHead()
            #expect(try await reader.endsWithin(.seconds(8)))
        }
    }

    @Test("a live stream ends when its user is deleted (by another process, at the next keep-alive)")
    func streamEndsWithUser() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addUsers("ann")
        var configuration = harness.configuration()
        configuration.heartbeatInterval = .milliseconds(200)
        try await harness.withServer(configuration: configuration) { client in
            let reader = try SSEReader(port: try #require(client.port), token: try await client.token(for: "ann"))
            try await reader.readHead()
            #expect(try await !reader.endsWithin(.seconds(1)))
            #expect(try await harness.withStore { try await $0.deleteUser(name: "ann") })
            #expect(try await reader.endsWithin(.seconds(5)))
        }
    }

    @Test("a deleted user's stream gets no event after the deletion (another process's) and ends at the next one")
    func noEventAfterTheUserIsDeleted() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addUsers("ann", "bob")
        var configuration = harness.configuration()
        configuration.userRecheck = .zero  // no wait for the remembered user to be asked again
        try await harness.withServer(configuration: configuration) { client in
            let reader = try SSEReader(port: try #require(client.port), token: try await client.token(for: "ann"))
            try await reader.readHead()
            let bob = try await client.token(for: "bob")
            _ = try await client.send(.post, APIPath.chatMessages(channel: "general"), token: bob, json: NewChatMessage(text: "before"))
            #expect(try await reader.events(1).map(\.name) == ["chat.message.posted"])
            #expect(try await harness.withStore { try await $0.deleteUser(name: "ann") })
            _ = try await client.send(.post, APIPath.chatMessages(channel: "general"), token: bob, json: NewChatMessage(text: "after"))
            // The heartbeat is 25 s away: the stream ends now, and without the message.
            #expect(try await reader.events(1, timeout: .seconds(2)).isEmpty)
            #expect(try await reader.endsWithin(.seconds(1)))
        }
    }

    @Test("a connection whose request head never completes is closed after the idle timeout")
    func halfSentHeader() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        var configuration = harness.configuration()
        configuration.limits.idleTimeout = .seconds(1)
        try await harness.withServer(configuration: configuration) { client in
            let socket = try RawSocket(port: try #require(client.port))
            socket.send("GET /health HTTP/1.1\r\nHost: x\r\nX-Slow: ")
            #expect(socket.closedByServer(within: .seconds(6)))
        }
    }

    @Test("past the connections one address may hold, a new one is closed at once; other addresses are served")
    func connectionCap() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        var configuration = harness.configuration()
        configuration.limits.connections = ConnectionLimits(total: 100, perAddress: 4)
        try await harness.withServer(configuration: configuration) { client in
            let port = try #require(client.port)
            // From an address of their own: the test client's connection counts for 127.0.0.1.
            let held = try (0..<4).map { _ in try RawSocket(port: port, source: "127.0.0.3") }
            // Each answered, so the server has counted all four before the fifth arrives (accepted
            // connections become active on several event loops, in no set order).
            for socket in held {
                socket.send("GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
                #expect(socket.read(within: .seconds(3)).hasPrefix("HTTP/1.1 200"))
            }
            let extra = try RawSocket(port: port, source: "127.0.0.3")
            #expect(extra.closedByServer(within: .seconds(3)))
            let other = try RawSocket(port: port, source: "127.0.0.2")
            other.send("GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(other.read(within: .seconds(3)).hasPrefix("HTTP/1.1 200"))
            #expect(held.allSatisfy { !$0.closedByServer(within: .milliseconds(10)) })
        }
    }
}

extension SSEReader {
    /// Whether the server ends the stream within `window` (keep-alives aside).
    func endsWithin(_ window: Duration) async throws -> Bool {
        let deadline = ContinuousClock.now.advanced(by: window)
        while ContinuousClock.now < deadline {
            do {
                if try await next(timeout: .milliseconds(200)) == nil { return true }
            } catch SSEReaderError.closed {
                return true
            } catch SSEReaderError.timeout {
                continue
            }
        }
        return false
    }
}

/// A bare TCP connection, to hold a connection open or send half a request.
final class RawSocket {
    let fd: Int32

    /// - Parameter source: The local address to connect from (any of 127.0.0.0/8 reaches a
    ///   server on 127.0.0.1 as a different peer).
    init(port: Int, source: String = "127.0.0.1") throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var local = sockaddr_in()
        local.sin_family = sa_family_t(AF_INET)
        local.sin_addr.s_addr = inet_addr(source)
        _ = withUnsafePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(fd)
            throw SSEReaderError.connect(errno)
        }
    }

    deinit { close(fd) }

    func send(_ text: String) {
        _ = text.withCString { Glibc.send(fd, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
    }

    /// What arrives within `window`, up to 64 KiB.
    func read(within window: Duration) -> String {
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, Int32(window / .milliseconds(1))) > 0 else { return "" }
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let count = recv(fd, &buffer, buffer.count, 0)
        return count > 0 ? String(decoding: buffer[..<count], as: UTF8.self) : ""
    }

    /// Whether the server closes the connection within `window` (anything it sends is skipped).
    func closedByServer(within window: Duration) -> Bool {
        let deadline = ContinuousClock.now.advanced(by: window)
        var buffer = [UInt8](repeating: 0, count: 4096)
        while ContinuousClock.now < deadline {
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let left = max(1, Int32(ContinuousClock.now.duration(to: deadline) / .milliseconds(1)))
            guard poll(&poller, 1, left) > 0 else { return false }
            let count = recv(fd, &buffer, buffer.count, 0)
            if count <= 0 { return true }
        }
        return false
    }
}
