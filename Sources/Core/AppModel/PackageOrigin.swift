import FoundationEssentials

/// Where an installed app came from, when it came as a package (`termcanvas apps install`): the
/// registry, the version and its digest, and whether that version has since been withdrawn. An
/// installed package updates only from its registry.
public struct PackageOrigin: Codable, Sendable, Hashable {
    /// The registry's server: `scheme://host[:port]`, or `local` for this user's own server.
    public var registry: String
    public var version: String
    /// SHA-256 of the archive installed, lower-case hex.
    public var digest: String
    /// When the registry was last seen to have withdrawn this version (ISO 8601 UTC); nil while offered.
    public var withdrawnAt: String?
    /// ISO 8601 UTC.
    public var installedAt: String
    /// The publisher's key pinned at the first signed install (base64): a later version must be
    /// signed by it or by a key it handed over to. Nil while no signed version was installed.
    public var publisherKey: String?

    public init(registry: String, version: String, digest: String, withdrawnAt: String? = nil, installedAt: String, publisherKey: String? = nil) {
        self.registry = registry
        self.version = version
        self.digest = digest
        self.withdrawnAt = withdrawnAt
        self.installedAt = installedAt
        self.publisherKey = publisherKey
    }

    /// The name a registry goes by where several are followed: its host (and port), or `local`.
    public static func registryName(_ registry: String) -> String {
        guard let components = URLComponents(string: registry), let host = components.host else { return registry }
        return host + (components.port.map { ":\($0)" } ?? "")
    }

    public var registryName: String { Self.registryName(registry) }
}
