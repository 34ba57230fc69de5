import AppPackages
import Crypto
import Ed25519
import Foundation
import ServerAPI
import Testing

/// Issue 52: packages signed by their publishers, Ed25519 as minisign and signify use it. The
/// dashboard signs and checks through libcrypto, the server through swift-crypto: each is checked
/// against RFC 8032's vectors and against the other.
struct PublisherSignatureTests {
    private static func hex(_ text: String) -> [UInt8] {
        stride(from: 0, to: text.count, by: 2).map { UInt8(text.dropFirst($0).prefix(2), radix: 16)! }
    }

    /// RFC 8032, section 7.1, tests 1 and 2.
    @Test(arguments: [
        ("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60", "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a", "",
         "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b"),
        ("4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb", "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c", "72",
         "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00"),
    ])
    func libcryptoSignsAsRFC8032Says(seed: String, publicKey: String, message: String, signature: String) throws {
        #expect(try Ed25519.publicKey(ofSeed: Self.hex(seed)) == Self.hex(publicKey))
        #expect(try Ed25519.sign(Self.hex(message), seed: Self.hex(seed)) == Self.hex(signature))
        #expect(Ed25519.isValid(Self.hex(signature), of: Self.hex(message), by: Self.hex(publicKey)))
        var changed = Self.hex(signature)
        changed[10] ^= 1
        #expect(!Ed25519.isValid(changed, of: Self.hex(message), by: Self.hex(publicKey)))
    }

    @Test func whatTheDashboardSignsTheServerChecks() throws {
        let seed = Ed25519.newSeed()
        let message = SignedStatement.package(id: "demo", version: "1.0.0", digest: String(repeating: "ab", count: 32))
        let signature = try Ed25519.sign(message, seed: seed)
        let key = try Curve25519.Signing.PublicKey(rawRepresentation: try Ed25519.publicKey(ofSeed: seed))
        #expect(key.isValidSignature(signature, for: message))
        let serverKey = Curve25519.Signing.PrivateKey()
        #expect(Ed25519.isValid(Array(try serverKey.signature(for: message)), of: message, by: Array(serverKey.publicKey.rawRepresentation)))
    }

    /// One value, one text: padding left off, bits past the last byte and stray characters are refused.
    @Test func base64IsCanonical() {
        for length in 0..<40 {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
            #expect(Base64.encode(bytes) == Data(bytes).base64EncodedString())
            #expect(Base64.decode(Base64.encode(bytes)) == bytes)
        }
        for text in ["AB==", "AAB=", "AA", "AA=", "A===", "AA==AA==", "AA A", "AA\n==", "AA-_"] {
            #expect(Base64.decode(text) == nil, "\(text)")
        }
        #expect(Base64.decode("AA==") == [0])
    }

    @Test func base16IsTwoLowerCaseDigitsAByte() {
        let bytes = (0...255).map(UInt8.init)
        #expect(Base16.encode(bytes) == bytes.map { String(format: "%02x", $0) }.joined())
        #expect(Base16.encode([]) == "")
    }

    private struct Publisher {
        let seed = Ed25519.newSeed()
        var key: PublicKey { PublicKey(bytes: try! Ed25519.publicKey(ofSeed: seed))! }

        func sign(_ message: [UInt8]) -> String { Base64.encode(try! Ed25519.sign(message, seed: seed)) }
        func endorse(_ next: Publisher) -> KeyEndorsement { KeyEndorsement(key: key.base64, signature: sign(SignedStatement.endorsement(of: next.key))) }
        func signature(_ version: String, digest: String = Self.digest, endorsements: [KeyEndorsement] = []) -> PackageSignature {
            PackageSignature(key: key.base64, signature: sign(SignedStatement.package(id: "demo", version: version, digest: digest)),
                             endorsements: endorsements)
        }

        static let digest = String(repeating: "0f", count: 32)
    }

    private func trust(_ signature: PackageSignature?, _ version: String = "1.1.0", pinned: PublicKey?) -> PublisherTrust {
        PublisherTrust(signature, id: "demo", version: version, digest: Publisher.digest, pinned: pinned) { signature, message, key in
            Ed25519.isValid(signature, of: message, by: key.bytes)
        }
    }

    @Test func theFirstKeyIsPinnedAndKeptTo() {
        let alice = Publisher()
        #expect(trust(alice.signature("1.1.0"), pinned: nil) == .firstUse(alice.key))
        #expect(trust(alice.signature("1.1.0"), pinned: alice.key) == .pinned(alice.key))
        #expect(trust(nil, pinned: alice.key) == .unsigned)
    }

    /// The registry cannot move a signature to another version or archive, nor make one up.
    @Test func aSignatureHoldsForItsOwnVersionAndArchiveOnly() {
        let alice = Publisher()
        #expect(trust(alice.signature("1.0.0"), "1.1.0", pinned: alice.key) == .forged)
        #expect(trust(alice.signature("1.1.0", digest: String(repeating: "1f", count: 32)), pinned: alice.key) == .forged)
        var made = alice.signature("1.1.0")
        made.signature = Base64.encode([UInt8](repeating: 7, count: 64))
        #expect(trust(made, pinned: alice.key) == .forged)
        made.signature = "not base64"
        #expect(trust(made, pinned: nil) == .forged)
    }

