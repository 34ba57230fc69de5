/// A package version's signature by its publisher, as `apps publish` sends it (the
/// `TermCanvas-Package-Signature` header, this value as JSON) and the registry's page carries it.
///
/// Keys and signatures are Ed25519's, in standard base64 (32 and 64 bytes). `signature` is `key`'s
/// of the version's statement (its id, version and archive's digest: `SignedStatement` in
/// AppPackages), so the registry cannot change an archive or move a signature to another version.
public struct PackageSignature: Codable, Sendable, Equatable {
    /// The publisher's public key that signed.
    public var key: String
    public var signature: String
    /// How a publisher's earlier keys handed over to this one, oldest first: each entry's key
    /// signed the next entry's key, and the last signed `key`. Empty for a key never rotated.
    public var endorsements: [KeyEndorsement]

    public init(key: String, signature: String, endorsements: [KeyEndorsement] = []) {
        self.key = key
        self.signature = signature
        self.endorsements = endorsements
    }

    /// The most endorsements a signature carries (a publisher's rotations kept).
    public static let maximumEndorsements = 16

    /// The longest the header's JSON may be, in bytes.
    public static let maximumBytes = 4096

    /// The header `apps publish` sends it in.
    public static let header = "TermCanvas-Package-Signature"
}

/// One hand-over between a publisher's keys: `key` (the older) signed the next key.
public struct KeyEndorsement: Codable, Sendable, Equatable {
    public var key: String
    public var signature: String

    public init(key: String, signature: String) {
        self.key = key
        self.signature = signature
    }
}
