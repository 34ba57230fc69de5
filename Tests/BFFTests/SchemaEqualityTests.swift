import BFF
import BFFTesting
import Foundation
import GRDB
import PostgresNIO
import ServerStore
import Testing

/// The two engines' migration lists must build one schema: the same tables, columns (and which
/// may be null), primary keys, indexes (columns, uniqueness, partial or not) and foreign keys, with
/// tables and columns by the same names (SQLite's v7 gave its PostgreSQL's), since the store core
/// writes one SQL text for both. Column types and index names are left out: each engine spells a
/// day, a moment or an integer its own way, and names the indexes it makes for a key itself.
///
/// Both are held to one description, `Fixtures/schema.txt`, a fact a line: the SQLite pass checks
/// SQLite's against it on every run, the PostgreSQL pass PostgreSQL's, so a migration written for
/// one engine only fails the first pass that runs. A schema changed on purpose is written there
/// with `TERMCANVAS_WRITE_SCHEMA=1 swift test --filter SchemaEqualityTests`.
@Suite("SQLite and PostgreSQL migrations build the schema described")
struct SchemaEqualityTests {
    /// A schema as sets of facts, comparable across engines.
    struct Schema: Equatable {
        var columns: Set<String> = []
        var primaryKeys: Set<String> = []
        var indexes: Set<String> = []
        var foreignKeys: Set<String> = []

        /// What `other` has and this one lacks, a line each.
        func missing(from other: Schema) -> [String] {
            Self.kinds.flatMap { kind, facts in other[keyPath: facts].subtracting(self[keyPath: facts]).sorted().map { "\(kind) \($0)" } }
        }

        /// Every fact, a line each, as `Fixtures/schema.txt` keeps them.
        var lines: [String] { Schema().missing(from: self) }

        init() {}

        /// The facts of `lines`; nil for a line that is none.
        init?(lines: [String]) {
            for line in lines where !line.isEmpty {
                guard let (kind, facts) = Self.kinds.first(where: { line.hasPrefix($0.0 + " ") }) else { return nil }
                self[keyPath: facts].insert(String(line.dropFirst(kind.count + 1)))
            }
        }

        static var kinds: [(String, WritableKeyPath<Schema, Set<String>>)] { [
            ("column", \.columns), ("primary key", \.primaryKeys), ("index", \.indexes), ("foreign key", \.foreignKeys),
        ] }
    }

    static let described = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/schema.txt")

    /// Checks `schema`, of `engine`, against the description (or writes it, when asked to).
    static func expectDescribed(_ schema: Schema, engine: String) throws {
        if ProcessInfo.processInfo.environment["TERMCANVAS_WRITE_SCHEMA"] == "1" {
            return try (schema.lines.joined(separator: "\n") + "\n").write(to: described, atomically: true, encoding: .utf8)
        }
        let text = try String(contentsOf: described, encoding: .utf8)
        let expected = try #require(Schema(lines: text.split(separator: "\n").map(String.init)), "Fixtures/schema.txt has a line that is no fact")
        #expect(schema.missing(from: expected) == [], "described, \(engine) lacks (write the migration for it too)")
        #expect(expected.missing(from: schema) == [], "\(engine) has, not described (on purpose? TERMCANVAS_WRITE_SCHEMA=1 writes it)")
    }

