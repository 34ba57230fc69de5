/// A schema as numbered steps, each applied once in its own transaction and recorded by its
/// identifier in `grdb_migrations`: the table GRDB's `DatabaseMigrator` keeps, so files written
/// by a TermCanvas that used GRDB open as they are, and the other way round.
public struct Migrations: Sendable {
    public struct Step: Sendable {
        let identifier: String
        let apply: @Sendable (Database) throws -> Void
    }

    private var steps: [Step] = []

    public init() {}

    /// Appends a step: append new ones, never edit or reorder a shipped one.
    public mutating func register(_ identifier: String, _ apply: @escaping @Sendable (Database) throws -> Void) {
        steps.append(Step(identifier: identifier, apply: apply))
    }

    /// The identifiers recorded as applied; none in a new file.
    public func applied(in db: Database) throws -> Set<String> {
        let exists = try Bool.fetchOne(db, sql: "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'grdb_migrations'") ?? false
        guard exists else { return [] }
        return Set(try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations"))
    }

    /// Whether the file has steps this program does not know: a newer TermCanvas wrote it.
    public func hasBeenSuperseded(_ db: Database) throws -> Bool {
        !(try applied(in: db)).subtracting(steps.map(\.identifier)).isEmpty
    }

    public func hasCompletedMigrations(_ db: Database) throws -> Bool {
        Set(steps.map(\.identifier)).isSubset(of: try applied(in: db))
    }

    /// Applies the steps not yet applied, in order, each in a transaction of its own. An
    /// up-to-date file is only read.
    public func migrate(_ queue: DatabaseQueue) throws {
        if try queue.read({ try hasCompletedMigrations($0) }) { return }
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE IF NOT EXISTS grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)")
        }
        for step in steps {
            try queue.write { db in
                guard try !applied(in: db).contains(step.identifier) else { return }
                try step.apply(db)
                try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES (?)", arguments: [step.identifier])
            }
        }
    }
}
