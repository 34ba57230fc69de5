import CanvasCore
import Foundation
import ServerAPI

/// What an edit of a shared canvas came to.
package enum CanvasSubmission: Sendable, Equatable {
    case answered(CanvasLog.Answer)
    /// No such canvas, or the user is not a member of it.
    case notFound
    /// The user may see the canvas but not arrange it.
    case readOnly
}

/// A canvas's layout at a version, or why there is none.
package enum CanvasVersionLookup: Sendable, Equatable {
    case found(CanvasVersion)
    /// Older than the snapshots and changes kept.
    case compacted
    /// Past the latest version.
    case future
}

/// What renaming a canvas came to.
package enum CanvasRenaming: Sendable, Equatable {
    case renamed(CanvasSummary)
    /// No such canvas, or the user is not a member of it.
    case notFound
    case notOwner
    /// The owner has a canvas by that name.
    case nameTaken
}

/// What a change of a canvas's members came to.
package enum CanvasMembership: Sendable, Equatable {
    case done
    /// No such canvas, or the user is not a member of it.
    case notFound
    /// Only the owner shares a canvas.
    case notOwner
    case noSuchUser
    /// The owner's own role is not a member's.
    case isOwner
    case limitReached
}

/// Shared canvases: a layout at a version, the changes that led there (the last
/// `CanvasLimits.changesKept`), members with roles, and each session's last answered edit. The
/// order of changes is the order edits commit under the canvas's lock (`CanvasLog` decides each,
/// written once for both engines); every member hears each change as a live event.
extension BFFStore {
    /// Shares `layout` as a new canvas of `owner`'s; nil when they have one by that name.
    /// - Throws: `CanvasLimitReached` past `CanvasLimits.canvasesPerUser`, `CanvasTooLarge` past
    ///   `CanvasLimits.bytesMax`.
    package func createCanvas(owner: BFFUser, name: String, layout: LayoutData) async throws -> CanvasSnapshot? {
        let log = CanvasLog(layout: layout)
        let arrangement = try CanvasStorage.json(CanvasStorage.arrangement(of: log.layout))
        let now = Date().timeIntervalSince1970
        return try await keyedWrite(.lock("canvas.owner.\(owner.id)", next: .run("""
            SELECT (SELECT COUNT(*) FROM canvases WHERE owner_id = \(owner.id)),
                   (SELECT COUNT(*) FROM canvases WHERE owner_id = \(owner.id) AND name = \(name))
            """) { rows in
            guard try rows.first?.integer(1) == 0 else { return .done(nil) }
            guard try rows.first?.integer(0) ?? 0 < CanvasLimits.canvasesPerUser else { throw CanvasLimitReached() }
            return .run("""
                INSERT INTO canvases (owner_id, name, layout, version, next_pane_id, history_bytes, created_at, updated_at)
                VALUES (\(owner.id), \(name), \(arrangement), 0, \(log.nextPaneID), 0, \(now), \(now)) RETURNING id
                """) { rows in
                guard let id = try rows.first?.integer(0) else { throw BFFStoreError.unreadableRow("canvases, just written") }
                let summary = CanvasSummary(id: id, name: name, owner: owner.name, role: .owner, version: 0, panes: log.layout.panes.count,
                                            updatedAt: now)
                return try CanvasStorage.storeNewCanvas(id, layout: log.layout).then { _ in
                    Plan.done(CanvasSnapshot(canvas: summary, layout: log.layout, answered: 0))
                        .audited(.canvasCreated, by: owner.name, target: Self.target(id, name))
                }
            }
        }))
    }

    /// The canvases `user` owns or is a member of, by id, after `after`, and whether more follow.
    package func canvases(visibleTo user: Int64, after: Int64?, limit: Int) async throws -> (items: [CanvasSummary], more: Bool) {
        var statement: SQLStatement = """
            SELECT c.id, c.name, u.name, CASE WHEN c.owner_id = \(user) THEN 'owner' ELSE m.role END, c.version, c.layout, c.next_pane_id,
                   c.updated_at
            FROM canvases c JOIN users u ON u.id = c.owner_id
            LEFT JOIN canvas_members m ON m.canvas_id = c.id AND m.user_id = \(user)
            WHERE (c.owner_id = \(user) OR m.user_id IS NOT NULL)
            """
        if let after { statement += " AND c.id > \(after)" }
        statement += " ORDER BY c.id LIMIT \(limit + 1)"
        return try await runRead(Plan.run(statement) { rows in
            let items = try rows.map(Self.summary)
            return .done((Array(items.prefix(limit)), items.count > limit))
        }, snapshot: false)
    }

