import Foundation
import PostgresNIO

/// How PostgreSQL runs the store core's plans: on a pooled connection, each value bound as a
/// parameter (`$1`, `$2`, …).
extension PostgresStore {
    /// The observers of commits hear of its events as soon as it commits, before it answers (the
    /// streams when the feed brings them, as other instances' observers do).
    package func runWrite<T>(_ plan: Plan<T>) async throws -> T {
        let (result, recorded) = try await transaction { connection in try await run(plan, on: connection) }
        for event in recorded { liveEvents.committed(.event(name: event.name, owner: event.owner)) }
        return result
    }

    package func runRead<T>(_ plan: Plan<T>, snapshot: Bool) async throws -> T {
        guard snapshot else { return try await withConnection { connection in try await run(plan, on: connection) }.result }
        // READ COMMITTED, the default, would give each statement a snapshot of its own.
        return try await transaction { connection in
            try await connection.run("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY", logger: logger)
            return try await run(plan, on: connection).result
        }
    }

    /// Runs `plan` on `connection`, in its transaction if it is in one.
    /// - Returns: its result, and the live events it recorded.
    func run<T>(_ plan: Plan<T>, on connection: PostgresConnection) async throws -> (result: T, recorded: [LiveEventDraft]) {
        var plan = plan
        var recorded: [LiveEventDraft] = []
        while true {
            switch plan {
            case .done(let result): return (result, recorded)
            case .failed(let error): throw error
            case .query(let statement, let next): plan = try next(try await rows(statement, on: connection))
            case .record(let event, let next):
                try await record(event, on: connection)
                recorded.append(event)
                plan = next
            case .lock(let key, let next):
                try await connection.run("SELECT pg_advisory_xact_lock(hashtext(\(key)))", logger: logger)
                plan = next
            }
        }
    }

    private func rows(_ statement: SQLStatement, on connection: PostgresConnection) async throws -> SQLRows {
        let (text, values) = statement.rendered(placeholder: { "$\($0)" }, spell: Self.spelling)
        var bindings = PostgresBindings(capacity: values.count)
        for value in values { Self.bind(value, to: &bindings) }
        var rows = SQLRows()
        for try await row in try await connection.query(PostgresQuery(unsafeSQL: text, binds: bindings), logger: logger) {
            rows.append(row: try row.map(Self.sqlValue))
        }
        return rows
    }

    static func spelling(_ word: SQLWord) -> String {
        switch word {
        case .now: "now()"
        case .forUpdate: " FOR UPDATE"
        case .forShare: " FOR SHARE"
        case .forUpdateSkipLocked: " FOR UPDATE SKIP LOCKED"
        case .likeIgnoringCase: "ILIKE"
        case .bytewise: #" COLLATE "C""#
        case .autoIncrementKey: "BIGSERIAL PRIMARY KEY"
        }
    }

    private static func bind(_ value: SQLValue, to bindings: inout PostgresBindings) {
        switch value {
        case .integer(let integer): bindings.append(integer)
        case .real(let real): bindings.append(real)
        case .text(let text): bindings.append(text)
        case .blob(let blob): bindings.append(ByteBuffer(bytes: blob))
        case .bool(let bool): bindings.append(bool)
        case .moment(let date): bindings.append(date)
        case .null: bindings.appendNull()
        }
    }

    /// A cell as the core reads it, by the column's type.
    private static func sqlValue(_ cell: PostgresCell) throws -> SQLValue {
        guard cell.bytes != nil else { return .null }
        return switch cell.dataType {
        case .int2, .int4, .int8: .integer(try cell.decode(Int64.self))
        case .float4, .float8: .real(try cell.decode(Double.self))
        case .bool: .bool(try cell.decode(Bool.self))
        case .bytea: .blob(try cell.decode(Data.self))
        case .timestamptz, .timestamp: .moment(try cell.decode(Date.self))
        default: .text(try cell.decode(String.self))
        }
    }
}
