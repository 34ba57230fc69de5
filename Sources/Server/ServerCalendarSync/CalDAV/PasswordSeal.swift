import Crypto
import Foundation

/// CalDAV passwords as the database keeps them: sealed with AES-GCM under a key derived (HKDF)
/// from the server's secret, so a copy of the database alone does not give them away, and every
/// instance of a team's server (which share the secret) can open them.
struct PasswordSeal: Sendable {
    private let key: SymmetricKey

    init(serverSecret: String) {
        key = HKDF<SHA256>.deriveKey(inputKeyMaterial: SymmetricKey(data: Data(serverSecret.utf8)),
                                     info: Data("termcanvas caldav passwords v1".utf8), outputByteCount: 32)
    }

    /// `password` sealed, as base64 text.
    func seal(_ password: String) throws -> String {
        guard let combined = try AES.GCM.seal(Data(password.utf8), using: key).combined else { throw CalDAVProblem("the password could not be sealed") }
        return combined.base64EncodedString()
    }

    /// The password `sealed` holds.
    /// - Throws: when it was sealed under another secret (the server's secret changed).
    func open(_ sealed: String) throws(CalDAVProblem) -> String {
        guard let data = Data(base64Encoded: sealed), let box = try? AES.GCM.SealedBox(combined: data),
              let opened = try? AES.GCM.open(box, using: key) else {
            throw CalDAVProblem("the stored password cannot be opened (the server's secret changed): run calendar connect again")
        }
        return String(decoding: opened, as: UTF8.self)
    }
}
