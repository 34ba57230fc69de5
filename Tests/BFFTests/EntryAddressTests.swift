@testable import BFF
import Foundation
import HummingbirdTesting
import ServerAPI
@testable import ServerHTTP
@testable import ServerProxy
import Testing

/// A remote app's entry is a URL an admin typed: the server resolves it and checks the address it
/// would connect to, whatever the spelling, at the publish and at every call.
@Suite("BFF entry addresses")
struct EntryAddressTests {
    /// The cloud metadata service (link-local) in every spelling `getaddrinfo` reads, the
    /// unspecified address, link-local IPv6 and multicast.
    static let neverAllowed = [
        "http://169.254.169.254/latest/meta-data/", "http://2852039166/", "http://0xa9fea9fe/", "http://0251.0376.0251.0376/",
        "http://[::ffff:169.254.169.254]/", "http://0.0.0.0:7450/", "http://0/", "http://[::]/", "http://[fe80::1]/",
        "http://224.0.0.1/", "http://255.255.255.255/",
    ]

    @Test("never: link-local, unspecified and multicast, however the address is spelled", arguments: neverAllowed)
    func neverAllowedAtPublish(entry: String) async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addAdmins("root")
        try await harness.withServer { client in
            let root = try await client.token(for: "root")
            let refused = try await RegistryTests.publish(client, token: root, RegistryTests.manifest(version: "1.0.0"), entry: entry)
            #expect(refused.status == .badRequest, "\(entry)")
            #expect(refused.apiError?.field == "entry")
            #expect(refused.apiError?.error.contains("never allowed") == true, "\(refused.apiError?.error ?? "")")
        }
    }

    @Test("loopback and private ranges: only where the server is told; a name is judged by what it resolves to")
    func loopbackAndPrivate() async throws {
        let team = EntryClient(policy: EntryNetworkPolicy(allowedNetworks: [], allowsLoopback: false, allowsPlainHTTP: true))
        for entry in ["http://127.0.0.1:5432/", "http://localhost:5432/", "http://[::1]:5432/", "http://10.1.2.3/", "http://192.168.0.9/",
                      "http://172.16.0.1/", "http://100.64.0.1/", "http://[fd00::1]/", "http://[::ffff:10.0.0.1]/"] {
            await #expect(throws: EntryRefused.self, "\(entry)") { try await team.check(try #require(URL(string: entry))) }
        }
        let allowed = EntryClient(policy: EntryNetworkPolicy(allowedNetworks: [try #require(IPNetwork("10.0.0.0/8"))],
                                                             allowsLoopback: false, allowsPlainHTTP: true))
        try await allowed.check(try #require(URL(string: "http://10.1.2.3/")))
        await #expect(throws: EntryRefused.self) { try await allowed.check(try #require(URL(string: "http://192.168.0.9/"))) }
        let developer = EntryClient(policy: EntryNetworkPolicy(allowedNetworks: [], allowsLoopback: true, allowsPlainHTTP: false))
        try await developer.check(try #require(URL(string: "http://localhost:8080/")))
    }

    @Test("plain http:// only on loopback unless the operator allows it; https anywhere public")
    func plainHTTP() async throws {
        let strict = EntryClient(policy: EntryNetworkPolicy(allowedNetworks: [], allowsLoopback: true, allowsPlainHTTP: false))
        await #expect(throws: EntryRefused.self) { try await strict.check(try #require(URL(string: "http://93.184.216.34/"))) }
        try await strict.check(try #require(URL(string: "https://93.184.216.34/")))
        try await strict.check(try #require(URL(string: "http://127.0.0.1:9/")))
        let lenient = EntryClient(policy: EntryNetworkPolicy(allowedNetworks: [], allowsLoopback: true, allowsPlainHTTP: true))
        try await lenient.check(try #require(URL(string: "http://93.184.216.34/")))
    }

    @Test("every call is checked again: an entry the rules refuse is never connected to")
    func everyCallIsChecked() async throws {
        let team = EntryClient(policy: EntryNetworkPolicy(allowedNetworks: [], allowsLoopback: false))
        let entry = try #require(URL(string: "http://127.0.0.1:9/"))
        await #expect(throws: EntryRefused.self) {
            _ = try await team.call(.init(url: "http://127.0.0.1:9/health"), to: entry, timeout: .seconds(1), maximumBody: 100,
                                    logger: .init(label: "test"))
        }
    }

    @Test("networks in CIDR notation", arguments: [
        ("10.0.0.0/8", "10.255.0.1", true), ("10.0.0.0/8", "11.0.0.1", false), ("172.16.0.0/12", "172.31.255.255", true),
        ("172.16.0.0/12", "172.32.0.0", false), ("fd00::/8", "fd12::1", true), ("fd00::/8", "fe80::1", false),
        ("127.0.0.1", "127.0.0.1", true), ("127.0.0.1", "127.0.0.2", false), ("0.0.0.0/0", "8.8.8.8", true), ("10.0.0.0/8", "::1", false),
    ])
    func networks(network: String, address: String, inside: Bool) throws {
        #expect(try #require(IPNetwork(network)).contains(try #require(IPAddress(address))) == inside)
    }

    @Test("what --allow-entry-network refuses", arguments: ["10.0.0.0/33", "10.0.0/8", "ten", "::1/129", "10.0.0.0/-1", "10.0.0.0/"])
    func badNetworks(text: String) {
        #expect(IPNetwork(text) == nil)
    }
}