    /// The canvas as `user` may see it, with how far `session`'s edits were answered; nil when it
    /// is not theirs to see.
    package func canvas(_ id: Int64, visibleTo user: Int64, session: String?) async throws -> CanvasSnapshot? {
        try await runRead(Self.visible(id, to: user) { summary, row in
            CanvasStorage.wholeLayout(id, arrangement: try CanvasStorage.decode(LayoutData.self, try row.text(5))).then { layout in
                .run("SELECT last_sequence FROM canvas_sessions WHERE canvas_id = \(id) AND session = \(Self.sessionKey(session ?? "", of: user))") { rows in
                    .done(CanvasSnapshot(canvas: summary, layout: layout, answered: Int(try rows.first?.integer(0) ?? 0)))
                }
            }
        }, snapshot: true)
    }

    /// Who has canvas `id` open; nil when it is not the user's to see.
    package func canvasPresence(_ id: Int64, visibleTo user: Int64) async throws -> CanvasPresence? {
        let now = Date().timeIntervalSince1970
        return try await runRead(Self.visible(id, to: user) { _, _ in Self.presence(of: id, now: now).then { .done($0) } }, snapshot: true)
    }

    /// Says that `session` of `user`'s has canvas `id` open (`open`) or closed it, and tells every
    /// member who has it open now if that changed; nil when it is not the user's to see. A session is its user's:
    /// another's of the same id is another session; the newest
    /// `CanvasLimits.presenceSessionsPerUser` of each user are kept.
    package func setCanvasPresence(_ id: Int64, by user: BFFUser, session: String, open: Bool) async throws -> CanvasPresence? {
        let now = Date().timeIntervalSince1970
        let key = Self.sessionKey(session, of: user.id), own = Self.sessionKey("%", of: user.id)
        let change: Plan<Void> = open
            ? .run("""
                INSERT INTO canvas_presence (canvas_id, session, user_name, opened_at) VALUES (\(id), \(key), \(user.name), \(now))
                ON CONFLICT (canvas_id, session) DO UPDATE SET opened_at = excluded.opened_at
                """) { _ in
                .run("""
                    DELETE FROM canvas_presence WHERE canvas_id = \(id) AND session LIKE \(own) AND session NOT IN
                    (SELECT session FROM canvas_presence WHERE canvas_id = \(id) AND session LIKE \(own)
                     ORDER BY opened_at DESC, session LIMIT \(CanvasLimits.presenceSessionsPerUser))
                    """) { _ in .done(()) }
            }
            : .run("DELETE FROM canvas_presence WHERE canvas_id = \(id) AND session = \(key)") { _ in .done(()) }
        return try await runWrite(.lock("canvas.\(id)", next: Self.visible(id, to: user.id) { _, _ in
            Self.presence(of: id, now: now).then { before in
                change.then { _ in Self.presence(of: id, now: now) }.then { presence in
                    // Members hear of a change of who is there, not of every dashboard's word.
                    guard presence != before else { return .done(presence) }
                    return Self.tellMembers(.canvasPresenceChanged, presence, of: id).then { _ in .done(presence) }
                }
            }
        }))
    }

    /// Renames `owner`'s canvas `id` to `name` (a name is its owner's once: the owner's lock, as
    /// creating takes).
    package func renameCanvas(_ id: Int64, owner: BFFUser, to name: String) async throws -> CanvasRenaming {
        let now = Date().timeIntervalSince1970
        return try await runWrite(.lock("canvas.owner.\(owner.id)", next: Self.visible(id, to: owner.id, notFound: .notFound) { summary, _ in
            guard summary.role == .owner else { return .done(.notOwner) }
            guard summary.name != name else { return .done(.renamed(summary)) }
            return .run("SELECT COUNT(*) FROM canvases WHERE owner_id = \(owner.id) AND name = \(name)") { rows in
                guard try rows.first?.integer(0) == 0 else { return .done(.nameTaken) }
                return .run("UPDATE canvases SET name = \(name), updated_at = \(now) WHERE id = \(id)") { _ in
                    var renamed = summary
                    renamed.name = name
                    return Plan.done(.renamed(renamed))
                        .audited(.canvasRenamed, by: owner.name, target: Self.target(id, summary.name), detail: "to \"\(name)\"")
                }
            }
        }))
    }

