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

/// The registry's signature of an answer about one app (`GET /api/registry/apps/{id}`), in the
/// `TermCanvas-Registry-Signature` header as JSON: its key's signature of the path, the body's
/// SHA-256, the app's revision and an expiry, so a client notices an answer replayed from before
/// (expired, or of an older revision than one it saw), as TUF's timestamps do.
public struct RegistryAnswerSignature: Codable, Sendable, Equatable {
    /// The registry's public key (Ed25519, base64).
    public var key: String
    /// How many changes the app has seen: each version published, and each withdrawn, counts one.
    public var revision: Int
    /// Until when the answer holds, in seconds since 1970.
    public var expires: Int
    /// The key's signature (base64) of `termcanvas registry answer v1\npath PATH\nrevision N\nexpires T\nsha256 DIGEST\n`.
    public var signature: String

    public init(key: String, revision: Int, expires: Int, signature: String) {
        self.key = key
        self.revision = revision
        self.expires = expires
        self.signature = signature
    }

    public static let header = "TermCanvas-Registry-Signature"

    /// How long an answer holds after it is made, in seconds: a day, as TUF's timestamps.
    public static let lifetime = 24 * 60 * 60

    /// The revision of an app whose versions are `versions`: never smaller after any change the
    /// registry makes (versions are never deleted, and a withdrawal is never undone).
    public static func revision(of versions: [PublishedVersion]) -> Int {
        versions.count + versions.filter { $0.withdrawnAt != nil }.count
    }
}
