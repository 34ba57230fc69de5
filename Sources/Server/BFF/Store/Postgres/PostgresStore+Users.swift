import Foundation
import PostgresNIO

extension PostgresStore {
    @discardableResult
    public func addUser(name: String, password: String?, isAdmin: Bool) async throws -> BFFUser {
        let hash = try await Passwords.newUserHash(name: name, password: password, cost: bcryptCost)
        let inserted = try await rows("""
            INSERT INTO users (name, password_hash, is_admin) VALUES (\(name), \(hash), \(isAdmin))
            ON CONFLICT (name) DO NOTHING RETURNING id
            """, as: Int64.self)
        guard let id = inserted.first else { throw BFFStoreError.userExists(name: name) }
        return BFFUser(id: id, name: name, isAdmin: isAdmin)
    }

    public func authenticate(name: String, password: String) async throws -> BFFUser? {
        let found = try await rows("SELECT id, password_hash, is_admin FROM users WHERE name = \(name)", as: (Int64, String, Bool).self)
        guard let (id, hash, isAdmin) = found.first, hash != Passwords.none else {
            try await Passwords.spendAsMuchAsACheck(password, cost: bcryptCost)
            return nil
        }
        return try await Passwords.verify(password, hash: hash) ? BFFUser(id: id, name: name, isAdmin: isAdmin) : nil
    }

    public func user(id: Int64) async throws -> BFFUser? {
        try await rows("SELECT name, is_admin FROM users WHERE id = \(id)", as: (String, Bool).self).first
            .map { BFFUser(id: id, name: $0.0, isAdmin: $0.1) }
    }

    public func user(named name: String) async throws -> BFFUser? {
        try await rows("SELECT id, is_admin FROM users WHERE name = \(name)", as: (Int64, Bool).self).first
            .map { BFFUser(id: $0.0, name: name, isAdmin: $0.1) }
    }

    public func users() async throws -> [BFFUser] {
        try await rows(#"SELECT id, name, is_admin FROM users ORDER BY name COLLATE "C""#, as: (Int64, String, Bool).self)
            .map { BFFUser(id: $0.0, name: $0.1, isAdmin: $0.2) }
    }

    @discardableResult
    public func setAdmin(name: String, _ isAdmin: Bool) async throws -> Bool {
        try await !rows("UPDATE users SET is_admin = \(isAdmin) WHERE name = \(name) RETURNING id", as: Int64.self).isEmpty
    }

    @discardableResult
    public func deleteUser(name: String) async throws -> Bool {
        let deleted = try await rows("DELETE FROM users WHERE name = \(name) RETURNING id", as: Int64.self)
        for id in deleted { todoPages.invalidate(owner: id) }
        return !deleted.isEmpty
    }
}