    /// Deletes `owner`'s canvas; false when there is no such canvas of theirs.
    package func deleteCanvas(_ id: Int64, owner: BFFUser) async throws -> Bool {
        try await keyedWrite(.lock("canvas.\(id)", next: Plan.run("DELETE FROM canvases WHERE id = \(id) AND owner_id = \(owner.id) RETURNING name") { rows in
            guard let name = try rows.first?.text(0) else { return .done(false) }
            return Plan.done(true).audited(.canvasDeleted, by: owner.name, target: Self.target(id, name))
        }))
    }

    /// Orders `edit` as the canvas's next change, or refuses it (`CanvasLog.submit`, then the
    /// canvas's size), under the canvas's lock; every member hears an ordered change. What it
    /// writes is what it changes (`CanvasStorage`), whatever the canvas holds.
    package func submitCanvasEdit(_ id: Int64, by user: BFFUser, _ edit: CanvasEdit) async throws -> CanvasSubmission {
        try await runWrite(.lock("canvas.\(id)", next: Self.visible(id, to: user.id, notFound: .notFound) { summary, row in
            guard summary.role.mayEdit else { return .done(.readOnly) }
            let arrangement = try CanvasStorage.decode(LayoutData.self, try row.text(5))
            let nextPaneID = Int(try row.integer(6))
            return .run("SELECT last_sequence FROM canvas_sessions WHERE canvas_id = \(id) AND session = \(Self.sessionKey(edit.session, of: user.id))") { rows in
                let answered = Int(try rows.first?.integer(0) ?? 0)
                var log = CanvasLog(layout: arrangement, version: summary.version, nextPaneID: nextPaneID, answered: [edit.session: answered],
                                    paneLimit: CanvasLimits.panesPerCanvas)
                let logged = log.submit(edit.operation, author: user.name, origin: EditOrigin(session: edit.session, sequence: edit.sequence))
                guard logged != .repeated else { return .done(.answered(logged)) }
                let now = Date().timeIntervalSince1970
                let after = log
                return try CanvasStorage.withinSize(logged, on: id).then { answer in
                    let remembered = Self.rememberSession(id, edit, of: user.id, now: now)
                    guard case .ordered(let change) = answer else { return remembered.then { _ in .done(.answered(answer)) } }
                    return remembered.then { _ in
                        try CanvasStorage.store(change, on: id, arrangement: CanvasStorage.arrangement(of: after.layout), nextPaneID: after.nextPaneID, now: now)
                    }.then { _ in
                        Self.announce(change, on: id).then { _ in .done(.answered(answer)) }
                    }
                }
            }
        }))
    }

    /// The changes after version `after` that `user` may see, oldest first; `.compacted` when some
    /// are no longer kept (start again from the canvas itself); nil when the canvas is not theirs.
    package func canvasChanges(_ id: Int64, visibleTo user: Int64, after: Int, limit: Int) async throws -> CanvasChangePage? {
        try await runRead(Self.visible(id, to: user) { summary, _ in
            .run("""
                SELECT version, author, session, sequence, operation FROM canvas_changes
                WHERE canvas_id = \(id) AND version > \(after) ORDER BY version LIMIT \(limit + 1)
                """) { rows in
                let changes = try rows.map { row in
                    CanvasChange(version: Int(try row.integer(0)), author: try row.text(1),
                                 origin: EditOrigin(session: try row.text(2), sequence: Int(try row.integer(3))),
                                 operation: try CanvasStorage.decode(CanvasOperation.self, try row.text(4)))
                }
                if after < summary.version, changes.first?.version != after + 1 { return .done(.compacted) }
                return .done(.changes(Array(changes.prefix(limit)), more: changes.count > limit))
            }
        }, snapshot: true)
    }

    /// The canvas's layout at `version`: its base (the version before the oldest change kept) with
    /// the changes after replayed; nil when it is not `user`'s to see, `.compacted` before the
    /// base, `.future` past the latest version.
    package func canvasVersion(_ id: Int64, visibleTo user: Int64, version: Int) async throws -> CanvasVersionLookup? {
        try await runRead(Self.visible(id, to: user) { summary, _ in
            guard version <= summary.version else { return .done(.future) }
            return .run("SELECT version, layout FROM canvas_snapshots WHERE canvas_id = \(id) AND version <= \(version)") { rows in
                guard let row = rows.first else { return .done(.compacted) }
                let base = Int(try row.integer(0))
                let snapshot = try CanvasStorage.decode(LayoutData.self, try row.text(1))
                return .run("SELECT operation FROM canvas_changes WHERE canvas_id = \(id) AND version > \(base) AND version <= \(version) ORDER BY version") { rows in
                    guard rows.count == version - base else { return .done(.compacted) }
                    let operations = try rows.map { try CanvasStorage.decode(CanvasOperation.self, try $0.text(0)) }
                    let layout = try operations.reduce(snapshot) { layout, operation in try operation.applied(to: layout) }
                    return .done(.found(CanvasVersion(version: version, layout: layout)))
                }
            }
        }, snapshot: true)
    }

