import ServerAPI

/// What a registry's signature of an answer says, against the registry key the client pinned and
/// the newest revision of the app it saw there.
public enum RegistryAnswerCheck: Equatable, Sendable {
    /// Signed by the pinned key (or the first key seen, now pinned), current and not older than seen.
    case fresh(key: PublicKey, revision: Int)
    /// Not signed, by a registry never seen signing: a server older than signed answers.
    case unsigned
    /// Not signed by a registry seen signing before, or a signature that does not hold.
    case forged
    /// Signed by another key than the one pinned.
    case otherKey(pinned: PublicKey, signer: PublicKey)
    /// Past its expiry: an answer frozen in the past.
    case expired(at: Int)
    /// Of an older revision than one seen before: rolled back.
    case rolledBack(seen: Int, shown: Int)

    /// - Parameters:
    ///   - now: seconds since 1970.
    ///   - seen: the newest revision of this app seen at this registry, if any.
    public init(_ signature: RegistryAnswerSignature?, path: String, body: [UInt8], pinned: PublicKey?, seen: Int?, now: Int,
                check: SignatureCheck) {
        guard let signature else {
            self = pinned == nil ? .unsigned : .forged
            return
        }
        guard let key = PublicKey(base64: signature.key), let bytes = Base64.decode(signature.signature), bytes.count == 64,
              signature.revision >= 0,
              check(bytes, SignedStatement.registryAnswer(path: path, revision: signature.revision, expires: signature.expires,
                                                          digest: SHA256Digest.hex(of: body)), key) else {
            self = .forged
            return
        }
        if let pinned, pinned != key {
            self = .otherKey(pinned: pinned, signer: key)
        } else if signature.expires < now {
            self = .expired(at: signature.expires)
        } else if let seen, signature.revision < seen {
            self = .rolledBack(seen: seen, shown: signature.revision)
        } else {
            self = .fresh(key: key, revision: signature.revision)
        }
    }
}
