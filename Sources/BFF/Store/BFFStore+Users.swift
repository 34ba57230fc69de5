import Foundation
import GRDB
import HummingbirdBcrypt

/// A user as the store gives it out: no password hash.
public struct BFFUser: Sendable, Equatable {
    public let id: Int64
    public let name: String
    /// May publish and withdraw micro-apps in the registry.
    public var isAdmin = false

    /// The rule for user names: 1 to 64 letters, digits, '.', '_' or '-'.
    public static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && name.count <= 64 && name.allSatisfy { $0.isLetter || $0.isNumber || "._-".contains($0) }
    }
}

extension BFFStore {
    /// Adds a user with a bcrypt hash of `password`; with no password, an account that only a
    /// token opens (the embedded server's local user). An admin may publish micro-apps.
    /// - Throws: `BFFStoreError.userExists` or `.invalidUserName`.
    @discardableResult
    public func addUser(name: String, password: String?, isAdmin: Bool = false) throws -> BFFUser {
        guard BFFUser.isValidName(name) else {
            throw BFFStoreError.invalidUserName("1 to 64 letters, digits, '.', '_' or '-'")
        }
        let hash = password.map { Bcrypt.hash($0, cost: bcryptCost) } ?? UserRecord.noPassword
        return try writer.write { db in
            if try UserRecord.filter(UserRecord.Columns.name == name).fetchCount(db) > 0 {
                throw BFFStoreError.userExists(name: name)
            }
            var record = UserRecord(id: nil, name: name, passwordHash: hash, isAdmin: isAdmin, createdAt: Date())
            try record.insert(db)
            return BFFUser(id: record.id!, name: name, isAdmin: isAdmin)
        }
    }

    /// The user whose name and password match, or nil; takes as long for an unknown name as for a wrong password.
    public func authenticate(name: String, password: String) throws -> BFFUser? {
        let record = try writer.read { db in try UserRecord.filter(UserRecord.Columns.name == name).fetchOne(db) }
        guard let record, let id = record.id, record.passwordHash != UserRecord.noPassword else {
            // Spend the same work as a real check, so timing does not tell which names exist.
            _ = Bcrypt.hash(password, cost: bcryptCost)
            return nil
        }
        return Bcrypt.verify(password, hash: record.passwordHash) ? record.user(id: id) : nil
    }

    /// The user with this id, or nil when there is none (e.g. deleted since a token was issued).
    public func user(id: Int64) throws -> BFFUser? {
        // Every authenticated request asks this: one cached statement, no query building, no
        // transaction around it (a single SELECT is atomic).
        try writer.unsafeRead { db in
            try Row.fetchOne(try db.cachedStatement(sql: "SELECT name, isAdmin FROM user WHERE id = ?"), arguments: [id])
                .map { BFFUser(id: id, name: $0["name"], isAdmin: $0["isAdmin"]) }
        }
    }

    /// The user with this name, or nil.
    public func user(named name: String) throws -> BFFUser? {
        try writer.read { db in
            try UserRecord.filter(UserRecord.Columns.name == name).fetchOne(db).flatMap { record in
                record.id.map(record.user)
            }
        }
    }

    /// All users, by name.
    public func users() throws -> [BFFUser] {
        try writer.read { db in
            try UserRecord.order(UserRecord.Columns.name).fetchAll(db).compactMap { record in
                record.id.map(record.user)
            }
        }
    }

    /// Makes a user an admin or not; returns whether there is such a user.
    @discardableResult
    public func setAdmin(name: String, _ isAdmin: Bool) throws -> Bool {
        try writer.write { db in
            try db.execute(sql: "UPDATE user SET isAdmin = ? WHERE name = ?", arguments: [isAdmin, name])
            return db.changesCount > 0
        }
    }

    /// Deletes a user and, by cascade, their items; returns whether there was one.
    @discardableResult
    public func deleteUser(name: String) throws -> Bool {
        try writer.write { db in try UserRecord.filter(UserRecord.Columns.name == name).deleteAll(db) > 0 }
    }
}