    /// The canvas's members, its owner first; nil when it is not `user`'s to see.
    package func canvasMembers(_ id: Int64, visibleTo user: Int64) async throws -> [CanvasMember]? {
        try await runRead(Self.visible(id, to: user) { summary, _ in
            .run("SELECT u.name, m.role FROM canvas_members m JOIN users u ON u.id = m.user_id WHERE m.canvas_id = \(id) ORDER BY u.name") { rows in
                let members = try rows.map { row in CanvasMember(user: try row.text(0), role: CanvasRole(rawValue: try row.text(1)) ?? .viewer) }
                return .done([CanvasMember(user: summary.owner, role: .owner)] + members)
            }
        }, snapshot: true)
    }

    /// Gives `member` `role` on `owner`'s canvas (or takes their membership away, with nil).
    package func setCanvasMember(_ id: Int64, owner: BFFUser, member: String, role: CanvasRole?) async throws -> CanvasMembership {
        try await runWrite(.lock("canvas.\(id)", next: Self.visible(id, to: owner.id, notFound: .notFound) { summary, _ in
            guard summary.role == .owner else { return .done(.notOwner) }
            return .run("""
                SELECT (SELECT id FROM users WHERE name = \(member)),
                       (SELECT COUNT(*) FROM canvas_members WHERE canvas_id = \(id))
                """) { rows in
                guard let memberID = rows.first?[0].flatMap({ value -> Int64? in if case .integer(let id) = value { id } else { nil } }) else {
                    // Unsharing with a name no one has is unsharing with a non-member: nothing
                    // changes, and the answer does not tell which names are users'.
                    return .done(role == nil ? .done : .noSuchUser)
                }
                guard memberID != owner.id else { return .done(.isOwner) }
                let target = Self.target(id, summary.name)
                guard let role else {
                    return .run("DELETE FROM canvas_members WHERE canvas_id = \(id) AND user_id = \(memberID) RETURNING 1") { rows in
                        rows.isEmpty ? .done(.done) : Plan.done(.done).audited(.canvasUnshared, by: owner.name, target: target, detail: member)
                    }
                }
                guard role != .owner else { return .done(.isOwner) }
                let count = try rows.first?.integer(1) ?? 0
                return .run("SELECT 1 FROM canvas_members WHERE canvas_id = \(id) AND user_id = \(memberID)") { rows in
                    guard !rows.isEmpty || count < CanvasLimits.membersPerCanvas else { return .done(.limitReached) }
                    return .run("""
                        INSERT INTO canvas_members (canvas_id, user_id, role) VALUES (\(id), \(memberID), \(role.rawValue))
                        ON CONFLICT (canvas_id, user_id) DO UPDATE SET role = excluded.role
                        """) { _ in Plan.done(.done).audited(.canvasShared, by: owner.name, target: target, detail: "\(member) as \(role.rawValue)") }
                }
            }
        }))
    }

    // MARK: - Rules

    /// The canvas `id` if `user` owns or is a member of it, with its row (id, name, owner, role,
    /// version, layout, next pane id, updated at), then `next`; else `notFound`. Writes take the canvas's lock
    /// (`.lock("canvas.ID")`) before, so instances change one canvas in turn.
    private static func visible<T: Sendable>(
        _ id: Int64, to user: Int64, notFound: T, _ next: @escaping @Sendable (CanvasSummary, SQLRow) throws -> Plan<T>
    ) -> Plan<T> {
        let statement: SQLStatement = """
            SELECT c.id, c.name, u.name, CASE WHEN c.owner_id = \(user) THEN 'owner' ELSE m.role END, c.version, c.layout, c.next_pane_id,
                   c.updated_at
            FROM canvases c JOIN users u ON u.id = c.owner_id
            LEFT JOIN canvas_members m ON m.canvas_id = c.id AND m.user_id = \(user)
            WHERE c.id = \(id) AND (c.owner_id = \(user) OR m.user_id IS NOT NULL)
            """
        return .run(statement) { rows in
            guard let row = rows.first else { return .done(notFound) }
            return try next(try summary(row), row)
        }
    }

