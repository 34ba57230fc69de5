import FoundationEssentials
import SQLiteDatabase

/// The user let a micro-app run, as its manifest was then (a changed manifest asks again).
public struct AppGrant: Hashable, Sendable {
    public let app: String
    /// SHA-256 of the manifest granted, in hex.
    public let digest: String
    public let grantedAt: Date
}

extension AppGrant {
    /// A row of `appGrant` (its time in seconds since 1970, see migration v4).
    init(row: Row) throws {
        try self.init(app: row.decode(forColumn: "app"), digest: row.decode(forColumn: "digest"),
                      grantedAt: Date(timeIntervalSince1970: row.decode(forColumn: "grantedAt")))
    }
}

extension LayoutStore {
    /// Records that the user granted what `app`'s manifest of `digest` asks for.
    public func grant(app: String, digest: String, at date: Date = Date()) throws {
        try write { db in
            try db.execute(sql: "INSERT OR REPLACE INTO appGrant (app, digest, grantedAt) VALUES (?, ?, ?)",
                           arguments: [app, digest, date.timeIntervalSince1970])
        }
    }

    /// The grant of `app`, whatever manifest it was for.
    public func grant(of app: String) throws -> AppGrant? {
        try read { db in
            try Row.fetchOne(db, sql: "SELECT app, digest, grantedAt FROM appGrant WHERE app = ?", arguments: [app])
                .map(AppGrant.init(row:))
        }
    }

    /// Every grant, by app.
    public func grants() throws -> [AppGrant] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT app, digest, grantedAt FROM appGrant ORDER BY app")
                .map(AppGrant.init(row:))
        }
    }

    /// Forgets the grant of `app`; the next start asks again.
    /// - Returns: whether there was one.
    @discardableResult
    public func revokeGrant(of app: String) throws -> Bool {
        try write { db in
            try db.execute(sql: "DELETE FROM appGrant WHERE app = ?", arguments: [app])
            return db.changesCount > 0
        }
    }
}
