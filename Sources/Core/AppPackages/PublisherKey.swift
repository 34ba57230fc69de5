import ServerAPI

/// A publisher's public key (Ed25519, 32 bytes), written in base64 as pages and key files carry it.
public struct PublisherKey: Hashable, Sendable, CustomStringConvertible {
    public let bytes: [UInt8]

    public init?(bytes: [UInt8]) {
        guard bytes.count == 32 else { return nil }
        self.bytes = bytes
    }

    public init?(base64: String) {
        guard let bytes = Base64.decode(base64) else { return nil }
        self.init(bytes: bytes)
    }

    public var base64: String { Base64.encode(bytes) }

    /// What a person compares: the first 128 bits of the key's SHA-256, in groups of four hex
    /// digits (`ed25519 3f2a 9c1e 0b7d 44a1 …`).
    public var fingerprint: String {
        let hex = Array(SHA256Digest.hex(of: bytes).prefix(32))
        return "ed25519 " + stride(from: 0, to: hex.count, by: 4).map { String(hex[$0..<$0 + 4]) }.joined(separator: " ")
    }

    public var description: String { fingerprint }
}

/// What a publisher's key signs: a package's version, or the next key it hands over to. Each
/// statement names what it is, so a signature of one kind cannot pass for the other.
public enum SignedStatement {
    /// The statement of `id`'s `version` whose archive's SHA-256 is `digest` (lower-case hex).
    public static func package(id: String, version: String, digest: String) -> [UInt8] {
        Array("termcanvas package v1\nid \(id)\nversion \(version)\nsha256 \(digest)\n".utf8)
    }

    /// The statement that `key` is the signer's successor.
    public static func endorsement(of key: PublisherKey) -> [UInt8] {
        Array("termcanvas publisher key v1\nnext \(key.base64)\n".utf8)
    }
}

/// Whether an Ed25519 `signature` is `key`'s of `message`: the check the caller brings (the
/// dashboard's through libcrypto, the server's through swift-crypto).
public typealias SignatureCheck = @Sendable (_ signature: [UInt8], _ message: [UInt8], _ key: PublisherKey) -> Bool

/// What a package version's signature says of its publisher, against the key pinned when the app
/// was first installed from its registry.
public enum PublisherTrust: Equatable, Sendable {
    /// No signature (a version published before packages were signed).
    case unsigned
    /// A signature that is not the key's of this id, version and digest, or cannot be read.
    case forged
    /// Signed, and nothing is pinned yet: this key is pinned now.
    case firstUse(PublisherKey)
    /// Signed by the pinned key.
    case pinned(PublisherKey)
    /// Signed by a key the pinned one handed over to (through each key between).
    case rotated(from: PublisherKey, to: PublisherKey)
    /// Signed by a key the pinned one never handed over to.
    case otherKey(pinned: PublisherKey, signer: PublisherKey)

    /// The key that signed, when the signature holds.
    public var signer: PublisherKey? {
        switch self {
        case .unsigned, .forged: nil
        case .firstUse(let key), .pinned(let key), .rotated(_, let key), .otherKey(_, let key): key
        }
    }

    public init(_ signature: PackageSignature?, id: String, version: String, digest: String, pinned: PublisherKey?,
                check: SignatureCheck) {
        guard let signature else {
            self = .unsigned
            return
        }
        guard let signer = PublisherKey(base64: signature.key), let bytes = Base64.decode(signature.signature), bytes.count == 64,
              signature.endorsements.count <= PackageSignature.maximumEndorsements,
              check(bytes, SignedStatement.package(id: id, version: version, digest: digest), signer) else {
            self = .forged
            return
        }
        guard let pinned else {
            self = .firstUse(signer)
            return
        }
        guard signer != pinned else {
            self = .pinned(signer)
            return
        }
        self = Self.handsOver(from: pinned, to: signer, through: signature.endorsements, check: check)
            ? .rotated(from: pinned, to: signer) : .otherKey(pinned: pinned, signer: signer)
    }

    /// Whether the endorsements lead from `pinned` to `signer`, each hand-over signed by the key before it.
    private static func handsOver(from pinned: PublisherKey, to signer: PublisherKey, through endorsements: [KeyEndorsement],
                                  check: SignatureCheck) -> Bool {
        guard let start = endorsements.firstIndex(where: { PublisherKey(base64: $0.key) == pinned }) else { return false }
        let chain = endorsements[start...]
        let successors = chain.dropFirst().map { PublisherKey(base64: $0.key) } + [signer]
        return zip(chain, successors).allSatisfy { endorsement, next in
            guard let key = PublisherKey(base64: endorsement.key), let next, let bytes = Base64.decode(endorsement.signature),
                  bytes.count == 64 else { return false }
            return check(bytes, SignedStatement.endorsement(of: next), key)
        }
    }
}
