import BFF
import CanvasCore
import Foundation
import HummingbirdTesting
import ServerAPI
import Testing

@Suite("BFF shared canvases API")
struct CanvasTests {
    static let layout = LayoutData(name: "on-call", panes: [
        Pane(id: 1, app: .todo, frame: Rect(x: 0, y: 0, width: 6, height: 12)),
        Pane(id: 2, app: .chat, frame: Rect(x: 6, y: 0, width: 6, height: 12)),
    ])

    static func edit(_ sequence: Int, _ operation: CanvasOperation, session: String = "ann-1") -> CanvasEdit {
        CanvasEdit(session: session, sequence: sequence, operation: operation)
    }

    /// The live events of `name` each of `users` has, by user.
    static func events(_ event: ServerAPI.EventName, heardBy users: [String], in harness: BFFHarness) async throws -> [String: [LiveEvent]] {
        try await harness.withStore { store in
            let all = try await store.users()
            var heard: [String: [LiveEvent]] = [:]
            for name in users {
                let user = try #require(all.first { $0.name == name })
                guard case .events(let events) = try await store.liveEvents(after: 0, visibleTo: user.id, limit: 100) else {
                    Issue.record("reset")
                    continue
                }
                heard[user.name] = events.filter { $0.name == event.rawValue }
            }
            return heard
        }
    }

