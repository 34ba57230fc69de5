import CanvasCore
import FoundationEssentials
import SQLiteDatabase

/// Shared canvases kept on this machine: the last copy of each canvas a dashboard opened from a
/// server, so it opens offline and the edits made meanwhile survive a restart.
extension LayoutStore {
    /// Keeps `copy` as the one of its name on `server` (a name for the server and user), and as
    /// the only one of its canvas there (a canvas renamed on the server leaves its old name).
    public func keep(_ copy: SharedCanvasCopy, server: String, at date: Date = Date()) throws {
        let text = String(decoding: try JSONEncoder().encode(copy), as: UTF8.self)
        try write { db in
            try db.execute(sql: "DELETE FROM sharedCopy WHERE server = ? AND canvas = ? AND name != ?",
                           arguments: [server, copy.canvas, copy.name])
            try db.execute(sql: """
                INSERT INTO sharedCopy (server, name, canvas, copy, updatedAt) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (server, name) DO UPDATE SET canvas = excluded.canvas, copy = excluded.copy, updatedAt = excluded.updatedAt
                """, arguments: [server, copy.name, copy.canvas, text, date.timeIntervalSince1970])
        }
    }

    /// The copy of the canvas `name` on `server`, if this machine has one.
    /// - Throws: `LayoutStoreError.corrupt` when the row is not a copy this version reads.
    public func sharedCopy(named name: String, server: String) throws -> SharedCanvasCopy? {
        let text = try read { db in
            try Row.fetchOne(db, sql: "SELECT copy FROM sharedCopy WHERE server = ? AND name = ?", arguments: [server, name])
                .map { row -> String in try row.decode(forColumn: "copy") }
        }
        guard let text else { return nil }
        do {
            return try JSONDecoder().decode(SharedCanvasCopy.self, from: Data(text.utf8))
        } catch {
            throw LayoutStoreError.invalidLayout(name: name, reason: "its copy of the shared canvas is unreadable (\(error)); open it again with the server up")
        }
    }

    /// The names of the canvases of `server` this machine has a copy of.
    public func sharedCopyNames(server: String) throws -> [String] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT name FROM sharedCopy WHERE server = ? ORDER BY name", arguments: [server])
                .map { row in try row.decode(forColumn: "name") }
        }
    }

    /// Forgets the copy of `name` on `server` (the canvas was moved back, unshared or deleted).
    public func forgetSharedCopy(named name: String, server: String) throws {
        try write { db in
            try db.execute(sql: "DELETE FROM sharedCopy WHERE server = ? AND name = ?", arguments: [server, name])
        }
    }
}
