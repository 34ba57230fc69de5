import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOPosix
import ServerHTTP
import Synchronization

/// How the server reaches remote apps' entries (the proxy and the health checks).
///
/// Before every call it resolves the entry's host and checks each address against `policy`
/// (`EntryNetworkPolicy`), then connects to the address it checked: a client pinned to it
/// (AsyncHTTPClient's `dnsOverride`, which keeps the host name for TLS), so a name that changes
/// its answer between the check and the connection (DNS rebinding) cannot move the server.
///
/// Its clients, rather than `HTTPClient.shared`: follow no redirect (an entry cannot send the
/// server elsewhere); give up on a refused connection at once instead of retrying until the
/// deadline; end a connection silent for `idleLimit` (a stream sends at least a comment more
/// often); and may hold a connection per session the server proxies, since each stream keeps one
/// (the default pool queues whatever passes eight per entry, so a ninth pane would wait).
package final class EntryClient: Sendable {
    static let idleLimit = TimeAmount.seconds(45)
    /// Hosts whose pinned client is kept; past it the oldest is shut down.
    static let pinnedHosts = 256

    let policy: EntryNetworkPolicy
    private let pinned = Mutex<[String: Pinned]>([:])

    private struct Pinned {
        let address: IPAddress
        let client: HTTPClient
        let since: ContinuousClock.Instant
    }

    package init(policy: EntryNetworkPolicy) {
        self.policy = policy
    }

    /// AsyncHTTPClient requires every client shut down before it goes; a shutdown under way
    /// keeps its client until it is done.
    deinit {
        for pinned in pinned.withLock({ Array($0.values) }) { _ = pinned.client.shutdown() }
    }

    /// Resolves `entry`'s host and checks it; `EntryRefused` says why the server must not call it.
    @discardableResult
    package func check(_ entry: URL) async throws(EntryRefused) -> [IPAddress] {
        guard let host = Self.host(of: entry) else { throw EntryRefused(reason: "it has no host") }
        let addresses: [IPAddress]
        do {
            addresses = try await Self.resolve(host)
        } catch {
            throw EntryRefused(reason: "its host \(host) does not resolve")
        }
        if let refusal = policy.refusal(of: entry, resolvedTo: addresses) { throw EntryRefused(reason: refusal) }
        return addresses
    }

    /// One call whose whole answer, head and body, arrives within `timeout` and in at most
    /// `maximumBody` bytes: an entry that answers its head and then trickles is cut off too.
    package func call(_ request: HTTPClientRequest, to entry: URL, timeout: TimeAmount, maximumBody: Int,
              logger: Logger) async throws -> (response: HTTPClientResponse, body: ByteBuffer) {
        let client = try await client(for: entry)
        return try await withThrowingTaskGroup(of: (response: HTTPClientResponse, body: ByteBuffer)?.self) { group in
            group.addTask {
                let response = try await client.execute(request, timeout: timeout, logger: logger)
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

    /// A call whose head arrives within `timeout` and whose body streams on (a session's events).
    func stream(_ request: HTTPClientRequest, to entry: URL, timeout: TimeAmount, logger: Logger) async throws -> HTTPClientResponse {
        try await client(for: entry).execute(request, timeout: timeout, logger: logger)
    }

    /// The client pinned to an address of `entry`'s host that was just checked: the one pinned
    /// before while the host still resolves to it (round-robin names keep their connections),
    /// else a new one.
    private func client(for entry: URL) async throws -> HTTPClient {
        let addresses = try await check(entry)
        guard let host = Self.host(of: entry), let first = addresses.first else { throw EntryRefused(reason: "it has no host") }
        let (client, retired) = pinned.withLock { pinned -> (HTTPClient, [HTTPClient]) in
            if let current = pinned[host], addresses.contains(current.address) { return (current.client, []) }
            var retired = pinned[host].map { [$0.client] } ?? []
            if pinned[host] == nil, pinned.count >= Self.pinnedHosts, let oldest = pinned.min(by: { $0.value.since < $1.value.since }) {
                retired.append(oldest.value.client)
                pinned[oldest.key] = nil
            }
            let client = Self.makeClient(pinning: host, to: first)
            pinned[host] = Pinned(address: first, client: client, since: .now)
            return (client, retired)
        }
        // A host that moved: calls still under way on the old address end with its client.
        for old in retired { Task { try? await old.shutdown() } }
        return client
    }

    private static func makeClient(pinning host: String, to address: IPAddress) -> HTTPClient {
        var configuration = HTTPClient.Configuration(redirectConfiguration: .disallow, timeout: .init(connect: .seconds(2), read: idleLimit))
        configuration.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: RemoteSessions.standardTotal + 64)
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.dnsOverride = [host: address.description]
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration,
                          backgroundActivityLogger: Logger(label: "termcanvas.bff.entries", factory: { _ in SwiftLogNoOpLogHandler() }))
    }

    /// The URL's host as the HTTP client sees it, without an IPv6 literal's brackets.
    static func host(of url: URL) -> String? {
        guard var host = URLComponents(url: url, resolvingAgainstBaseURL: false)?.host, !host.isEmpty else { return nil }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        return host
    }

    /// Every address `host` resolves to (a literal in any spelling `getaddrinfo` takes, such as
    /// `2852039166`, resolves to itself), off the cooperative threads: the lookup blocks.
    static func resolve(_ host: String) async throws -> [IPAddress] {
        try await NIOThreadPool.singleton.runIfActive {
            var hints = addrinfo()
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
            var list: UnsafeMutablePointer<addrinfo>?
            let status = getaddrinfo(host, nil, &hints, &list)
            guard status == 0, let list else { throw EntryRefused(reason: "its host \(host) does not resolve") }
            defer { freeaddrinfo(list) }
            var addresses: [IPAddress] = []
            for info in sequence(first: list, next: { $0.pointee.ai_next }) {
                guard let socketAddress = info.pointee.ai_addr else { continue }
                switch info.pointee.ai_family {
                case AF_INET:
                    var v4 = socketAddress.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr }
                    addresses.append(contentsOf: IPAddress(bytes: withUnsafeBytes(of: &v4) { Array($0) }).map { [$0] } ?? [])
                case AF_INET6:
                    var v6 = socketAddress.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee.sin6_addr }
                    addresses.append(contentsOf: IPAddress(bytes: withUnsafeBytes(of: &v6) { Array($0) }).map { [$0] } ?? [])
                default:
                    continue
                }
            }
            var seen = Set<IPAddress>()
            return addresses.filter { seen.insert($0).inserted }
        }
    }
}

/// An entry the server must not call, and why (`EntryNetworkPolicy`).
package struct EntryRefused: Error, CustomStringConvertible {
    package let reason: String
    package var description: String { "the entry's address is refused: \(reason)" }
}
