import Foundation

/// An IPv4 or IPv6 address, as the server would connect to it.
package struct IPAddress: Hashable, Sendable, CustomStringConvertible {
    /// 4 bytes for IPv4, 16 for IPv6, in network order.
    let bytes: [UInt8]

    package init?(bytes: [UInt8]) {
        guard bytes.count == 4 || bytes.count == 16 else { return nil }
        self.bytes = bytes
    }

    /// An address in its standard text form only (`inet_pton`: no `2852039166`, no `0xa9fea9fe`).
    package init?(_ text: String) {
        var v4 = in_addr()
        var v6 = in6_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            self.bytes = withUnsafeBytes(of: &v4) { Array($0) }
        } else if inet_pton(AF_INET6, text, &v6) == 1 {
            self.bytes = withUnsafeBytes(of: &v6) { Array($0) }
        } else {
            return nil
        }
    }

    /// The IPv4 address an IPv4-mapped IPv6 one (`::ffff:a.b.c.d`) stands for; else itself.
    package var unmapped: IPAddress {
        guard bytes.count == 16, bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF else { return self }
        return IPAddress(bytes: Array(bytes[12...])) ?? self
    }

    package var description: String {
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let family = bytes.count == 4 ? AF_INET : AF_INET6
        let written = bytes.withUnsafeBytes { inet_ntop(family, $0.baseAddress, &text, socklen_t(text.count)) }
        guard written != nil else { return "?" }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// A network in CIDR notation: `10.0.0.0/8`, `fd00::/8`, `127.0.0.1` (one address).
package struct IPNetwork: Hashable, Sendable, CustomStringConvertible {
    let address: IPAddress
    let prefix: Int

    package init?(_ text: String) {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let address = IPAddress(String(parts[0])) else { return nil }
        let width = address.bytes.count * 8
        let prefix: Int
        if parts.count == 2 {
            guard let given = Int(parts[1]), (0...width).contains(given), parts[1].allSatisfy(\.isASCII) else { return nil }
            prefix = given
        } else {
            prefix = width
        }
        self.init(address, prefix: prefix)
    }

    init(_ address: IPAddress, prefix: Int) {
        self.address = address
        self.prefix = min(max(prefix, 0), address.bytes.count * 8)
    }

    func contains(_ other: IPAddress) -> Bool {
        guard other.bytes.count == address.bytes.count else { return false }
        var bits = prefix
        for (mine, theirs) in zip(address.bytes, other.bytes) where bits > 0 {
            let mask: UInt8 = bits >= 8 ? 0xFF : ~(0xFF >> UInt8(bits))
            guard mine & mask == theirs & mask else { return false }
            bits -= 8
        }
        return true
    }

    package var description: String { "\(address)/\(prefix)" }
}

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