    @Test func anotherKeyIsNamedBesideThePinnedOne() {
        let alice = Publisher(), mallory = Publisher()
        #expect(trust(mallory.signature("1.1.0"), pinned: alice.key) == .otherKey(pinned: alice.key, signer: mallory.key))
        // An endorsement mallory made of herself by a key that is not the pinned one hands nothing over.
        let eve = Publisher()
        #expect(trust(mallory.signature("1.1.0", endorsements: [eve.endorse(mallory)]), pinned: alice.key)
                == .otherKey(pinned: alice.key, signer: mallory.key))
        // Nor does the pinned key's name on a hand-over it did not sign.
        let lie = KeyEndorsement(key: alice.key.base64, signature: eve.sign(SignedStatement.endorsement(of: mallory.key)))
        #expect(trust(mallory.signature("1.1.0", endorsements: [lie]), pinned: alice.key) == .otherKey(pinned: alice.key, signer: mallory.key))
    }

    /// Keys rotated twice since the pin: each hand-over signed by the key before it.
    @Test func aRotationSignedByThePinnedKeyIsTaken() {
        let first = Publisher(), second = Publisher(), third = Publisher()
        let chain = [first.endorse(second), second.endorse(third)]
        #expect(trust(third.signature("1.1.0", endorsements: chain), pinned: first.key) == .rotated(from: first.key, to: third.key))
        #expect(trust(third.signature("1.1.0", endorsements: chain), pinned: second.key) == .rotated(from: second.key, to: third.key))
        // A hand-over whose signature is of another key breaks the chain.
        let broken = [first.endorse(second), KeyEndorsement(key: second.key.base64, signature: second.sign(SignedStatement.endorsement(of: first.key)))]
        #expect(trust(third.signature("1.1.0", endorsements: broken), pinned: first.key) == .otherKey(pinned: first.key, signer: third.key))
    }

    @Test func aFingerprintIsTheKeysHashInGroups() throws {
        let key = try #require(PublicKey(bytes: Self.hex("d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a")))
        let hash = SHA256.hash(data: key.bytes).map { String(format: "%02x", $0) }.joined()
        #expect(key.fingerprint.hasPrefix("ed25519 " + hash.prefix(4) + " "))
        #expect(key.fingerprint.split(separator: " ").count == 9)
        #expect(key.fingerprint.replacingOccurrences(of: " ", with: "").dropFirst(7) == hash.prefix(32))
    }
}

/// Issue 52: a registry frozen in the past or rolled back went unnoticed. Its answers carry a
/// revision and an expiry under its signature.
struct RegistryAnswerCheckTests {
    private let seed = Ed25519.newSeed()
    private var key: PublicKey { PublicKey(bytes: try! Ed25519.publicKey(ofSeed: seed))! }
    private let body = Array(#"{"app":{"id":"demo"}}"#.utf8)
    private let path = "/api/registry/apps/demo"

    private func signed(revision: Int, expires: Int, body: [UInt8]? = nil, seed: [UInt8]? = nil) -> RegistryAnswerSignature {
        let seed = seed ?? self.seed
        let statement = SignedStatement.registryAnswer(path: path, revision: revision, expires: expires, digest: SHA256Digest.hex(of: body ?? self.body))
        return RegistryAnswerSignature(key: Base64.encode(try! Ed25519.publicKey(ofSeed: seed)), revision: revision, expires: expires,
                                       signature: Base64.encode(try! Ed25519.sign(statement, seed: seed)))
    }

    private func check(_ signature: RegistryAnswerSignature?, pinned: PublicKey?, seen: Int?, now: Int = 1_000) -> RegistryAnswerCheck {
        RegistryAnswerCheck(signature, path: path, body: body, pinned: pinned, seen: seen, now: now) { signature, message, key in
            Ed25519.isValid(signature, of: message, by: key.bytes)
        }
    }

    @Test func aCurrentAnswerIsFreshAndPinsItsKey() {
        #expect(check(signed(revision: 3, expires: 2_000), pinned: nil, seen: nil) == .fresh(key: key, revision: 3))
        #expect(check(signed(revision: 3, expires: 2_000), pinned: key, seen: 3) == .fresh(key: key, revision: 3))
    }

    @Test func anAnswerFrozenInThePastIsExpired() {
        #expect(check(signed(revision: 3, expires: 999), pinned: key, seen: 2) == .expired(at: 999))
    }

    @Test func anOlderRevisionThanSeenIsRolledBack() {
        #expect(check(signed(revision: 2, expires: 2_000), pinned: key, seen: 3) == .rolledBack(seen: 3, shown: 2))
    }

    @Test func anotherBodyAnotherPathOrAnotherKeyIsNotTheRegistrys() {
        #expect(check(signed(revision: 3, expires: 2_000, body: Array("{}".utf8)), pinned: key, seen: nil) == .forged)
        let other = Ed25519.newSeed()
        let signer = PublicKey(bytes: try! Ed25519.publicKey(ofSeed: other))!
        #expect(check(signed(revision: 3, expires: 2_000, seed: other), pinned: key, seen: nil) == .otherKey(pinned: key, signer: signer))
        // A signature whose revision or expiry was changed after signing.
        var moved = signed(revision: 2, expires: 2_000)
        moved.revision = 5
        #expect(check(moved, pinned: key, seen: 3) == .forged)
        moved = signed(revision: 3, expires: 999)
        moved.expires = 5_000
        #expect(check(moved, pinned: key, seen: nil) == .forged)
    }

    /// A server older than signed answers is read as before; one seen signing must sign.
    @Test func noSignatureIsAnOlderServerUntilOneWasSeen() {
        #expect(check(nil, pinned: nil, seen: nil) == .unsigned)
        #expect(check(nil, pinned: key, seen: 3) == .forged)
    }
}