    @Test func sqliteBuildsTheSchemaDescribed() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tc-schema-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("schema.sqlite")
        _ = try SQLiteStore.open(at: file)
        try Self.expectDescribed(try Self.schema(of: try DatabaseQueue(path: file.path)), engine: "SQLite")
    }

    /// Each engine's own record of which migrations ran, and PostgreSQL's signing secret (shared
    /// by its instances; one SQLite server keeps it in a file of its data directory).
    static let bookkeeping: Set<String> = ["grdb_migrations", "schema_migrations", "signing_secret"]

    @Test(.enabled(if: TestDatabase.isPostgres)) func bothMigrationListsBuildTheSameSchema() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        let postgres = try await harness.withStore { store in
            let postgres = try #require(store.engine as? PostgresStore)
            return try await Self.schema(of: postgres.client)
        }
        let file = harness.directory.appendingPathComponent("schema.sqlite")
        _ = try SQLiteStore.open(at: file)
        let sqlite = try Self.schema(of: try DatabaseQueue(path: file.path))
        #expect(!sqlite.columns.isEmpty && !postgres.columns.isEmpty)
        #expect(sqlite.missing(from: postgres) == [], "PostgreSQL has, SQLite lacks")
        #expect(postgres.missing(from: sqlite) == [], "SQLite has, PostgreSQL lacks")
        try Self.expectDescribed(postgres, engine: "PostgreSQL")
    }

    static func schema(of database: DatabaseQueue) throws -> Schema {
        try database.read { db in
            var schema = Schema()
            let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
                .filter { !bookkeeping.contains($0) }
            for table in tables {
                var key: [(Int, String)] = []
                for row in try Row.fetchAll(db, sql: "SELECT name, \"notnull\", pk FROM pragma_table_info(?)", arguments: [table]) {
                    let name: String = row["name"], notNull: Bool = row["notnull"], position: Int = row["pk"]
                    schema.columns.insert("\(table).\(name)\(notNull || position > 0 ? " not null" : "")")
                    if position > 0 { key.append((position, name)) }
                }
                schema.primaryKeys.insert("\(table)(\(key.sorted { $0.0 < $1.0 }.map(\.1).joined(separator: ", ")))")
                for index in try Row.fetchAll(db, sql: "SELECT name, \"unique\", origin, partial FROM pragma_index_list(?)", arguments: [table]) {
                    let origin: String = index["origin"]
                    guard origin != "pk" else { continue }
                    let name: String = index["name"], unique: Bool = index["unique"], partial: Bool = index["partial"]
                    let columns = try String.fetchAll(db, sql: "SELECT name FROM pragma_index_info(?) ORDER BY seqno", arguments: [name])
                    schema.indexes.insert(describeIndex(table, columns, unique: unique, partial: partial))
                }
                for key in try Row.fetchAll(db, sql: "SELECT \"table\", \"from\", \"to\" FROM pragma_foreign_key_list(?)", arguments: [table]) {
                    let target: String = key["table"], from: String = key["from"], to: String? = key["to"]
                    schema.foreignKeys.insert("\(table).\(from) -> \(target).\(to ?? "id")")
                }
            }
            return schema
        }
    }

    static func schema(of client: PostgresClient) async throws -> Schema {
        var schema = Schema()
        let columns = try await client.query("""
            SELECT table_name::text, column_name::text, is_nullable::text FROM information_schema.columns
            WHERE table_schema = 'public'
            """)
        for try await (table, column, nullable) in columns.decode((String, String, String).self) where !bookkeeping.contains(table) {
            schema.columns.insert("\(table).\(column)\(nullable == "NO" ? " not null" : "")")
        }
        let indexes = try await client.query("""
            SELECT t.relname::text, i.indisprimary, i.indisunique, i.indpred IS NOT NULL,
                   array_to_string(ARRAY(SELECT a.attname FROM unnest(i.indkey::int2[]) WITH ORDINALITY AS k(attnum, n)
                                         JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum ORDER BY k.n), ',')
            FROM pg_index i JOIN pg_class t ON t.oid = i.indrelid JOIN pg_namespace ns ON ns.oid = t.relnamespace
            WHERE ns.nspname = 'public'
            """)
        for try await (table, primary, unique, partial, columns) in indexes.decode((String, Bool, Bool, Bool, String).self)
        where !bookkeeping.contains(table) {
            let names = columns.split(separator: ",").map(String.init)
            if primary {
                schema.primaryKeys.insert("\(table)(\(names.joined(separator: ", ")))")
            } else {
                schema.indexes.insert(describeIndex(table, names, unique: unique, partial: partial))
            }
        }
        let keys = try await client.query("""
            SELECT c.conrelid::regclass::text, a.attname::text, c.confrelid::regclass::text, r.attname::text
            FROM pg_constraint c
            JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1]
            JOIN pg_attribute r ON r.attrelid = c.confrelid AND r.attnum = c.confkey[1]
            JOIN pg_namespace ns ON ns.oid = c.connamespace
            WHERE c.contype = 'f' AND ns.nspname = 'public'
            """)
        for try await (table, column, target, targetColumn) in keys.decode((String, String, String, String).self) where !bookkeeping.contains(table) {
            schema.foreignKeys.insert("\(table).\(column) -> \(target).\(targetColumn)")
        }
        // Tables without a primary key say so, as SQLite's do (an empty key).
        for table in Set(schema.columns.map { String($0.prefix { $0 != "." }) })
        where !schema.primaryKeys.contains(where: { $0.hasPrefix(table + "(") }) {
            schema.primaryKeys.insert("\(table)()")
        }
        return schema
    }

    static func describeIndex(_ table: String, _ columns: [String], unique: Bool, partial: Bool) -> String {
        "\(table)(\(columns.joined(separator: ", ")))\(unique ? " unique" : "")\(partial ? " partial" : "")"
    }
}
