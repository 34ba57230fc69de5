import Foundation

/// An IPv4 or IPv6 address, as the server would connect to it.
package struct IPAddress: Hashable, Sendable, CustomStringConvertible {
    /// 4 bytes for IPv4, 16 for IPv6, in network order.
    package let bytes: [UInt8]

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

    package func contains(_ other: IPAddress) -> Bool {
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

/// The reverse proxies in front of the server (`serve --trusted-proxy`): addresses, or networks
/// where a proxy's address is not known ahead (a container network's). Their `X-Forwarded-For`
/// names the client for per-address limits, and their connections count against the total only.
package struct TrustedProxies: Sendable {
    let networks: [IPNetwork]

    package static let none = TrustedProxies(networks: [])

    /// Nil when any of `texts` is neither an address nor a network.
    package init?(_ texts: [String]) {
        var networks: [IPNetwork] = []
        for text in texts {
            guard let network = IPNetwork(text) else { return nil }
            networks.append(network)
        }
        self.init(networks: networks)
    }

    private init(networks: [IPNetwork]) {
        self.networks = networks
    }

    package var isEmpty: Bool { networks.isEmpty }

    /// Whether `address` (a peer's or a forwarded hop's text) is one of the proxies'; an IPv4
    /// address seen as IPv6 (`::ffff:10.0.0.1`) is its IPv4 one.
    package func contains(_ address: String) -> Bool {
        guard !networks.isEmpty, let address = IPAddress(address)?.unmapped else { return false }
        return networks.contains { $0.contains(address) }
    }
}
