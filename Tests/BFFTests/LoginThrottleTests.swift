@testable import BFF
import Foundation
import ServerAPI
@testable import ServerHTTP
@testable import ServerRoutes
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite("BFF login throttling")
struct LoginThrottleTests {
    @Test(
        "5 wrong passwords lock a user name out of new addresses (even with the right password), not out of one it logged in from",
        .enabled(if: AddressedClient.canBind("127.0.0.4"), "needs 127.0.0.2–4 on the loopback interface (Linux has all of 127/8)")
    )
    func perAccount() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addUsers("ann")
        // The per-address limit is far off: only the per-account one can answer 429 here.
        let configuration = harness.configuration(rateLimits: RateLimits(perUserPerSecond: 50, tokenRequestsPerMinute: 100))
        try await harness.withServer(configuration: configuration) { client in
            let port = try #require(client.port)
            let usual = AddressedClient(port: port, source: "127.0.0.2")
            let attacker = AddressedClient(port: port, source: "127.0.0.3")
            let newPlace = AddressedClient(port: port, source: "127.0.0.4")
            #expect(try await usual.token("ann", "pw-ann").status == 200)

            var statuses: [Int] = []
            for _ in 0..<5 { statuses.append(try await attacker.token("ann", "guess").status) }
            #expect(statuses == [401, 401, 401, 401, 401])

            let locked = try await newPlace.token("ann", "pw-ann")
            #expect(locked.status == 429, "\(locked.head)")
            let retryAfter = try #require(locked.header("Retry-After").flatMap { Int($0) }, "\(locked.head)")
            #expect((1...12).contains(retryAfter))
            // The attacker's next guess is refused too, without a password check.
            #expect(try await attacker.token("ann", "guess").status == 429)
            // Other names are not affected.
            #expect(try await newPlace.token("bob", "pw-bob").status == 401)

            // From the address that logged in as ann before, the right password still works.
            #expect(try await usual.token("ann", "pw-ann").status == 200)
        }
    }

    @Test("a flood of distinct keys leaves the limiter's table bounded")
    func limiterTableBounded() {
        let limiter = TokenBucketLimiter(rate: 5.0 / 60, burst: 5)
        for index in 0..<50_000 { _ = limiter.take("random-name-\(index)") }
        #expect(limiter.count <= limiter.capacity)
        #expect(limiter.count > 0)
        // The most recent keys are the ones kept.
        for _ in 0..<5 { _ = limiter.take("latest") }
        #expect(limiter.take("latest") != nil)
        #expect(limiter.take("random-name-49999") == nil)
    }

    @Test("the throttle counts only failures, and names that cannot exist share one bucket")
    func throttleUnit() {
        let throttle = LoginThrottle()
        for _ in 0..<20 {
            guard case .check(let counted) = throttle.admit(user: "ann", address: "a") else { Issue.record("refused a success"); return }
            throttle.succeeded(user: "ann", address: "a", counted: counted)
        }
        for index in 0..<5 { #expect(throttle.admit(user: String(repeating: "x", count: 100) + "\(index)", address: "b") == .check(counted: true)) }
        guard case .refuse = throttle.admit(user: String(repeating: "y", count: 200), address: "b") else {
            Issue.record("names that cannot exist are not counted together")
            return
        }
        #expect(throttle.admit(user: "bob", address: "b") == .check(counted: true))
    }
}

/// A bare HTTP/1.1 client whose connections come from a chosen loopback address, so tests can be
/// several clients on one machine. Blocking socket calls run on a queue of its own, never on the
/// cooperative pool that the server under test needs.
struct AddressedClient: Sendable {
    struct Response: Sendable {
        let status: Int
        let head: String

        func header(_ name: String) -> String? {
            for line in head.split(separator: "\r\n").dropFirst() {
                let parts = line.split(separator: ":", maxSplits: 1)
                if parts.count == 2, parts[0].lowercased() == name.lowercased() {
                    return parts[1].trimmingCharacters(in: .whitespaces)
                }
            }
            return nil
        }
    }

    enum Failure: Error {
        case socket(String, Int32)
        case badResponse(String)
    }

    let port: Int
    let source: String
    private static let queue = DispatchQueue(label: "addressed-client")

    init(port: Int, source: String) {
        self.port = port
        self.source = source
    }

    /// `POST /api/auth/token` with this name and password.
    func token(_ username: String, _ password: String) async throws -> Response {
        let body = String(decoding: try JSONEncoder().encode(TokenRequest(username: username, password: password)), as: UTF8.self)
        let request = "POST \(APIPath.authToken) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n" + body
        let (port, source) = (port, source)
        return try await withCheckedThrowingContinuation { continuation in
            Self.queue.async {
                continuation.resume(with: Result { try Self.exchange(request, port: port, source: source) })
            }
        }
    }

    /// Whether a socket can be bound to `address` (Linux answers on all of 127/8, macOS only on 127.0.0.1).
    static func canBind(_ address: String) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return bindTo(fd, address: address, port: 0) == 0
    }

    private static func bindTo(_ fd: Int32, address: String, port: Int) -> Int32 {
        var socketAddress = sockaddr_in()
        socketAddress.sin_family = sa_family_t(AF_INET)
        socketAddress.sin_port = in_port_t(UInt16(port).bigEndian)
        socketAddress.sin_addr.s_addr = inet_addr(address)
        return withUnsafePointer(to: &socketAddress) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
    }

    private static func exchange(_ request: String, port: Int, source: String) throws -> Response {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure.socket("socket", errno) }
        defer { close(fd) }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        guard bindTo(fd, address: source, port: 0) == 0 else { throw Failure.socket("bind \(source)", errno) }
        var server = sockaddr_in()
        server.sin_family = sa_family_t(AF_INET)
        server.sin_port = in_port_t(UInt16(port).bigEndian)
        server.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &server) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw Failure.socket("connect", errno) }
        let bytes = Array(request.utf8)
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { throw Failure.socket("send", errno) }
            sent += count
        }
        var received = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count < 0 { throw Failure.socket("recv", errno) }
            if count == 0 { break }
            received += buffer[..<count]
        }
        let text = String(decoding: received, as: UTF8.self)
        let head = text.components(separatedBy: "\r\n\r\n").first ?? ""
        let statusLine = head.split(separator: " ", maxSplits: 2)
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else { throw Failure.badResponse(text) }
        return Response(status: status, head: head)
    }
}
