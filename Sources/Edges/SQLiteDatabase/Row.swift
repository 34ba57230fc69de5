internal import CSQLite

/// One row of a query's result: its columns' names and values.
public struct Row: Sendable {
    public let columns: [String]
    public let values: [DatabaseValue]

    /// The value at `index` as `T`.
    /// - Throws: `SQLiteError` (SQLITE_MISMATCH) when the index is out of range or the value is
    ///   not a `T` (a file edited or damaged on disk): never a trap.
    public func decode<T: DatabaseValueConvertible>(_ type: T.Type = T.self, atIndex index: Int) throws -> T {
        guard values.indices.contains(index) else { throw Self.mismatch("no column \(index)") }
        guard let value = T.from(values[index]) else { throw Self.mismatch("column \(columns[index]) holds an unexpected value") }
        return value
    }

    /// The value of the column named `name` (as SQLite names it, exactly) as `T`.
    public func decode<T: DatabaseValueConvertible>(_ type: T.Type = T.self, forColumn name: String) throws -> T {
        guard let index = columns.firstIndex(of: name) else { throw Self.mismatch("no column \(name)") }
        return try decode(T.self, atIndex: index)
    }

    private static func mismatch(_ message: String) -> SQLiteError {
        SQLiteError(code: SQLITE_MISMATCH, message: message)
    }

    /// Every row of `sql`.
    public static func fetchAll(_ db: Database, sql: String, arguments: StatementArguments = []) throws -> [Row] {
        try db.rows(sql, arguments)
    }

    public static func fetchOne(_ db: Database, sql: String, arguments: StatementArguments = []) throws -> Row? {
        try db.rows(sql, arguments, limit: 1).first
    }
}

extension DatabaseValueConvertible {
    /// The first column of the first row of `sql`, nil when there is no row or it is NULL.
    public static func fetchOne(_ db: Database, sql: String, arguments: StatementArguments = []) throws -> Self? {
        guard let row = try db.rows(sql, arguments, limit: 1).first else { return nil }
        if row.values.first == .null { return nil }
        return try row.decode(Self.self, atIndex: 0)
    }

    /// The first column of every row of `sql`.
    public static func fetchAll(_ db: Database, sql: String, arguments: StatementArguments = []) throws -> [Self] {
        try db.rows(sql, arguments).map { try $0.decode(Self.self, atIndex: 0) }
    }
}
