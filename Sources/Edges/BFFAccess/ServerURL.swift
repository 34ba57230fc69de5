import FoundationEssentials
import PlainText
#if canImport(Glibc)
import Glibc
#endif

/// The address of a remote BFF as users type it (`http://team.example:7450`), checked and reduced
/// to its origin, so `http://Team.example:7450/` and `http://team.example:7450` are one server.
public struct ServerURL: Sendable, Hashable, CustomStringConvertible {
    /// `scheme://host[:port]`, lower-case, no trailing slash.
    public let origin: String

    /// - Throws: `BFFAccessError.invalidServerURL` unless it is an http(s) URL with a host and
    ///   nothing after it but an optional `/`.
    public init(_ text: String) throws(BFFAccessError) {
        guard let components = URLComponents(string: text.trimmingWhitespace()),
              let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https"
        else { throw .invalidServerURL(text, reason: "expected http://HOST[:PORT] or https://HOST[:PORT]") }
        guard let host = components.host?.lowercased(), !host.isEmpty else {
            throw .invalidServerURL(text, reason: "it has no host")
        }
        guard components.path.isEmpty || components.path == "/", components.query == nil, components.fragment == nil,
              components.user == nil, components.password == nil
        else { throw .invalidServerURL(text, reason: "give the server's address only, without a path, query or user") }
        let hostPart = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        origin = "\(scheme)://\(hostPart)" + (components.port.map { ":\($0)" } ?? "")
    }

    public var url: URL { URL(string: origin)! }

    /// Whether what is sent to it stays on this machine: `localhost`, 127.0.0.0/8 or `::1`.
    public var isLoopback: Bool {
        guard let host = URLComponents(string: origin)?.host?.trimming(["[", "]"]) else { return false }
        var address = in_addr()
        let isIPv4Loopback = inet_pton(AF_INET, host, &address) == 1 && UInt32(bigEndian: address.s_addr) >> 24 == 127
        return host == "localhost" || host.hasSuffix(".localhost") || host == "::1" || isIPv4Loopback
    }

    /// Whether it is plain `http://` to another machine: a password and token sent there can be read on the way.
    public var isInsecure: Bool { origin.hasPrefix("http://") && !isLoopback }
    public var description: String { origin }

    /// A file name that names this server alone (`http_team.example_7450`).
    public var fileStem: String {
        String(origin.map { $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" ? $0 : "_" })
            .replacing("___", with: "_")
    }
}
