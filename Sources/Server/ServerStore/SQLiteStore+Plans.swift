import Foundation
import GRDB

/// How SQLite runs the store core's plans: in GRDB's synchronous calls, each statement prepared
/// once and cached by its text (a list has one text per combination of filters).
extension SQLiteStore {
    package func runWrite<T>(_ plan: Plan<T>) async throws -> T {
        try write { db in try run(plan, in: db) }
    }

    package func runRead<T>(_ plan: Plan<T>, snapshot: Bool) async throws -> T {
        // One SELECT is atomic in SQLite: it needs no BEGIN and COMMIT around it.
        snapshot ? try read { db in try run(plan, in: db) } : try unsafeRead { db in try run(plan, in: db) }
    }

    /// Runs `plan` in `db`'s transaction. A lock needs nothing: SQLite runs one write at a time.
    func run<T>(_ plan: Plan<T>, in db: Database) throws -> T {
        var plan = plan
        while true {
            switch plan {
            case .done(let result): return result
            case .failed(let error): throw error
            case .query(let statement, let next): plan = try next(try Self.rows(statement, in: db))
            case .record(let event, let next):
                try record(event, in: db)
                plan = next
            case .lock(_, let next): plan = next
            }
        }
    }

    private static func rows(_ statement: SQLStatement, in db: Database) throws -> SQLRows {
        let (text, values) = statement.rendered(placeholder: { _ in "?" }, spell: spelling)
        let cursor = try Row.fetchCursor(try db.cachedStatement(sql: text), arguments: StatementArguments(values.map(databaseValue)))
        var rows = SQLRows()
        while let row = try cursor.next() {
            rows.append(row: row.databaseValues.lazy.map(sqlValue))
        }
        return rows
    }

    static func spelling(_ word: SQLWord) -> String {
        switch word {
        case .now: "strftime('%Y-%m-%d %H:%M:%f', 'now')"  // as GRDB stores a `Date`
        case .forUpdate, .forShare, .forUpdateSkipLocked, .bytewise: ""
        case .likeIgnoringCase: "LIKE"
        case .autoIncrementKey: "INTEGER PRIMARY KEY AUTOINCREMENT"
        }
    }

    private static func databaseValue(_ value: SQLValue) -> DatabaseValue {
        switch value {
        case .integer(let integer): integer.databaseValue
        case .real(let real): real.databaseValue
        case .text(let text): text.databaseValue
        case .blob(let blob): blob.databaseValue
        case .bool(let bool): bool.databaseValue
        case .moment(let date): date.databaseValue
        case .null: .null
        }
    }

    private static func sqlValue(_ value: DatabaseValue) -> SQLValue {
        switch value.storage {
        case .null: .null
        case .int64(let integer): .integer(integer)
        case .double(let real): .real(real)
        case .string(let text): .text(text)
        case .blob(let blob): .blob(blob)
        }
    }
}
