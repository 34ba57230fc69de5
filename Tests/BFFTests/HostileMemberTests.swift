@testable import BFF
import BFFTesting
import CanvasCore
import Foundation
import GRDB
import Hummingbird
import HummingbirdTesting
import ServerAPI
@testable import ServerHTTP
@testable import ServerProxy
@testable import ServerStore
import Testing

/// A member of a shared canvas who does not behave, played against a real server (SQLite, and
/// PostgreSQL in `make test`'s second pass), one attack of issue 38 a test: each checks the
/// promise the attack broke. Sessions that are their users' (items 1–3, 12) are in
/// `CanvasTests.sessionsAreTheirUsers`, versions at the old edge (11) in `CanvasTests.versions`.
@Suite("A shared canvas against a hostile member")
struct HostileMemberTests {
    /// One character as a user sees it, 60 KB as the server stores it: `a` and 30 000 accents.
    static let heavyCharacter = "a" + String(repeating: "\u{301}", count: 30_000)

    static let layout = CanvasTests.layout

    static func edit(_ sequence: Int, _ operation: CanvasOperation, session: String = "ann-1") -> CanvasEdit {
        CanvasEdit(session: session, sequence: sequence, operation: operation)
    }

    @Test("item 4: every text field is bounded in bytes, not only in characters: one character of 60 KB is refused everywhere")
    func textIsBoundedInBytes() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addUsers("ann")
        try await harness.addAdmins("root")
        try await harness.withServer { client in
            let ann = try await client.token(for: "ann")
            let root = try await client.token(for: "root")
            let heavy = Self.heavyCharacter
            let id = try await client.send(.post, APIPath.canvases, token: ann, json: NewCanvas(name: "x", layout: Self.layout)).decode(CanvasSnapshot.self).id
            var heavyLayout = Self.layout
            heavyLayout.name = heavy
            var heavyApp = Self.layout
            heavyApp.panes[1].app = AppKind(rawValue: heavy)
            let attempts: [(String, HTTPRequest.Method, String, String?, any Encodable & Sendable)] = [
                ("canvas name", .post, APIPath.canvases, ann, NewCanvas(name: heavy, layout: Self.layout)),
                ("layout name", .post, APIPath.canvases, ann, NewCanvas(name: "y", layout: heavyLayout)),
                ("pane app", .post, APIPath.canvases, ann, NewCanvas(name: "z", layout: heavyApp)),
                ("rename", .patch, APIPath.canvas(id), ann, CanvasRename(name: heavy)),
                ("added pane's app", .post, APIPath.canvasChanges(id), ann,
                 Self.edit(1, .add(Pane(id: 9, app: AppKind(rawValue: heavy), frame: Rect(x: 0, y: 0, width: 2, height: 2))))),
                ("todo title", .post, APIPath.todoItems, ann, NewTodo(title: heavy)),
                ("calendar title", .post, APIPath.calendarEvents, ann, NewCalendarEvent(title: heavy, start: "2026-11-22", end: "2026-11-22", allDay: true)),
                ("registry name", .put, APIPath.registryApp("deploys"), root,
                 PublishRequest(manifest: RegistryTests.manifest(version: "1.0.0", name: heavy), entry: "http://127.0.0.1:9/")),
                ("registry description", .put, APIPath.registryApp("deploys"), root,
                 PublishRequest(manifest: RegistryTests.manifest(version: "1.0.0", description: heavy), entry: "http://127.0.0.1:9/")),
                ("login name", .post, APIPath.authToken, nil, TokenRequest(username: heavy, password: "x")),
            ]
            for (what, method, path, token, body) in attempts {
                let response = try await client.send(method, path, token: token, json: body)
                #expect(response.status == .badRequest, "\(what): \(response.status)")
            }
            // Chat's limit is 4000 characters: 4001 of plain text is refused for its characters,
            // 4000 accents on one letter for its bytes, 4000 letters with one accent each pass.
            #expect(try await client.send(.post, APIPath.chatMessages(channel: "general"), token: ann,
                                          json: NewChatMessage(text: "a" + String(repeating: "\u{301}", count: 16_000))).status == .badRequest)
            #expect(try await client.send(.post, APIPath.chatMessages(channel: "general"), token: ann,
                                          json: NewChatMessage(text: String(repeating: "e\u{301}", count: 4000))).status == .created)
            #expect(try await client.send(.get, APIPath.canvases, token: ann).decode(Page<CanvasSummary>.self).items.map(\.name) == ["x"])
        }
    }

    @Test("item 4: a canvas's settings and state are capped in bytes, an edit past it refused, what fits still ordered")
    func aCanvasIsCapped() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addUsers("ann", "bob")
        try await harness.withServer { client in
            let ann = try await client.token(for: "ann")
            let bob = try await client.token(for: "bob")
            // 36 panes of 2×2 on a 12×12 grid, each given 10 000 `\u{1}` of state (60 KB as JSON,
            // within a request's 64 KiB) until the canvas is full.
            var layout = LayoutData(name: "full")
            for index in 0..<36 {
                layout.panes.append(Pane(id: PaneID(index + 1), app: .todo, frame: Rect(x: index % 6 * 2, y: index / 6 * 2, width: 2, height: 2)))
            }
            let id = try await client.send(.post, APIPath.canvases, token: ann, json: NewCanvas(name: "full", layout: layout)).decode(CanvasSnapshot.self).id
            #expect(try await client.send(.put, APIPath.canvasMember(id, user: "bob"), token: ann, json: CanvasMemberRole(role: .editor)).status == .noContent)
            let heavy: WidgetValues = ["k": String(repeating: "\u{1}", count: 10_000)]
            var refused: CanvasEditAnswer?
            for pane in 1...36 {
                let answer = try await client.send(.post, APIPath.canvasChanges(id), token: bob, json: Self.edit(pane, .setState(PaneID(pane), heavy), session: "bob-1"))
                    .decode(CanvasEditAnswer.self)
                if answer.outcome == .refused { refused = answer; break }
            }
            let reason = try #require(refused?.reason, "an edit past the canvas's size is refused")
            #expect(reason.contains("at most \(CanvasLimits.bytesMax >> 10) KiB"))
            let whole = try await client.send(.get, APIPath.canvas(id), token: ann)
            #expect(whole.body.readableBytes <= CanvasLimits.bytesMax + 16 << 10, "\(whole.body.readableBytes) bytes")
            // What was refused changed nothing; what fits still does (a smaller state).
            let snapshot = try whole.decode(CanvasSnapshot.self)
            #expect(snapshot.layout.panes.filter { !$0.state.isEmpty }.count == snapshot.version)
            let small = Self.edit(100, .setState(36, ["k": "v"]), session: "bob-1")
            #expect(try await client.send(.post, APIPath.canvasChanges(id), token: bob, json: small).decode(CanvasEditAnswer.self).outcome == .ordered)
        }
    }

    @Test("item 4: one user's writes spend a budget in bytes a second; past it 429, others untouched")
    func writesSpendABudgetInBytes() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addUsers("ann", "bob")
        // 64 KiB a second: the smallest budget `--write-limit` takes; its burst is the largest body
        // a route takes (256 KiB), so a slow machine's requests cannot stay within it by chance.
        let limits = RateLimits(writeBytesPerUserPerSecond: 64 << 10)
        try await harness.withServer(configuration: harness.configuration(rateLimits: limits)) { client in
            let ann = try await client.token(for: "ann")
            let bob = try await client.token(for: "bob")
            // 60 KB states, within the request rate (50 a second) but past the bytes' burst.
            let id = try await client.send(.post, APIPath.canvases, token: ann, json: NewCanvas(name: "x", layout: Self.layout)).decode(CanvasSnapshot.self).id
            var accepted = 0
            var refused: TestResponse?
            let started = ContinuousClock.now
            while refused == nil, accepted < 100 {
                let edit = Self.edit(accepted + 1, .setState(1, ["k": String(repeating: "\u{1}", count: 10_000)]))
                let response = try await client.send(.post, APIPath.canvasChanges(id), token: ann, json: edit)
                if response.status == .tooManyRequests { refused = response } else { accepted += 1 }
            }
            let seconds = Double((ContinuousClock.now - started).components.seconds) + 1
            let allowed = Double(AppProxyController.maximumMessage) + Double(limits.writeBytesPerUserPerSecond) * seconds
            #expect(refused?.headers[.retryAfter] != nil && Double(accepted * 60_000) <= allowed, "\(accepted) accepted in \(seconds) s")
            // Bob's budget is his own.
            #expect(try await client.send(.post, APIPath.todoItems, token: bob, json: NewTodo(title: "bob's")).status == .created)
        }
    }

    @Test("item 5, on every route: what one user keeps is bounded (todos, calendar events), and reaching it costs others nothing",
          .enabled(if: !TestDatabase.isPostgres, "rows are put straight into the SQLite file; the rule is the store core's, one for both"))
    func whatAUserKeepsIsBounded() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addUsers("ann", "bob")
        let ann = try #require(try await harness.withStore { store in try await store.user(named: "ann") })
        let database = try DatabaseQueue(path: harness.directory.appendingPathComponent("bff.sqlite").path)
        try await database.write { db in
            for (table, limit, columns, values) in [
                ("todo_items", TodoLimits.itemsPerUser, "title, notes, done", "'t', '', 0"),
                ("calendar_events", CalendarLimits.eventsPerUser, "title, start_at, end_at, all_day", "'e', '2026-11-22T09:00:00Z', '2026-11-22T10:00:00Z', 0"),
            ] {
                try db.execute(sql: """
                    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
                    INSERT INTO \(table) (owner_id, \(columns), created_at, updated_at) SELECT ?, \(values), 0, 0 FROM n
                    """, arguments: [limit - 1, ann.id])
            }
        }
        try database.close()
        try await harness.withServer { client in
            let ann = try await client.token(for: "ann")
            let bob = try await client.token(for: "bob")
            let event = NewCalendarEvent(title: "e", start: "2026-11-22T09:00:00Z", end: "2026-11-22T10:00:00Z")
            for (path, body) in [(APIPath.todoItems, NewTodo(title: "last") as any Encodable & Sendable), (APIPath.calendarEvents, event)] {
                #expect(try await client.send(.post, path, token: ann, json: body).status == .created, "\(path): the last one allowed")
                let refused = try await client.send(.post, path, token: ann, json: body)
                #expect(refused.status == .forbidden && refused.apiError?.error.contains("delete some first") == true, "\(path)")
                #expect(try await client.send(.post, path, token: bob, json: body).status == .created, "\(path): Bob's own")
            }
        }
    }

    @Test("item 5: the changes kept are bounded in bytes as in number, and every version from the oldest kept reads back")
    func historyIsBoundedInBytes() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addUsers("ann")
        try await harness.withServer { client in
            let ann = try await client.token(for: "ann")
            let id = try await client.send(.post, APIPath.canvases, token: ann, json: NewCanvas(name: "x", layout: Self.layout)).decode(CanvasSnapshot.self).id
            // 200 states of 8 KiB each, ~1.6 MB of changes: more than the history keeps.
            for sequence in 1...200 {
                let state: WidgetValues = ["k": String(repeating: Character(UnicodeScalar(UInt8(65 + sequence % 26))), count: 8 << 10)]
                _ = try await client.send(.post, APIPath.canvasChanges(id), token: ann, json: Self.edit(sequence, .setState(1, state)))
            }
            var kept: [CanvasChange] = []
            var after = 0
            while true {
                let response = try await client.send(.get, "\(APIPath.canvasChanges(id))?after=\(after)&limit=\(CanvasLimits.maxChangePageSize)", token: ann)
                guard response.status == .ok else {
                    #expect(response.status == .gone && kept.isEmpty)
                    after += 1
                    continue
                }
                let page = try response.decode(Page<CanvasChange>.self)
                kept += page.items
                guard page.next != nil, let last = page.items.last else { break }
                after = last.version
            }
            let bytes = try kept.reduce(0) { $0 + (try JSONEncoder().encode($1.operation)).count }
            #expect(kept.last?.version == 200 && bytes <= CanvasLimits.historyMaxBytes, "\(kept.count) changes, \(bytes) bytes")
            let oldest = try #require(kept.first?.version) - 1
            #expect(try await client.send(.get, APIPath.canvasVersion(id, version: oldest), token: ann).status == .ok)
            #expect(try await client.send(.get, APIPath.canvasVersion(id, version: oldest - 1), token: ann).status == .gone)
        }
    }

    @Test("item 6: an owner who adds people and floods them pushes out no one's resume point; presence said again is not news")
    func floodsKeepOthersResumePoints() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        let members = (1...9).map { "m\($0)" }
        try await harness.addUsers("ann", "carl")
        for member in members { try await harness.addUsers(member) }
        try await harness.withServer { client in
            let ann = try await client.token(for: "ann")
            let carl = try await client.token(for: "carl")
            let m1 = try await client.token(for: "m1")
            let id = try await client.send(.post, APIPath.canvases, token: ann, json: NewCanvas(name: "x", layout: Self.layout)).decode(CanvasSnapshot.self).id
            for member in members {
                _ = try await client.send(.put, APIPath.canvasMember(id, user: member), token: ann, json: CanvasMemberRole(role: .viewer))
            }
            // Carl, who shares nothing with Ann, and m1, whom she added, each have an event of their own.
            _ = try await client.send(.post, APIPath.todoItems, token: carl, json: NewTodo(title: "carl's"))
            _ = try await client.send(.post, APIPath.todoItems, token: m1, json: NewTodo(title: "m1's"))
            let ids = try await harness.withStore { store in
                (try await store.newestLiveEventID(), try await store.users())
            }
            let resumeFrom = ids.0 - 2
            // 1 200 edits, 12 000 events (Ann's and nine members'): past what was once kept for everyone.
            for sequence in 1...1200 {
                _ = try await client.send(.post, APIPath.canvasChanges(id), token: ann,
                                          json: Self.edit(sequence, .resize(1, to: Size(width: 4 + sequence % 2, height: 12))))
            }
            try await harness.withStore { store in
                for name in ["carl", "m1"] {
                    let user = try #require(ids.1.first { $0.name == name })
                    guard case .events(let events) = try await store.liveEvents(after: resumeFrom, visibleTo: user.id, limit: 10_000) else {
                        Issue.record("\(name) must reload: their resume point was pushed out")
                        continue
                    }
                    #expect(events.contains { $0.name == EventName.todoItemCreated.rawValue }, "\(name)")
                }
            }
            // A dashboard saying again that it is there tells no one anything new.
            let before = try await harness.withStore { store in try await store.newestLiveEventID() }
            for _ in 0..<5 { _ = try await client.send(.put, APIPath.canvasPresence(id, session: "ann-1"), token: ann) }
            let after = try await harness.withStore { store in try await store.newestLiveEventID() }
            #expect(after - before == 10, "one change of who is there, told to Ann and nine members")
        }
    }

    @Test("item 6, past the grace: a flood lets go of its targets' canvas events only; a user's own let go make that user reload, no one else",
          .enabled(if: !TestDatabase.isPostgres, "events are made old straight in the SQLite file; the rule is the store core's, one for both"))
    func retentionLetsGoPerUserAndKind() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addUsers("ann", "bob", "carl")
        let file = harness.directory.appendingPathComponent("bff.sqlite").path
        /// Events older than the grace, as if the flood had been a while ago.
        let age = {
            let database = try DatabaseQueue(path: file)
            try await database.write { db in try db.execute(sql: "UPDATE live_events SET created_at = '2026-01-01 00:00:00.000'") }
            try database.close()
        }
        let (canvas, resumeFrom) = try await harness.withStore { store in
            let users = try await store.users()
            let ann = try #require(users.first { $0.name == "ann" })
            let snapshot = try #require(try await store.createCanvas(owner: ann, name: "x", layout: Self.layout))
            _ = try await store.setCanvasMember(snapshot.id, owner: ann, member: "bob", role: .viewer)
            let resumeFrom = try await store.newestLiveEventID()
            for user in users where user.name != "ann" {
                _ = try await store.createTodo(owner: user.id, title: "\(user.name)'s", notes: "", due: nil)
            }
            return (snapshot.id, resumeFrom)
        }
        // Ann floods Bob with canvas events; Carl makes many events of his own.
        try await harness.withStore { store in
            let users = try await store.users()
            let ann = try #require(users.first { $0.name == "ann" }), carl = try #require(users.first { $0.name == "carl" })
            for sequence in 1...(LiveEventRetention.recoverableKeptPerUser + 300) {
                _ = try await store.submitCanvasEdit(canvas, by: ann, Self.edit(sequence, .resize(1, to: Size(width: 4 + sequence % 2, height: 12))))
            }
            for index in 0..<LiveEventRetention.keptPerUser {
                _ = try await store.createTodo(owner: carl.id, title: "\(index)", notes: "", due: nil)
            }
        }
        try await age()
        // More of each, young: the prunes they bring let go of the old past what is kept.
        try await harness.withStore { store in
            let users = try await store.users()
            let ann = try #require(users.first { $0.name == "ann" }), carl = try #require(users.first { $0.name == "carl" })
            for sequence in 1...200 {
                _ = try await store.submitCanvasEdit(canvas, by: ann, Self.edit(sequence, .resize(1, to: Size(width: 4 + sequence % 2, height: 12)), session: "ann-2"))
                _ = try await store.createTodo(owner: carl.id, title: "more \(sequence)", notes: "", due: nil)
            }
            for name in ["ann", "bob", "carl"] {
                let user = try #require(users.first { $0.name == name })
                let replay = try await store.liveEvents(after: resumeFrom, visibleTo: user.id, limit: 10_000)
                switch (name, replay) {
                case ("carl", .reset):
                    break  // his own events past his newest 1000 were let go: he reloads
                case (_, .events(let events)) where name != "carl":
                    let canvasEvents = events.filter { $0.name.hasPrefix("canvas.") }.count
                    #expect(canvasEvents <= LiveEventRetention.recoverableKeptPerUser + 200, "\(name): \(canvasEvents) canvas events kept")
                    #expect(name == "ann" || events.contains { $0.name == EventName.todoItemCreated.rawValue }, "\(name)'s own event kept")
                default:
                    Issue.record("\(name): \(replay)")
                }
            }
        }
    }

    @Test("items 7–9: the audit log keeps by age, one user's audited changes a day are bounded, entries are bounded, user delete is audited")
    func theAuditLogHolds() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addUsers("ann", "bob", "eve")
        try await harness.addAdmins("root")
        try await harness.withServer { client in
            let ann = try await client.token(for: "ann")
            let root = try await client.token(for: "root")
            let bob = try await client.token(for: "bob")
            let id = try await client.send(.post, APIPath.canvases, token: ann, json: NewCanvas(name: "x", layout: Self.layout)).decode(CanvasSnapshot.self).id
            #expect(try await client.send(.put, APIPath.canvasMember(id, user: "eve"), token: ann, json: CanvasMemberRole(role: .editor)).status == .noContent)
            // Ann renames until she is stopped: the day's budget, then 429 with when to come back.
            var renames = 0
            var stopped: TestResponse?
            while renames <= AuditLimits.changesPerUserPerDay {
                let response = try await client.send(.patch, APIPath.canvas(id), token: ann, json: CanvasRename(name: "n\(renames)"))
                guard response.status == .ok else { stopped = response; break }
                renames += 1
            }
            let refusal = try #require(stopped)
            #expect(refusal.status == .tooManyRequests && Int(refusal.headers[.retryAfter] ?? "") ?? 0 > 3600)
            #expect(renames == AuditLimits.changesPerUserPerDay - 2, "the canvas's creation and sharing count too")
            // Bob's day is his own.
            #expect(try await client.send(.post, APIPath.canvases, token: bob, json: NewCanvas(name: "b", layout: Self.layout)).status == .created)
            // Whoever shared what with whom is still there, and a full page is bounded.
            let page = try await client.send(.get, "\(APIPath.audit)?limit=\(AuditLimits.maxPageSize)", token: root)
            #expect(page.body.readableBytes <= AuditLimits.maxPageSize * (2 * AuditLimits.fieldMaxBytes + 256))
            var entries: [AuditEntry] = []
            var cursor: String?
            repeat {
                let response = try await client.send(.get, "\(APIPath.audit)?limit=\(AuditLimits.maxPageSize)" + (cursor.map { "&cursor=\($0)" } ?? ""), token: root)
                let page = try response.decode(Page<AuditEntry>.self)
                entries += page.items
                cursor = page.next
            } while cursor != nil
            #expect(entries.contains { $0.action == .canvasShared && $0.detail == "eve as editor" })

            // The operator deletes Eve, who has the canvas open: the log says so, and she is gone from it.
            #expect(try await client.send(.put, APIPath.canvasPresence(id, session: "eve-1"), token: try await client.token(for: "eve"))
                .decode(CanvasPresence.self).present == ["eve"])
            #expect(try await harness.withStore { store in try await store.deleteUser(name: "eve") })
            #expect(try await client.send(.get, APIPath.canvasPresence(id), token: ann).decode(CanvasPresence.self).present.isEmpty)
            let newest = try await client.send(.get, "\(APIPath.audit)?limit=1", token: root).decode(Page<AuditEntry>.self).items.first
            #expect(newest?.action == .userDeleted && newest?.target == "user eve" && newest?.actor == "(operator)")
            let heard = try await CanvasTests.events(.canvasPresenceChanged, heardBy: ["ann"], in: harness)
            #expect(heard["ann"]?.last.map { $0.data.contains("\"present\":[]") } == true)
        }
    }

    @Test("item 10: a DELETE with an Idempotency-Key answers its repeat as the first; a malformed key is 400 on every DELETE")
    func deletesAreIdempotent() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addUsers("ann")
        try await harness.addAdmins("root")
        try await harness.withServer { client in
            let ann = try await client.token(for: "ann")
            let root = try await client.token(for: "root")
            let id = try await client.send(.post, APIPath.canvases, token: ann, json: NewCanvas(name: "x", layout: Self.layout)).decode(CanvasSnapshot.self).id
            for attempt in 0..<2 {
                let headers: HTTPFields = [IdempotencyMiddleware.keyHeader: "delete-x", .authorization: "Bearer \(ann)"]
                let response = try await client.execute(uri: APIPath.canvas(id), method: .delete, headers: headers, body: nil)
                #expect(response.status == .noContent, "\(attempt)")
                #expect(response.headers[IdempotencyMiddleware.replayedHeader] == (attempt == 0 ? nil : "true"), "\(attempt)")
            }
            _ = try await RegistryTests.publish(client, token: root, RegistryTests.manifest(version: "1.0.0"))
            for (path, token) in [(APIPath.canvas(id), ann), (APIPath.registryApp("deploys"), root)] {
                let headers: HTTPFields = [IdempotencyMiddleware.keyHeader: String(repeating: "k", count: 256), .authorization: "Bearer \(token)"]
                let response = try await client.execute(uri: path, method: .delete, headers: headers, body: nil)
                #expect(response.status == .badRequest && response.apiError?.field == "Idempotency-Key", "\(path)")
            }
        }
    }
}
