import Foundation
import GRDB

extension SQLiteStore {
    /// Adds a user with a bcrypt hash of `password`; with no password, an account that only a
    /// token opens (the embedded server's local user). An admin may publish micro-apps.
    /// - Throws: `BFFStoreError.userExists` or `.invalidUserName`.
    @discardableResult
    public func addUser(name: String, password: String?, isAdmin: Bool) async throws -> BFFUser {
        let hash = try await Passwords.newUserHash(name: name, password: password, cost: bcryptCost)
        return try write { db in
            if try UserRecord.filter(UserRecord.Columns.name == name).fetchCount(db) > 0 {
                throw BFFStoreError.userExists(name: name)
            }
            var record = UserRecord(id: nil, name: name, passwordHash: hash, isAdmin: isAdmin, createdAt: Date())
            try record.insert(db)
            return BFFUser(id: db.lastInsertedRowID, name: name, isAdmin: isAdmin)
        }
    }

    /// The user whose name and password match, or nil; takes as long for an unknown name as for a wrong password.
    public func authenticate(name: String, password: String) async throws -> BFFUser? {
        let record = try read { db in try UserRecord.filter(UserRecord.Columns.name == name).fetchOne(db) }
        guard let record, let id = record.id, record.passwordHash != Passwords.none else {
            try await Passwords.spendAsMuchAsACheck(password, cost: bcryptCost)
            return nil
        }
        return try await Passwords.verify(password, hash: record.passwordHash) ? record.user(id: id) : nil
    }

    /// The user with this id, or nil when there is none (e.g. deleted since a token was issued).
    public func user(id: Int64) async throws -> BFFUser? {
        // Every authenticated request asks this: one cached statement, no query building, no
        // transaction around it (a single SELECT is atomic).
        try unsafeRead { db in
            try Row.fetchOne(try db.cachedStatement(sql: "SELECT name, isAdmin FROM user WHERE id = ?"), arguments: [id])
                .map { BFFUser(id: id, name: $0["name"], isAdmin: $0["isAdmin"]) }
        }
    }

    /// The user with this name, or nil.
    public func user(named name: String) async throws -> BFFUser? {
        try read { db in
            try UserRecord.filter(UserRecord.Columns.name == name).fetchOne(db).flatMap { record in
                record.id.map(record.user)
            }
        }
    }

    /// All users, by name.
    public func users() async throws -> [BFFUser] {
        try read { db in
            try UserRecord.order(UserRecord.Columns.name).fetchAll(db).compactMap { record in
                record.id.map(record.user)
            }
        }
    }

    /// Makes a user an admin or not; returns whether there is such a user.
    @discardableResult
    public func setAdmin(name: String, _ isAdmin: Bool) async throws -> Bool {
        try write { db in
            try db.execute(sql: "UPDATE user SET isAdmin = ? WHERE name = ?", arguments: [isAdmin, name])
            return db.changesCount > 0
        }
    }

    /// Deletes a user and, by cascade, their items; returns whether there was one.
    @discardableResult
    public func deleteUser(name: String) async throws -> Bool {
        try write { db in try UserRecord.filter(UserRecord.Columns.name == name).deleteAll(db) > 0 }
    }
}
