import ServerAPI

/// What a package version's signature says of its publisher, against the key pinned when the app
/// was first installed from its registry.
public enum PublisherTrust: Equatable, Sendable {
    /// No signature (a version published before packages were signed).
    case unsigned
    /// A signature that is not the key's of this id, version and digest, or cannot be read.
    case forged
    /// Signed, and nothing is pinned yet: this key is pinned now.
    case firstUse(PublicKey)
    /// Signed by the pinned key.
    case pinned(PublicKey)
    /// Signed by a key the pinned one handed over to (through each key between).
    case rotated(from: PublicKey, to: PublicKey)
    /// Signed by a key the pinned one never handed over to.
    case otherKey(pinned: PublicKey, signer: PublicKey)

    /// The key that signed, when the signature holds.
    public var signer: PublicKey? {
        switch self {
        case .unsigned, .forged: nil
        case .firstUse(let key), .pinned(let key), .rotated(_, let key), .otherKey(_, let key): key
        }
    }

    public init(_ signature: PackageSignature?, id: String, version: String, digest: String, pinned: PublicKey?,
                check: SignatureCheck) {
        guard let signature else {
            self = .unsigned
            return
        }
        guard let signer = PublicKey(base64: signature.key), let bytes = Base64.decode(signature.signature), bytes.count == 64,
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
    private static func handsOver(from pinned: PublicKey, to signer: PublicKey, through endorsements: [KeyEndorsement],
                                  check: SignatureCheck) -> Bool {
        guard let start = endorsements.firstIndex(where: { PublicKey(base64: $0.key) == pinned }) else { return false }
        let chain = endorsements[start...]
        let successors = chain.dropFirst().map { PublicKey(base64: $0.key) } + [signer]
        return zip(chain, successors).allSatisfy { endorsement, next in
            guard let key = PublicKey(base64: endorsement.key), let next, let bytes = Base64.decode(endorsement.signature),
                  bytes.count == 64 else { return false }
            return check(bytes, SignedStatement.endorsement(of: next), key)
        }
    }
}
