import CanvasUI
import AppPackages
import CommandSupport
import Ed25519
import PlainText

/// Ed25519's check through libcrypto, for what publishers and registries sign.
package enum SignatureChecking {
    /// The check, once libcrypto is loaded.
    /// - Throws: `CommandError` naming `what` could not be checked when libcrypto cannot be loaded.
    package static func ready(toCheck what: String) throws -> SignatureCheck {
        do {
            try Ed25519.load()
        } catch {
            throw CommandError(TerminalText.safe("could not check \(what): libcrypto (OpenSSL 3) could not be loaded (\(error.description)); "
                                                 + "install libssl3 and try again. Nothing was changed"))
        }
        return { signature, message, key in Ed25519.isValid(signature, of: message, by: key.bytes) }
    }
}

package extension PackagePage {
    /// What the page's signature says of its publisher, against the key `pinned` at an earlier install.
    /// - Throws: `CommandError` when libcrypto, which checks it, cannot be loaded.
    func trust(pinned: PublicKey?) throws -> PublisherTrust {
        PublisherTrust(package.signature, id: id, version: version, digest: package.digest, pinned: pinned,
                       check: try SignatureChecking.ready(toCheck: "\(id)'s signature"))
    }
}

/// Whether a package's version is taken, by its publisher's signature: said, refused or asked.
package enum PublisherCheck {
    /// Prints what `trust` means for `page`; refuses a forged signature, an unsigned version after a
    /// signed one, and (unless the user confirms in a terminal) another key than the pinned one.
    /// - Parameter unattended: `--yes`: a changed key is still taken only when confirmed in a terminal.
    /// - Returns: the key to pin from now on; nil for an unsigned version with nothing pinned.
    package static func vet(_ trust: PublisherTrust, pinned: PublicKey?, page: PackagePage, unattended: Bool) throws -> PublicKey? {
        let name = TerminalText.safe("\(page.id) \(page.version) from \(page.registry.name)")
        switch trust {
        case .firstUse(let key):
            print("  signed by its publisher's key \(key.fingerprint), new to you: kept, so later versions must be signed by it")
            return key
        case .pinned(let key):
            print("  signed by its publisher's key \(key.fingerprint), the one kept since you installed it")
            return key
        case .rotated(let from, let to):
            print("  signed by its publisher's new key \(to.fingerprint), handed over by the key you kept, \(from.fingerprint): kept now")
            return to
        case .unsigned:
            try refuse(trust, pinned: pinned, page: page)
            print("  Careful: not signed by its publisher (published before packages were signed); its registry's word is all there is")
            return nil
        case .forged:
            try refuse(trust, pinned: pinned, page: page)
            return nil
        case .otherKey(let pinned, let signer):
            print("""
                  Careful: it is signed by \(signer.fingerprint),
                  not by \(pinned.fingerprint), the key you kept when you installed it, and that key did not hand over to it.
                  Someone else may have published it (whoever runs the registry, or took the publisher's account), or the
                  publisher lost their key: ask them which key is theirs before you take it.
                """)
            guard !unattended, Confirmation.isInteractive else {
                throw CommandError("refused \(name): signed by another key than the one you kept; a new key is taken only when you "
                                   + "confirm it in a terminal. Nothing was installed")
            }
            guard Confirmation.ask("y takes it and keeps the new key from now on; Enter, Esc or n refuses it.", enterSays: false) else {
                throw CommandError("refused \(name): you kept \(pinned.fingerprint). Nothing was installed")
            }
            print("")
            return signer
        }
    }

    /// Refuses what is never taken: a signature that does not hold, and an unsigned version after a signed one.
    package static func refuse(_ trust: PublisherTrust, pinned: PublicKey?, page: PackagePage) throws {
        let name = TerminalText.safe("\(page.id) \(page.version) from \(page.registry.name)")
        switch trust {
        case .forged:
            throw CommandError("refused \(name): its signature is not its publisher key's of this version and archive. It was changed on "
                               + "the server or on the way; nothing was installed. Tell the registry's admin.")
        case .unsigned:
            guard let pinned else { return }
            throw CommandError("refused \(name): it is not signed, but what you have was signed by \(pinned.fingerprint). It may "
                               + "have been changed on the server; nothing was installed. Tell the registry's admin.")
        case .firstUse, .pinned, .rotated, .otherKey:
            return
        }
    }
}
