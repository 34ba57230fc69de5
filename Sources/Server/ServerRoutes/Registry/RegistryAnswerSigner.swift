import AppPackages
import Crypto
import Foundation
import ServerAPI

/// Signs the registry's answers about an app (`RegistryAnswerSignature`) with the registry's
/// Ed25519 key, derived from the server's signing secret (HKDF), so every instance of a server signs
/// with one key and no other secret is kept.
package struct RegistryAnswerSigner: Sendable {
    private let key: Curve25519.Signing.PrivateKey
    private let clock: @Sendable () -> Date

    package init(secret: String, clock: @escaping @Sendable () -> Date) {
        let seed = HKDF<SHA256>.deriveKey(inputKeyMaterial: SymmetricKey(data: Data(secret.utf8)),
                                          info: Data("termcanvas registry answers v1".utf8), outputByteCount: 32)
        // 32 bytes are always a seed.
        key = seed.withUnsafeBytes { try! Curve25519.Signing.PrivateKey(rawRepresentation: Data($0)) }
        self.clock = clock
    }

    /// The registry's public key, base64.
    package var publicKey: String { Base64.encode(Array(key.publicKey.rawRepresentation)) }

    /// The signature of `body`, the answer at `path` about an app at `revision`.
    package func sign(_ body: [UInt8], path: String, revision: Int) throws -> RegistryAnswerSignature {
        let expires = Int(clock().timeIntervalSince1970) + RegistryAnswerSignature.lifetime
        let statement = SignedStatement.registryAnswer(path: path, revision: revision, expires: expires, digest: SHA256Digest.hex(of: body))
        return RegistryAnswerSignature(key: publicKey, revision: revision, expires: expires,
                                       signature: Base64.encode(Array(try key.signature(for: statement))))
    }
}
