import HummingbirdBcrypt

/// bcrypt, off the server's event loops and Swift's cooperative threads (`offThePool`): a hash at
/// cost 12 takes about a quarter of a second.
package enum Passwords {
    /// The hash of an account without a password: no bcrypt hash looks like it, so no password
    /// matches (the same convention as `!` in /etc/shadow).
    static let none = "!"
    /// The longest password a login reads, in characters (`TextLength`: and bytes); bcrypt itself
    /// reads the first 72 bytes.
    package static let maxLength = 1024

    /// What a new user's row keeps: their name checked, their password hashed (or `none`).
    /// - Throws: `BFFStoreError.invalidUserName`.
    static func newUserHash(name: String, password: String?, cost: UInt8) async throws -> String {
        guard BFFUser.isValidName(name) else {
            throw BFFStoreError.invalidUserName("1 to 64 letters, digits, '.', '_' or '-'")
        }
        guard let password else { return none }
        return try await hash(password, cost: cost)
    }

    static func hash(_ password: String, cost: UInt8) async throws -> String {
        try await offThePool { Bcrypt.hash(password, cost: cost) }
    }

    static func verify(_ password: String, hash: String) async throws -> Bool {
        try await offThePool { Bcrypt.verify(password, hash: hash) }
    }

    /// Spends the work of a real check on a name that has no password to check, so that timing
    /// does not tell which names exist.
    static func spendAsMuchAsACheck(_ password: String, cost: UInt8) async throws {
        _ = try await hash(password, cost: cost)
    }
}