    @Test("a canvas is created, listed and read; names and layouts are checked; a name is its owner's once")
    func createAndRead() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addUsers("ann", "bob")
        try await harness.withServer { client in
            let ann = try await client.token(for: "ann")
            let bob = try await client.token(for: "bob")
            let created = try await client.send(.post, APIPath.canvases, token: ann, json: NewCanvas(name: "on-call", layout: Self.layout))
            #expect(created.status == .created)
            let snapshot = try created.decode(CanvasSnapshot.self)
            #expect(snapshot.owner == "ann" && snapshot.role == .owner && snapshot.version == 0)
            #expect(snapshot.layout.panes == Self.layout.panes && snapshot.layout.focused == nil)
            let id = snapshot.id
            let listed = try await client.send(.get, APIPath.canvases, token: ann).decode(Page<CanvasSummary>.self).items
            #expect(listed.map { var summary = $0; summary.updatedAt = nil; return summary } == [snapshot.summary])
            #expect(listed.first?.panes == Self.layout.panes.count && listed.first?.updatedAt ?? 0 > Date().timeIntervalSince1970 - 60)
            #expect(try await client.send(.get, APIPath.canvas(id), token: ann).decode(CanvasSnapshot.self) == snapshot)
            // Not a member: as if it did not exist.
            #expect(try await client.send(.get, APIPath.canvases, token: bob).decode(Page<CanvasSummary>.self).items.isEmpty)
            #expect(try await client.send(.get, APIPath.canvas(id), token: bob).status == .notFound)
            #expect(try await client.send(.post, APIPath.canvasChanges(id), token: bob, json: Self.edit(1, .remove(1))).status == .notFound)
            #expect(try await client.send(.delete, APIPath.canvas(id), token: bob).status == .notFound)

            let again = try await client.send(.post, APIPath.canvases, token: ann, json: NewCanvas(name: "on-call", layout: Self.layout))
            #expect(again.status == .conflict && again.apiError?.field == "name")
            for name in ["", String(repeating: "x", count: 65), "tab\there"] {
                let refused = try await client.send(.post, APIPath.canvases, token: ann, json: NewCanvas(name: name, layout: Self.layout))
                #expect(refused.status == .badRequest && refused.apiError?.field == "name", "\(name)")
            }
            var overlapping = Self.layout
            overlapping.panes[1].frame = Rect(x: 4, y: 0, width: 6, height: 12)
            let refused = try await client.send(.post, APIPath.canvases, token: ann, json: NewCanvas(name: "bad", layout: overlapping))
            #expect(refused.status == .badRequest && refused.apiError?.field == "layout")
            // Bob's canvas may have the same name.
            #expect(try await client.send(.post, APIPath.canvases, token: bob, json: NewCanvas(name: "on-call", layout: Self.layout)).status == .created)
            #expect(try await client.send(.delete, APIPath.canvas(id), token: ann).status == .noContent)
            #expect(try await client.send(.get, APIPath.canvas(id), token: ann).status == .notFound)
        }
    }

    @Test("edits are ordered, refused or answered once; members catch up by version")
    func edits() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addUsers("ann")
        try await harness.withServer { client in
            let ann = try await client.token(for: "ann")
            let id = try await client.send(.post, APIPath.canvases, token: ann, json: NewCanvas(name: "x", layout: Self.layout))
                .decode(CanvasSnapshot.self).id
            let resize = try await client.send(.post, APIPath.canvasChanges(id), token: ann, json: Self.edit(1, .resize(1, to: Size(width: 8, height: 12))))
            #expect(resize.status == .ok)
            let answer = try resize.decode(CanvasEditAnswer.self)
            #expect(answer.outcome == .ordered && answer.change?.version == 1 && answer.change?.author == "ann")
            // The neighbour gave way, as in arrange mode.
            let after = try await client.send(.get, APIPath.canvas(id) + "?session=ann-1", token: ann).decode(CanvasSnapshot.self)
            #expect(after.layout.pane(2)?.frame == Rect(x: 8, y: 0, width: 4, height: 12) && after.version == 1 && after.answered == 1)

            let repeated = try await client.send(.post, APIPath.canvasChanges(id), token: ann, json: Self.edit(1, .resize(1, to: Size(width: 8, height: 12))))
            #expect(try repeated.decode(CanvasEditAnswer.self) == CanvasEditAnswer(outcome: .repeated))
            let refused = try await client.send(.post, APIPath.canvasChanges(id), token: ann, json: Self.edit(2, .remove(7)))
            #expect(try refused.decode(CanvasEditAnswer.self) == CanvasEditAnswer(outcome: .refused, reason: "no pane #7"))
            // A new pane is numbered by the canvas, whatever its author called it.
            let wide = Rect(x: 8, y: 0, width: 4, height: 4)
            _ = try await client.send(.post, APIPath.canvasChanges(id), token: ann, json: Self.edit(3, .resize(2, to: Size(width: 4, height: 8))))
            let added = try await client.send(.post, APIPath.canvasChanges(id), token: ann,
                                              json: Self.edit(4, .add(Pane(id: 2_000_000_000, app: .calendar, frame: Rect(x: 8, y: 8, width: 4, height: 4)))))
            #expect(try added.decode(CanvasEditAnswer.self).change?.operation == .add(Pane(id: 3, app: .calendar, frame: Rect(x: 8, y: 8, width: 4, height: 4))))
            _ = wide

            let page = try await client.send(.get, APIPath.canvasChanges(id) + "?after=1", token: ann).decode(Page<CanvasChange>.self)
            #expect(page.items.map(\.version) == [2, 3] && page.next == nil)
            let first = try await client.send(.get, APIPath.canvasChanges(id) + "?limit=1", token: ann).decode(Page<CanvasChange>.self)
            #expect(first.items.map(\.version) == [1] && first.next == "1")

            for bad in [Self.edit(0, .remove(1)), Self.edit(5, .remove(1), session: "no spaces"), Self.edit(5, .remove(1), session: ""),
                        Self.edit(5, .configure(1, ["k": String(repeating: "v", count: CanvasLimits.valuesMaxBytes)]))] {
                #expect(try await client.send(.post, APIPath.canvasChanges(id), token: ann, json: bad).status == .badRequest, "\(bad)")
            }
            #expect(try await client.send(.get, APIPath.canvasChanges(id) + "?after=-1", token: ann).status == .badRequest)
        }
    }

    @Test("a session is its user's: another member sending the same id cannot silence it, see how far it got, or make it forgotten; unsharing tells no names")
    func sessionsAreTheirUsers() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addUsers("ann", "bob")
        try await harness.withServer { client in
            let ann = try await client.token(for: "ann")
            let bob = try await client.token(for: "bob")
            let id = try await client.send(.post, APIPath.canvases, token: ann, json: NewCanvas(name: "x", layout: Self.layout))
                .decode(CanvasSnapshot.self).id
            #expect(try await client.send(.put, APIPath.canvasMember(id, user: "bob"), token: ann, json: CanvasMemberRole(role: .editor)).status == .noContent)
            let swap = Self.edit(1, .move(1, to: Point(x: 6, y: 0)))
            #expect(try await client.send(.post, APIPath.canvasChanges(id), token: ann, json: swap).decode(CanvasEditAnswer.self).outcome == .ordered)

            // Bob sends under Ann's session id, far ahead (an edit refused): Ann's next edit still counts.
            let silencing = Self.edit(2_147_483_646, .remove(99), session: "ann-1")
            #expect(try await client.send(.post, APIPath.canvasChanges(id), token: bob, json: silencing).decode(CanvasEditAnswer.self).outcome == .refused)
            let next = Self.edit(2, .resize(1, to: Size(width: 5, height: 12)))
            #expect(try await client.send(.post, APIPath.canvasChanges(id), token: ann, json: next).decode(CanvasEditAnswer.self).outcome == .ordered)
            // How far a session got is said to its own user only.
            #expect(try await client.send(.get, APIPath.canvas(id) + "?session=ann-1", token: bob).decode(CanvasSnapshot.self).answered == 2_147_483_646)
            #expect(try await client.send(.get, APIPath.canvas(id) + "?session=ann-1", token: ann).decode(CanvasSnapshot.self).answered == 2)

            // Bob's many sessions, refused edits each, do not make the server forget Ann's answer.
            for session in 0...CanvasLimits.sessionsKept {
                _ = try await client.send(.post, APIPath.canvasChanges(id), token: bob, json: Self.edit(1, .remove(99), session: "bob-\(session)"))
            }
            #expect(try await client.send(.post, APIPath.canvasChanges(id), token: ann, json: next).decode(CanvasEditAnswer.self).outcome == .repeated)
            let versions = try await client.send(.get, APIPath.canvasChanges(id), token: ann).decode(Page<CanvasChange>.self).items.map(\.version)
            #expect(versions == [1, 2], "each of Ann's edits ordered once")

            // Presence: Bob's PUT and DELETE under Ann's session id are his own session's.
            #expect(try await client.send(.put, APIPath.canvasPresence(id, session: "ann-1"), token: ann).decode(CanvasPresence.self).present == ["ann"])
            #expect(try await client.send(.delete, APIPath.canvasPresence(id, session: "ann-1"), token: bob).decode(CanvasPresence.self).present == ["ann"])
            for session in 0..<(CanvasLimits.presenceSessionsPerUser + 4) {
                _ = try await client.send(.put, APIPath.canvasPresence(id, session: "bob-\(session)"), token: bob)
            }
            #expect(try await client.send(.get, APIPath.canvasPresence(id), token: ann).decode(CanvasPresence.self).present == ["ann", "bob"])
            #expect(try await client.send(.delete, APIPath.canvasPresence(id, session: "ann-1"), token: ann).decode(CanvasPresence.self).present == ["bob"])
            // Unsharing does not tell which names are users': no one's name and a non-member's alike.
            try await harness.addUsers("carl")
            for name in ["carl", "nobody-at-all"] {
                #expect(try await client.send(.delete, APIPath.canvasMember(id, user: name), token: ann).status == .noContent, "\(name)")
            }
            // Only Bob's newest sessions are kept: closing those, he has closed them all.
            for session in 4..<(CanvasLimits.presenceSessionsPerUser + 4) {
                _ = try await client.send(.delete, APIPath.canvasPresence(id, session: "bob-\(session)"), token: bob)
            }
            #expect(try await client.send(.get, APIPath.canvasPresence(id), token: ann).decode(CanvasPresence.self).present.isEmpty)
        }
    }

    @Test("the owner shares: viewers see and hear, editors arrange too; a viewer's edit is refused; sharing is the owner's")
    func members() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addUsers("ann", "bob", "carl")
        try await harness.withServer { client in
            let ann = try await client.token(for: "ann")
            let bob = try await client.token(for: "bob")
            let carl = try await client.token(for: "carl")
            let id = try await client.send(.post, APIPath.canvases, token: ann, json: NewCanvas(name: "x", layout: Self.layout))
                .decode(CanvasSnapshot.self).id
            #expect(try await client.send(.put, APIPath.canvasMember(id, user: "bob"), token: ann, json: CanvasMemberRole(role: .viewer)).status == .noContent)
            #expect(try await client.send(.get, APIPath.canvases, token: bob).decode(Page<CanvasSummary>.self).items.map(\.role) == [.viewer])
            let viewerEdit = try await client.send(.post, APIPath.canvasChanges(id), token: bob, json: Self.edit(1, .remove(1), session: "bob-1"))
            #expect(viewerEdit.status == .forbidden)
            // Only the owner shares.
            #expect(try await client.send(.put, APIPath.canvasMember(id, user: "carl"), token: bob, json: CanvasMemberRole(role: .editor)).status == .forbidden)
            #expect(try await client.send(.put, APIPath.canvasMember(id, user: "nobody"), token: ann, json: CanvasMemberRole(role: .viewer)).status == .notFound)
            #expect(try await client.send(.put, APIPath.canvasMember(id, user: "ann"), token: ann, json: CanvasMemberRole(role: .viewer)).status == .forbidden)

            #expect(try await client.send(.put, APIPath.canvasMember(id, user: "bob"), token: ann, json: CanvasMemberRole(role: .editor)).status == .noContent)
            let editorEdit = try await client.send(.post, APIPath.canvasChanges(id), token: bob, json: Self.edit(1, .swap(1, 2), session: "bob-1"))
            #expect(try editorEdit.decode(CanvasEditAnswer.self).outcome == .ordered)
            #expect(try await client.send(.get, APIPath.canvasMembers(id), token: bob).decode([CanvasMember].self)
                == [CanvasMember(user: "ann", role: .owner), CanvasMember(user: "bob", role: .editor)])
            #expect(try await client.send(.get, APIPath.canvasMembers(id), token: carl).status == .notFound)

            // Every member hears the change on the live stream; others do not.
            let heard = try await Self.events(.canvasChangeApplied, heardBy: ["ann", "bob", "carl"], in: harness)
            #expect(heard.mapValues(\.isEmpty) == ["ann": false, "bob": false, "carl": true])

            #expect(try await client.send(.delete, APIPath.canvasMember(id, user: "bob"), token: ann).status == .noContent)
            #expect(try await client.send(.get, APIPath.canvas(id), token: bob).status == .notFound)
            #expect(try await client.send(.delete, APIPath.canvas(id), token: ann).status == .noContent)
        }
    }

    @Test("a layout of an earlier version is read again from the base and the changes after: every version whose changes are kept")
    func versions() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addUsers("ann", "carl")
        try await harness.withServer { client in
            let ann = try await client.token(for: "ann")
            let carl = try await client.token(for: "carl")
            let id = try await client.send(.post, APIPath.canvases, token: ann, json: NewCanvas(name: "on-call", layout: Self.layout))
                .decode(CanvasSnapshot.self).id
            // The same edits on a log of our own say what each version was.
            var log = CanvasLog(layout: Self.layout)
            var expected = [0: log.layout]
            for sequence in 1...(CanvasLimits.changesKept + 101) {
                let operation = CanvasOperation.resize(1, to: Size(width: 4 + sequence % 4, height: 12))
                let answer = try await client.send(.post, APIPath.canvasChanges(id), token: ann, json: Self.edit(sequence, operation))
                    .decode(CanvasEditAnswer.self)
                _ = log.submit(operation, author: "ann", origin: EditOrigin(session: "ann-1", sequence: sequence))
                #expect(answer.outcome == .ordered && answer.change?.version == log.version, "\(sequence)")
                expected[log.version] = log.layout
            }
            // Every version whose changes are kept can be read (issue 38, item 11: at 1160 the
            // changes after 160 were served and versions 160…199 were gone): the oldest kept, and
            // at most `changesKept` back.
            var oldest = log.version
            while oldest > 0, try await client.send(.get, "\(APIPath.canvasChanges(id))?after=\(oldest - 1)&limit=1", token: ann).status == .ok {
                oldest -= 1
            }
            #expect(oldest > 0 && oldest <= log.version - CanvasLimits.changesKept * 9 / 10, "kept from \(oldest)")
            for version in [oldest, oldest + 1, 250, 1000, log.version] {
                let read = try await client.send(.get, APIPath.canvasVersion(id, version: version), token: ann).decode(CanvasVersion.self)
                #expect(read.version == version && read.layout.panes == expected[version]?.panes, "\(version)")
            }
            // Older than the changes kept; past the latest; not a member's.
            for version in [0, oldest - 1] {
                #expect(try await client.send(.get, APIPath.canvasVersion(id, version: version), token: ann).status == .gone, "\(version)")
            }
            #expect(try await client.send(.get, APIPath.canvasVersion(id, version: log.version + 1), token: ann).status == .notFound)
            #expect(try await client.send(.get, APIPath.canvasVersion(id, version: 250), token: carl).status == .notFound)
            #expect(try await client.send(.get, "\(APIPath.canvas(id))/versions/-1", token: ann).status == .badRequest)
        }
    }

    @Test("a canvas is renamed by its owner only, to a name of theirs not taken, and the audit log says so")
    func rename() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addUsers("ann", "bob")
        try await harness.addAdmins("root")
        try await harness.withServer { client in
            let ann = try await client.token(for: "ann")
            let bob = try await client.token(for: "bob")
            let id = try await client.send(.post, APIPath.canvases, token: ann, json: NewCanvas(name: "on-call", layout: Self.layout))
                .decode(CanvasSnapshot.self).id
            _ = try await client.send(.post, APIPath.canvases, token: ann, json: NewCanvas(name: "taken", layout: Self.layout))
            #expect(try await client.send(.put, APIPath.canvasMember(id, user: "bob"), token: ann, json: CanvasMemberRole(role: .editor)).status == .noContent)

            #expect(try await client.send(.patch, APIPath.canvas(id), token: bob, json: CanvasRename(name: "bobs")).status == .forbidden)
            let taken = try await client.send(.patch, APIPath.canvas(id), token: ann, json: CanvasRename(name: "taken"))
            #expect(taken.status == .conflict && taken.apiError?.field == "name")
            #expect(try await client.send(.patch, APIPath.canvas(id), token: ann, json: CanvasRename(name: "bad\u{1b}name")).status == .badRequest)
            let renamed = try await client.send(.patch, APIPath.canvas(id), token: ann, json: CanvasRename(name: "ops"))
            #expect(try renamed.decode(CanvasSummary.self).name == "ops")
            #expect(try await client.send(.get, APIPath.canvas(id), token: bob).decode(CanvasSnapshot.self).name == "ops")

            let root = try await client.token(for: "root")
            let audit = try await client.send(.get, APIPath.audit, token: root).decode(Page<AuditEntry>.self).items
                .filter { $0.action != .userLoggedIn }
            #expect(audit.first.map { [$0.actor, $0.action.rawValue, $0.target, $0.detail] }
                == ["ann", "canvas.renamed", "canvas \(id) \"on-call\"", "to \"ops\""])
        }
    }

    @Test("presence: who has a canvas open, said by each dashboard's session, heard by every member, closed only by its own user")
    func presence() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addUsers("ann", "bob", "carl")
        try await harness.withServer { client in
            let ann = try await client.token(for: "ann")
            let bob = try await client.token(for: "bob")
            let carl = try await client.token(for: "carl")
            let id = try await client.send(.post, APIPath.canvases, token: ann, json: NewCanvas(name: "on-call", layout: Self.layout))
                .decode(CanvasSnapshot.self).id
            #expect(try await client.send(.put, APIPath.canvasMember(id, user: "bob"), token: ann, json: CanvasMemberRole(role: .viewer)).status == .noContent)
            #expect(try await client.send(.get, APIPath.canvasPresence(id), token: ann).decode(CanvasPresence.self).present.isEmpty)

            #expect(try await client.send(.put, APIPath.canvasPresence(id, session: "bob-1"), token: bob).decode(CanvasPresence.self).present == ["bob"])
            #expect(try await client.send(.put, APIPath.canvasPresence(id, session: "ann-1"), token: ann).decode(CanvasPresence.self).present == ["ann", "bob"])
            // Two dashboards of one user count once.
            #expect(try await client.send(.put, APIPath.canvasPresence(id, session: "ann-2"), token: ann).decode(CanvasPresence.self).present == ["ann", "bob"])
            // Ann cannot close Bob's session; Bob can.
            #expect(try await client.send(.delete, APIPath.canvasPresence(id, session: "bob-1"), token: ann).decode(CanvasPresence.self).present == ["ann", "bob"])
            #expect(try await client.send(.delete, APIPath.canvasPresence(id, session: "bob-1"), token: bob).decode(CanvasPresence.self).present == ["ann"])
            #expect(try await client.send(.get, APIPath.canvasPresence(id), token: bob).decode(CanvasPresence.self).present == ["ann"])
            // Not a member, a bad session: as for any canvas route.
            #expect(try await client.send(.put, APIPath.canvasPresence(id, session: "carl-1"), token: carl).status == .notFound)
            #expect(try await client.send(.get, APIPath.canvasPresence(id), token: carl).status == .notFound)
            #expect(try await client.send(.put, APIPath.canvasPresence(id, session: "no%20spaces"), token: ann).status == .badRequest)

            // Members hear who has it open; others do not.
            let heard = try await Self.events(.canvasPresenceChanged, heardBy: ["ann", "bob", "carl"], in: harness)
            #expect(heard["carl"]?.isEmpty == true)
            for name in ["ann", "bob"] {
                let last = try JSONDecoder().decode(CanvasPresence.self, from: Data(try #require(heard[name]?.last).data.utf8))
                #expect(last == CanvasPresence(canvas: id, present: ["ann"]), "\(name)")
            }
        }
    }

    @Test("the audit log says who created, shared, unshared and deleted which canvas, newest first, to admins only")
    func audit() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addUsers("ann", "bob")
        try await harness.addAdmins("root")
        try await harness.withServer { client in
            let ann = try await client.token(for: "ann")
            let root = try await client.token(for: "root")
            let id = try await client.send(.post, APIPath.canvases, token: ann, json: NewCanvas(name: "on-call", layout: Self.layout))
                .decode(CanvasSnapshot.self).id
            _ = try await client.send(.put, APIPath.canvasMember(id, user: "bob"), token: ann, json: CanvasMemberRole(role: .viewer))
            _ = try await client.send(.put, APIPath.canvasMember(id, user: "bob"), token: ann, json: CanvasMemberRole(role: .editor))
            _ = try await client.send(.delete, APIPath.canvasMember(id, user: "bob"), token: ann)
            _ = try await client.send(.delete, APIPath.canvasMember(id, user: "bob"), token: ann)  // not a member: nothing to record
            _ = try await client.send(.post, APIPath.canvasChanges(id), token: ann, json: Self.edit(1, .swap(1, 2)))  // edits are the canvas's own
            _ = try await client.send(.delete, APIPath.canvas(id), token: ann)
            let target = "canvas \(id) \"on-call\""
            let page = try await client.send(.get, APIPath.audit, token: root).decode(Page<AuditEntry>.self)
            #expect(page.items.filter { $0.action != .userLoggedIn }.map { "\($0.actor) \($0.action.rawValue) \($0.target) \($0.detail)" } == [
                "ann canvas.deleted \(target) ", "ann canvas.unshared \(target) bob", "ann canvas.shared \(target) bob as editor",
                "ann canvas.shared \(target) bob as viewer", "ann canvas.created \(target) ",
            ])
            #expect(page.items.allSatisfy { $0.at.hasSuffix("Z") })
            let older = try await client.send(.get, APIPath.audit + "?limit=2&cursor=\(page.items[1].id)", token: root).decode(Page<AuditEntry>.self)
            #expect(older.items.map(\.action) == [.canvasShared, .canvasShared] && older.next != nil)
            #expect(try await client.send(.get, APIPath.audit, token: ann).status == .forbidden)
        }
    }
}
