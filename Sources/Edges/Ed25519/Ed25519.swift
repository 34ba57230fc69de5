import CLibCrypto

/// Ed25519 (RFC 8032) through the system's libcrypto, loaded on first use: a publisher's key made
/// from a random seed, its signatures, and their check.
public enum Ed25519 {
    /// libcrypto could not be loaded, or would not make a key or a signature.
    public struct Unavailable: Error, CustomStringConvertible {
        public let description: String
    }

    /// A new secret key's seed: 32 bytes from the system's random source.
    public static func newSeed() -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }

    /// The public key of the secret key whose seed is `seed`.
    public static func publicKey(ofSeed seed: [UInt8]) throws(Unavailable) -> [UInt8] {
        try load()
        guard seed.count == 32 else { throw Unavailable(description: "a secret key's seed is 32 bytes") }
        var key = [UInt8](repeating: 0, count: 32)
        guard tc_ed25519_public_key(seed, &key) == 1 else { throw Unavailable(description: "libcrypto would not make an Ed25519 key") }
        return key
    }

    /// The signature of `message` by the secret key whose seed is `seed`.
    public static func sign(_ message: [UInt8], seed: [UInt8]) throws(Unavailable) -> [UInt8] {
        try load()
        guard seed.count == 32 else { throw Unavailable(description: "a secret key's seed is 32 bytes") }
        var signature = [UInt8](repeating: 0, count: 64)
        guard tc_ed25519_sign(seed, message, message.count, &signature) == 1 else {
            throw Unavailable(description: "libcrypto would not sign with an Ed25519 key")
        }
        return signature
    }

    /// Whether `signature` is `publicKey`'s of `message`; false too when libcrypto cannot be loaded.
    public static func isValid(_ signature: [UInt8], of message: [UInt8], by publicKey: [UInt8]) -> Bool {
        guard (try? load()) != nil, signature.count == 64, publicKey.count == 32 else { return false }
        return tc_ed25519_verify(publicKey, message, message.count, signature) == 1
    }

    /// Loads libcrypto if it is not yet: what `sign` and `isValid` need, said before they are used.
    public static func load() throws(Unavailable) {
        if let problem = tc_crypto_load() { throw Unavailable(description: String(cString: problem)) }
    }
}
