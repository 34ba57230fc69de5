@testable import BFF
import CalendarTime
import Foundation
import GRDB
import ServerAPI
@testable import ServerStore
import Testing

/// A server's SQLite file from before the store core (schema v6) opens with every row of the
/// tables v7 renamed to PostgreSQL's names (users, todos, events, messages, kept keys, the
/// registry, grants, webhook deliveries), their foreign keys still cascading from the user.
@Suite("SQLite v7: tables renamed as in PostgreSQL, their rows kept")
struct SQLiteMigrationTests {
    @Test func aV6FileKeepsItsRowsAndForeignKeys() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tc-v6-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("bff.sqlite")
        let v6 = try DatabaseQueue(path: file.path)
        try SQLiteStore.migrator.migrate(v6, upTo: "v6: secrets rotate")
        try await v6.write { db in
            try db.execute(sql: """
                INSERT INTO user (id, name, passwordHash, createdAt, isAdmin) VALUES (7, 'ada', '', '2026-01-01 00:00:00.000', 0);
                INSERT INTO todoItem (id, ownerId, title, notes, done, due, createdAt, updatedAt)
                    VALUES (3, 7, 'milk', 'two', 1, '2026-12-01', '2026-01-01 00:00:00.000', '2026-01-01 00:00:00.000'),
                           (10, 7, 'gone', '', 0, NULL, '2026-01-01 00:00:00.000', '2026-01-01 00:00:00.000');
                DELETE FROM todoItem WHERE id = 10;
                INSERT INTO liveEvent (id, name, ownerId, data, createdAt) VALUES (20, 'todo.item.created', 7, '{}', '2026-01-01 00:00:00.000');
                DELETE FROM liveEvent;
                INSERT INTO calendarEvent (id, ownerId, title, start, "end", allDay, createdAt, updatedAt)
                    VALUES (4, 7, 'dentist', '2026-12-02T09:00:00Z', '2026-12-02T10:00:00Z', 0,
                            '2026-01-01 00:00:00.000', '2026-01-01 00:00:00.000');
                INSERT INTO chatMessage (id, channelId, author, text, sentAt) VALUES (5, 'general', 'ada', 'hi', '2026-01-01T00:00:00.000Z');
                INSERT INTO idempotentWrite (ownerId, key, fingerprint, result, createdAt) VALUES (7, 'k', x'00', x'00', 1);
                INSERT INTO registryApp (id, kind, name, description, currentVersion) VALUES ('deploys', 'remote', 'Deploys', '', '1.0.0');
                INSERT INTO registryVersion (appId, version, manifest, entry, publishedAt) VALUES ('deploys', '1.0.0', NULL,
                    'http://127.0.0.1:9/', '2026-01-01T00:00:00Z');
                INSERT INTO appGrant (userId, appId, grantedAt) VALUES (7, 'deploys', '2026-01-01 00:00:00.000');
                INSERT INTO hookDelivery (id, appId, event, data, attempts, receivedAt) VALUES (9, 'deploys', 'deploys.run.done', '{}', 2,
                    '2026-01-01 00:00:00.000');
                """)
        }
        try v6.close()

        let engine = try SQLiteStore.open(at: file)
        let store = BFFStore(engine, bcryptCost: 4)
        #expect(try await store.todos(owner: 7, query: TodoQuery()).items
            == [TodoItem(id: 3, title: "milk", notes: "two", done: true, due: CalendarDate(year: 2026, month: 12, day: 1))])
        let start = try #require(UTCInstant(iso: "2026-12-02T09:00:00Z")), end = try #require(UTCInstant(iso: "2026-12-02T10:00:00Z"))
        // An event from before iCalendar is the one its columns describe, with a UID made of its id.
        var dentist = CalendarEvent(id: 4, title: "dentist", start: start, end: end, allDay: false)
        dentist.uid = "termcanvas-event-4"
        #expect(try await store.calendarEvent(id: 4, owner: 7) == dentist)
        #expect(try await store.chatMessages(channel: "general", before: nil, limit: 10)?.items.map(\.text) == ["hi"])
        #expect(try await store.user(named: "ada") == BFFUser(id: 7, name: "ada", isAdmin: false))
        #expect(try await store.isGranted("deploys", to: 7))
        #expect(try await store.remoteEntries().map(\.id) == ["deploys"])
        #expect(try await store.pendingHookDeliveries(limit: 10) == [HookDelivery(id: 9, app: "deploys", event: "deploys.run.done", attempts: 2)])
        let created = try await store.createTodo(owner: 7, title: "bread", notes: "", due: nil)
        #expect(created.id == 11, "the renamed table keeps its AUTOINCREMENT sequence (10 was used, then deleted)")
        #expect(try await store.newestLiveEventID() == 21, "the live events' sequence, which `Last-Event-ID` resumes from, is kept")

        #expect(try await store.deleteUser(name: "ada"))
        let left = try await engine.writer.read { db in
            try ["todo_items", "calendar_events", "idempotent_writes", "app_grants"].map { try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \($0)") }
        }
        #expect(left == [0, 0, 0, 0], "deleting the user cascades into the renamed tables")
    }
}
