import Foundation

/// What a statement returned: its rows' values in one array, row after row, so a list of a
/// hundred items costs one allocation rather than one per row.
package struct SQLRows: Sendable {
    /// Columns per row; nil until the first row.
    private(set) var width: Int?
    private var values: [SQLValue] = []

    var count: Int { width.map { $0 == 0 ? 0 : values.count / $0 } ?? 0 }
    var isEmpty: Bool { values.isEmpty }

    /// Appends a row.
    mutating func append(row: some Sequence<SQLValue>) {
        let before = values.count
        values.append(contentsOf: row)
        if width == nil { width = values.count - before }
    }

    subscript(row: Int) -> SQLRow {
        SQLRow(rows: self, start: row * (width ?? 0))
    }

    var first: SQLRow? { isEmpty ? nil : self[0] }

    /// Each row made into a value by `make`, leaving out those it makes nil.
    func compactMap<T>(_ make: (SQLRow) throws -> T?) rethrows -> [T] {
        var made: [T] = []
        made.reserveCapacity(count)
        for row in 0..<count {
            if let value = try make(self[row]) { made.append(value) }
        }
        return made
    }

    func map<T>(_ make: (SQLRow) throws -> T) rethrows -> [T] {
        try compactMap(make)
    }

    /// The value of `column` in the row starting at `start`; nil past the row's end.
    fileprivate func value(row start: Int, column: Int) -> SQLValue? {
        guard let width, column >= 0, column < width, values.indices.contains(start + column) else { return nil }
        return values[start + column]
    }
}

/// One row of `SQLRows`, its columns read by position as the statement selected them. A column
/// that is not what the rule expects (the database was changed by hand) throws
/// `BFFStoreError.unreadableRow`, never traps.
struct SQLRow {
    fileprivate let rows: SQLRows
    fileprivate let start: Int

    /// Nil for a column the statement did not select.
    subscript(column: Int) -> SQLValue? { rows.value(row: start, column: column) }

    func integer(_ column: Int) throws -> Int64 {
        guard case .integer(let value)? = self[column] else { throw unreadable(column) }
        return value
    }

    func optionalInteger(_ column: Int) throws -> Int64? {
        if case .null? = self[column] { return nil }
        return try integer(column)
    }

    func real(_ column: Int) throws -> Double {
        switch self[column] {
        case .real(let value)?: return value
        case .integer(let value)?: return Double(value)
        default: throw unreadable(column)
        }
    }

    func optionalReal(_ column: Int) throws -> Double? {
        if case .null? = self[column] { return nil }
        return try real(column)
    }

    func text(_ column: Int) throws -> String {
        guard case .text(let value)? = self[column] else { throw unreadable(column) }
        return value
    }

    func optionalText(_ column: Int) throws -> String? {
        if case .null? = self[column] { return nil }
        return try text(column)
    }

    func blob(_ column: Int) throws -> Data {
        guard case .blob(let value)? = self[column] else { throw unreadable(column) }
        return value
    }

    /// SQLite keeps a boolean as 0 or 1.
    func bool(_ column: Int) throws -> Bool {
        switch self[column] {
        case .bool(let value)?: return value
        case .integer(let value)? where value == 0 || value == 1: return value == 1
        default: throw unreadable(column)
        }
    }

    private func unreadable(_ column: Int) -> BFFStoreError {
        .unreadableRow(self[column].map { "column \(column) is \($0)" } ?? "no column \(column)")
    }
}
