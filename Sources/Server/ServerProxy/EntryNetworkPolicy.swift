import Foundation
import ServerHTTP

/// Which addresses the server may connect to for a remote app's entry (health checks and the
/// proxy), and whether over plain HTTP. An entry is a URL an admin typed, so it could point the
/// server at what only the server can reach: a cloud's metadata service, the database's port.
///
/// - never: unspecified (`0.0.0.0/8`, `::`), link-local (`169.254.0.0/16`, `fe80::/10`, the
///   metadata services), multicast, broadcast and reserved addresses;
/// - loopback (`127.0.0.0/8`, `::1`): when `allowsLoopback` (a server that itself listens on
///   loopback: a developer's), or inside an allowed network;
/// - private ranges (`10/8`, `172.16/12`, `192.168/16`, `100.64/10`, `fc00::/7`): only inside an
///   allowed network (`serve --allow-entry-network CIDR`);
/// - anything else: yes.
///
/// IPv4-mapped IPv6 addresses are judged as the IPv4 address they carry.
package struct EntryNetworkPolicy: Sendable, Equatable {
    var allowedNetworks: [IPNetwork] = []
    var allowsLoopback = true
    /// Plain `http://` to an address that is not loopback: only when the operator says so
    /// (`serve --allow-http-entries`), since the entry's answers and the identity the server
    /// signs would cross the network in clear.
    var allowsPlainHTTP = false

    package init(allowedNetworks: [IPNetwork] = [], allowsLoopback: Bool = true, allowsPlainHTTP: Bool = false) {
        self.allowedNetworks = allowedNetworks
        self.allowsLoopback = allowsLoopback
        self.allowsPlainHTTP = allowsPlainHTTP
    }

    /// Why the server must not connect to `address`; nil when it may.
    func refusal(of address: IPAddress) -> String? {
        let address = address.unmapped
        if allowedNetworks.contains(where: { $0.contains(address) }) { return nil }
        switch Self.kind(of: address) {
        case .never(let what): return "\(address) is \(what), never allowed"
        case .loopback: return allowsLoopback ? nil : "\(address) is a loopback address (serve --allow-entry-network allows it)"
        case .privateRange: return "\(address) is in a private range (serve --allow-entry-network allows it)"
        case .global: return nil
        }
    }

    /// Why an entry at `url`, whose host resolved to `addresses`, must not be used; nil when it
    /// may. Every address must be allowed: a name that resolves to one allowed and one refused
    /// address is refused.
    func refusal(of url: URL, resolvedTo addresses: [IPAddress]) -> String? {
        guard !addresses.isEmpty else { return "its host resolves to no address" }
        if let refused = addresses.lazy.compactMap(refusal(of:)).first { return refused }
        let plain = url.scheme?.lowercased() == "http"
        if plain, !allowsPlainHTTP, !addresses.allSatisfy({ Self.kind(of: $0.unmapped) == .loopback }) {
            return "plain http:// is allowed on loopback only: use https:// (or serve --allow-http-entries)"
        }
        return nil
    }

    package enum Kind: Equatable {
        case never(String)
        case loopback
        case privateRange
        case global
    }

    package static func kind(of address: IPAddress) -> Kind {
        let ranges = address.bytes.count == 4 ? v4Ranges : v6Ranges
        return ranges.first { $0.network.contains(address) }?.kind ?? .global
    }

    private static func ranges(_ list: [(String, Kind)]) -> [(network: IPNetwork, kind: Kind)] {
        list.compactMap { text, kind in IPNetwork(text).map { ($0, kind) } }
    }

    private static let v4Ranges = ranges([
        ("0.0.0.0/8", .never("unspecified")), ("169.254.0.0/16", .never("link-local")), ("224.0.0.0/4", .never("multicast")),
        ("240.0.0.0/4", .never("reserved or broadcast")), ("127.0.0.0/8", .loopback), ("10.0.0.0/8", .privateRange),
        ("172.16.0.0/12", .privateRange), ("192.168.0.0/16", .privateRange), ("100.64.0.0/10", .privateRange),
    ])

    private static let v6Ranges = ranges([
        // `::1` first: it lies inside `::/96`.
        ("::1/128", .loopback), ("::/96", .never("unspecified or IPv4-compatible")), ("fe80::/10", .never("link-local")),
        ("ff00::/8", .never("multicast")), ("fc00::/7", .privateRange), ("fec0::/10", .privateRange),
    ])
}
