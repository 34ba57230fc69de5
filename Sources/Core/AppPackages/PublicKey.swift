import ServerAPI

/// An Ed25519 public key (32 bytes), a publisher's or a registry's, written in base64 as pages,
/// answers and key files carry it.
public struct PublicKey: Hashable, Sendable, CustomStringConvertible {
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

/// What a key signs: a publisher's, a package's version or the next key it hands over to; a
/// registry's, an answer. Each statement names what it is, so a signature of one kind cannot pass
/// for another.
public enum SignedStatement {
    /// The statement of `id`'s `version` whose archive's SHA-256 is `digest` (lower-case hex).
    public static func package(id: String, version: String, digest: String) -> [UInt8] {
        Array("termcanvas package v1\nid \(id)\nversion \(version)\nsha256 \(digest)\n".utf8)
    }

    /// The statement that `key` is the signer's successor.
    public static func endorsement(of key: PublicKey) -> [UInt8] {
        Array("termcanvas publisher key v1\nnext \(key.base64)\n".utf8)
    }

    /// The statement of a registry's answer at `path` (its body's SHA-256 `digest`), at the
    /// registry's `revision` of what it shows, good until `expires` (seconds since 1970).
    public static func registryAnswer(path: String, revision: Int, expires: Int, digest: String) -> [UInt8] {
        Array("termcanvas registry answer v1\npath \(path)\nrevision \(revision)\nexpires \(expires)\nsha256 \(digest)\n".utf8)
    }
}

/// Whether an Ed25519 `signature` is `key`'s of `message`: the check the caller brings (the
/// dashboard's through libcrypto, the server's through swift-crypto).
public typealias SignatureCheck = @Sendable (_ signature: [UInt8], _ message: [UInt8], _ key: PublicKey) -> Bool

