import CanvasUI
import AppPackages
import CommandSupport
import Ed25519
import FoundationEssentials
import PlainText
import PrivateFiles
import ServerAPI

/// A publisher's secret key, as `apps keys new` writes it (0600, in a 0700 folder): its seed, its
/// public key, and the hand-overs from the publisher's earlier keys, which every signature carries
/// so that installers who pinned an older key follow the rotation.
package struct PublisherKeyFile: Codable {
    /// What the file is, so a file of another kind is told apart.
    package var format = Self.format
    /// The secret key's 32-byte seed, base64.
    package var secret: String
    /// The public key, base64.
    package var publicKey: String
    package var endorsements: [KeyEndorsement]

    package static let format = "termcanvas publisher key v1"

    /// Where `apps publish` finds the key without `--key`.
    package static func defaultLocation(_ paths: Paths) -> URL { paths.configDirectory.appendingPathComponent("publisher.key") }

    /// A new key: after `earlier`, handed over by its signature.
    package static func make(after earlier: PublisherKeyFile? = nil) throws -> PublisherKeyFile {
        let seed = Ed25519.newSeed()
        let key = try words { try PublicKey(bytes: Ed25519.publicKey(ofSeed: seed)) }
        guard let key else { throw CommandError("libcrypto made a public key of the wrong size; nothing was written") }
        var endorsements: [KeyEndorsement] = []
        if let earlier {
            let handOver = try earlier.sign(SignedStatement.endorsement(of: key))
            endorsements = Array((earlier.endorsements + [KeyEndorsement(key: earlier.publicKey, signature: handOver)])
                .suffix(PackageSignature.maximumEndorsements))
        }
        return PublisherKeyFile(secret: Base64.encode(seed), publicKey: key.base64, endorsements: endorsements)
    }

    package var key: PublicKey? { PublicKey(base64: publicKey) }

    /// The signature of `message`, base64.
    package func sign(_ message: [UInt8]) throws -> String {
        guard let seed = Base64.decode(secret), seed.count == 32 else { throw CommandError("the publisher key's secret is not a key's; make a new one with termcanvas apps keys new --rotate") }
        return Base64.encode(try Self.words { try Ed25519.sign(message, seed: seed) })
    }

    /// This key's signature of `id`'s `version` whose archive has `digest`.
    package func signature(id: String, version: String, digest: String) throws -> PackageSignature {
        PackageSignature(key: publicKey, signature: try sign(SignedStatement.package(id: id, version: version, digest: digest)),
                         endorsements: endorsements)
    }

    /// The key in `file`; nil when there is none.
    /// - Throws: `CommandError` for a file others may read, or one that is not a key of ours.
    package static func read(_ file: URL) throws -> PublisherKeyFile? {
        let text: String?
        do {
            text = try PrivateFile.read(file)
        } catch {
            throw CommandError(TerminalText.safe("could not read your publisher key: \(error.description)"))
        }
        guard let text else { return nil }
        guard let key = try? JSONDecoder().decode(PublisherKeyFile.self, from: Data(text.utf8)), key.format == format, key.key != nil,
              Base64.decode(key.secret)?.count == 32 else {
            throw CommandError(TerminalText.safe("\(file.path) is not a publisher key (termcanvas apps keys new writes one)"))
        }
        return key
    }

    /// Writes the key to `file` (0600; its folder made 0700 when we make it).
    package func write(to file: URL) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do {
            try PrivatePath.makeDirectory(file.deletingLastPathComponent())
            try PrivateFile.write(String(decoding: try encoder.encode(self), as: UTF8.self) + "\n", to: file)
        } catch let error as PrivatePathError {
            throw CommandError(TerminalText.safe("could not write your publisher key: \(error.description)"))
        }
    }

    /// libcrypto's failure in our words.
    private static func words<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as Ed25519.Unavailable {
            throw CommandError("could not use libcrypto (OpenSSL 3) for Ed25519 keys: \(error.description). Install libssl3 and try again")
        }
    }
}
