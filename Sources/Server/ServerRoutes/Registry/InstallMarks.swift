import AppPackages
import Crypto
import Foundation

/// What the registry keeps to count a package's installs once per user without keeping who
/// installed it: per install, a mark made of the user and the app by an HMAC under a key derived
/// from the server's signing secret (HKDF). One user installing one app twice makes one mark; a
/// user's marks for two apps cannot be told to be one user's, nor a mark turned back into a user,
/// without that secret. The secret is kept in the data folder (on PostgreSQL in the database,
/// unless given by a flag), so this keeps a dump or backup of the database from saying who, not
/// an operator of the whole server.
package struct InstallMarks: Sendable {
    private let key: SymmetricKey

    package init(secret: String) {
        key = HKDF<SHA256>.deriveKey(inputKeyMaterial: SymmetricKey(data: Data(secret.utf8)),
                                     info: Data("termcanvas install marks v1".utf8), outputByteCount: 32)
    }

    /// The mark of `user`'s install of `app`: 64 hexadecimal digits.
    package func mark(user: Int64, app: String) -> String {
        let code = HMAC<SHA256>.authenticationCode(for: Data("\(user)\u{0}\(app)".utf8), using: key)
        return Base16.encode(code)
    }
}
