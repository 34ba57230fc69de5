internal import CSQLite

/// An open SQLite connection, as the closures of `DatabaseQueue` get it: statements prepared
/// once and kept, values bound (never spliced into SQL). Sendable because its queue uses it only
/// under its lock (and the connection is opened without SQLite's own mutex).
public final class Database: @unchecked Sendable {
    let handle: OpaquePointer
    /// Prepared statements by their SQL, kept for the connection's life.
    private var statements: [String: OpaquePointer] = [:]
    /// Held for SQLite's trace callback, which gets a pointer to it.
    private let tracer: Tracer?

    init(handle: OpaquePointer, trace: (@Sendable (String) -> Void)?) {
        self.handle = handle
        tracer = trace.map(Tracer.init)
        if let tracer {
            sqlite3_trace_v2(handle, UInt32(SQLITE_TRACE_STMT), { _, context, statement, _ in
                guard let context, let statement, let sql = sqlite3_sql(OpaquePointer(statement)) else { return 0 }
                Unmanaged<Tracer>.fromOpaque(context).takeUnretainedValue().report(String(cString: sql))
                return 0
            }, Unmanaged.passUnretained(tracer).toOpaque())
        }
    }

    private final class Tracer: Sendable {
        let report: @Sendable (String) -> Void
        init(_ report: @escaping @Sendable (String) -> Void) { self.report = report }
    }

    deinit {
        for statement in statements.values { sqlite3_finalize(statement) }
        sqlite3_close_v2(handle)
    }

    /// Runs `sql`. With arguments it is one statement; without, it may be several separated by
    /// semicolons (a migration), which are not kept prepared.
    public func execute(sql: String, arguments: StatementArguments = []) throws {
        if arguments.values.isEmpty, !sql.isEmpty {
            try executeScript(sql)
        } else {
            _ = try rows(sql, arguments, limit: 0)
        }
    }

    /// The row id of the last row inserted on this connection.
    public var lastInsertedRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// Rows changed by the last statement.
    public var changesCount: Int { Int(sqlite3_changes(handle)) }

    /// Runs one statement and returns up to `limit` rows of its result (all of them when nil). A
    /// write runs to its end whatever the limit.
    func rows(_ sql: String, _ arguments: StatementArguments, limit: Int? = nil) throws -> [Row] {
        let statement = try prepared(sql)
        defer {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }
        try bind(arguments, to: statement)
        let count = Int(sqlite3_column_count(statement))
        let columns = (0..<count).map { String(cString: sqlite3_column_name(statement, Int32($0))) }
        var rows: [Row] = []
        while true {
            let result = sqlite3_step(statement)
            if result == SQLITE_DONE { break }
            guard result == SQLITE_ROW else { throw SQLiteError(code: result, connection: handle) }
            if let limit, rows.count >= limit {
                if sqlite3_stmt_readonly(statement) != 0 { break }  // a read can stop; a write runs to its end
                continue
            }
            rows.append(Row(columns: columns, values: (0..<count).map { value(of: statement, at: Int32($0)) }))
        }
        return rows
    }

    private func prepared(_ sql: String) throws -> OpaquePointer {
        if let statement = statements[sql] { return statement }
        var statement: OpaquePointer?
        let result = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard result == SQLITE_OK, let statement else { throw SQLiteError(code: result, connection: handle) }
        statements[sql] = statement
        return statement
    }

    private func executeScript(_ sql: String) throws {
        var error: UnsafeMutablePointer<CChar>?
        let result = sqlite3_exec(handle, sql, nil, nil, &error)
        guard result == SQLITE_OK else {
            let message = error.map { String(cString: $0) }
            sqlite3_free(error)
            throw SQLiteError(code: sqlite3_extended_errcode(handle), message: message ?? "SQLite error \(result)")
        }
    }

    private func bind(_ arguments: StatementArguments, to statement: OpaquePointer) throws {
        let expected = Int(sqlite3_bind_parameter_count(statement))
        guard expected == arguments.values.count else {
            throw SQLiteError(code: SQLITE_RANGE, message: "\(arguments.values.count) values for \(expected) parameters")
        }
        for (offset, value) in arguments.values.enumerated() {
            let index = Int32(offset + 1)
            let result: Int32 = switch value {
            case .null: sqlite3_bind_null(statement, index)
            case .integer(let number): sqlite3_bind_int64(statement, index, number)
            case .real(let number): sqlite3_bind_double(statement, index, number)
            case .text(let text):
                text.utf8CString.withUnsafeBufferPointer { tc_sqlite_bind_text(statement, index, $0.baseAddress, Int32($0.count - 1)) }
            case .blob(let bytes):
                bytes.withUnsafeBytes { tc_sqlite_bind_blob(statement, index, $0.baseAddress, Int32($0.count)) }
            }
            guard result == SQLITE_OK else { throw SQLiteError(code: result, connection: handle) }
        }
    }

    private func value(of statement: OpaquePointer, at column: Int32) -> DatabaseValue {
        switch sqlite3_column_type(statement, column) {
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(statement, column))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(statement, column))
        case SQLITE_TEXT:
            let count = Int(sqlite3_column_bytes(statement, column))
            guard let text = sqlite3_column_text(statement, column) else { return .text("") }
            return .text(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(statement, column))
            guard let bytes = sqlite3_column_blob(statement, column) else { return .blob([]) }
            return .blob(Array(UnsafeRawBufferPointer(start: bytes, count: count)))
        default: return .null
        }
    }
}