    private static func visible<T: Sendable>(_ id: Int64, to user: Int64, _ next: @escaping @Sendable (CanvasSummary, SQLRow) throws -> Plan<T?>) -> Plan<T?> {
        visible(id, to: user, notFound: nil, next)
    }

    /// A row of id, name, owner's name, role, version, layout, next pane id, updated at.
    private static func summary(_ row: SQLRow) throws -> CanvasSummary {
        guard let role = CanvasRole(rawValue: try row.text(3)) else { throw BFFStoreError.unreadableRow("canvas_members.role") }
        return CanvasSummary(id: try row.integer(0), name: try row.text(1), owner: try row.text(2), role: role, version: Int(try row.integer(4)),
                             panes: try CanvasStorage.decode(LayoutData.self, try row.text(5)).panes.count, updatedAt: try row.real(7))
    }

    /// Keeps `edit` as the last answered one of `user`'s session, and forgets that user's sessions
    /// past their newest `CanvasLimits.sessionsKept`: no one else's sessions count.
    private static func rememberSession(_ id: Int64, _ edit: CanvasEdit, of user: Int64, now: Double) -> Plan<Void> {
        let own = sessionKey("%", of: user)
        return .run("""
            INSERT INTO canvas_sessions (canvas_id, session, last_sequence, updated_at)
            VALUES (\(id), \(sessionKey(edit.session, of: user)), \(edit.sequence), \(now))
            ON CONFLICT (canvas_id, session) DO UPDATE SET last_sequence = excluded.last_sequence, updated_at = excluded.updated_at
            """) { _ in
            .run("""
                DELETE FROM canvas_sessions WHERE canvas_id = \(id) AND session LIKE \(own) AND session NOT IN
                (SELECT session FROM canvas_sessions WHERE canvas_id = \(id) AND session LIKE \(own)
                 ORDER BY updated_at DESC, session LIMIT \(CanvasLimits.sessionsKept))
                """) { _ in .done(()) }
        }
    }

    /// A session as the store keeps it: its user's id and the id the dashboard chose (`12:ann-1`),
    /// so that a session is its user's and the same id sent by another member is theirs (issue
    /// 38). `%` for the session gives the LIKE pattern of all of a user's.
    private static func sessionKey(_ session: String, of user: Int64) -> String {
        "\(user):\(session)"
    }

    /// Records the change as a live event for the owner and each member.
    private static func announce(_ change: CanvasChange, on id: Int64) -> Plan<Void> {
        tellMembers(ServerAPI.EventName.canvasChangeApplied, CanvasChangeEvent(canvas: id, change: change), of: id)
    }

    /// Records `name` with `data` as a live event for every member of canvas `id`, owner included.
    private static func tellMembers(_ name: ServerAPI.EventName, _ data: some Encodable & Sendable, of id: Int64) -> Plan<Void> {
        .run("SELECT owner_id FROM canvases WHERE id = \(id) UNION SELECT user_id FROM canvas_members WHERE canvas_id = \(id)") { rows in
            try rows.map { try $0.integer(0) }.reversed().reduce(Plan<Void>.done(())) { next, member in
                .record(name, owner: member, data: data, then: next)
            }
        }
    }

    /// Tells every member of canvas `id` who has it open now.
    static func announcePresence(of id: Int64, now: Double) -> Plan<Void> {
        presence(of: id, now: now).then { presence in tellMembers(.canvasPresenceChanged, presence, of: id) }
    }

    /// Who has canvas `id` open: the users whose dashboards said so within `presenceLasts`.
    private static func presence(of id: Int64, now: Double) -> Plan<CanvasPresence> {
        .run("""
            SELECT DISTINCT user_name FROM canvas_presence WHERE canvas_id = \(id) AND opened_at > \(now - CanvasLimits.presenceLasts)
            ORDER BY user_name
            """) { rows in .done(CanvasPresence(canvas: id, present: try rows.map { try $0.text(0) })) }
    }

    /// How the audit log names a canvas: `canvas 12 "on-call"`.
    private static func target(_ id: Int64, _ name: String) -> String {
        "canvas \(id) \"\(name)\""
    }
}

/// A page of a canvas's changes, or word that the ones asked for were folded into its layout.
package enum CanvasChangePage: Sendable, Equatable {
    case changes([CanvasChange], more: Bool)
    case compacted
}

/// A user owns as many canvases as they may.
package struct CanvasLimitReached: Error {}
