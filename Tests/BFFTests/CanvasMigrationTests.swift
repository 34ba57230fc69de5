@testable import BFF
import CanvasCore
import Foundation
import GRDB
import ServerAPI
@testable import ServerStore
import Testing

/// A server's SQLite file from before a canvas's panes' values were kept apart (schema v11: the
/// whole layout in one row, a snapshot every 100 versions) opens with each canvas as it was, its
/// oldest snapshot as its base, and every version from there readable.
@Suite("SQLite v12: a canvas's panes' values apart, one base a canvas")
struct CanvasMigrationTests {
    @Test func aV11CanvasReadsAsBeforeAndFromItsOldestSnapshotOn() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tc-v11-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("bff.sqlite")
        let v11 = try DatabaseQueue(path: file.path)
        try SQLiteStore.migrator.migrate(v11, upTo: "v11: canvas snapshots")
        try await v11.write { db in
            try db.execute(sql: "INSERT INTO users (id, name, password_hash, created_at, is_admin) VALUES (7, 'ada', '', '2026-01-01 00:00:00.000', 0)")
            try db.execute(sql: "INSERT INTO canvases VALUES (1, 7, 'ops', ?, 250, 3, 0, 0)", arguments: [try Self.json(Self.layout(at: 250))])
            // As v11 kept them at version 250 with 200 changes kept: snapshots at 100 and 200.
            for version in [100, 200] {
                try db.execute(sql: "INSERT INTO canvas_snapshots VALUES (1, ?, ?)", arguments: [version, try Self.json(Self.layout(at: version))])
            }
            for version in 51...250 {
                let operation = CanvasOperation.resize(2, to: Size(width: 3 + version % 4, height: 12))
                try db.execute(sql: "INSERT INTO canvas_changes VALUES (1, ?, 'ada', 's', ?, ?, 0)", arguments: [version, version, try Self.json(operation)])
            }
        }
        try v11.close()
        let at = Self.layout(at:)

        let engine = try SQLiteStore.open(at: file)
        let store = BFFStore(engine, bcryptCost: 4)
        #expect(try await store.canvas(1, visibleTo: 7, session: nil)?.layout == at(250), "settings and state as they were")
        for version in [100, 101, 199, 250] {
            #expect(try await store.canvasVersion(1, visibleTo: 7, version: version) == .found(CanvasVersion(version: version, layout: at(version))))
        }
        #expect(try await store.canvasVersion(1, visibleTo: 7, version: 99) == .compacted)
        #expect(try await store.canvasChanges(1, visibleTo: 7, after: 99, limit: 1) == .compacted)
        let rows = try await engine.writer.read { db in
            try (Int.fetchOne(db, sql: "SELECT COUNT(*) FROM canvas_snapshots"), Int.fetchOne(db, sql: "SELECT COUNT(*) FROM canvas_pane_values"),
                 String.fetchOne(db, sql: "SELECT layout FROM canvases"))
        }
        #expect(rows.0 == 1 && rows.1 == 2)
        #expect(rows.2?.contains("due") == false, "the arrangement alone in the canvas's row")
    }

    /// The layout at `version`: a todo with settings and state, and a chat whose width each change sets.
    static func layout(at version: Int) -> LayoutData {
        LayoutData(name: "ops", panes: [
            Pane(id: 1, app: .todo, frame: Rect(x: 0, y: 0, width: 6, height: 12), config: ["sort": "due"], state: ["selected": "3"]),
            Pane(id: 2, app: .chat, frame: Rect(x: 6, y: 0, width: 3 + version % 4, height: 12)),
        ])
    }

    static func json(_ value: some Encodable) throws -> String {
        String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
    }
}
