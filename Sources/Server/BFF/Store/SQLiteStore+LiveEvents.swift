import Foundation
import GRDB
import MicroAppAPI

/// What a client resuming from a `Last-Event-ID` gets.
public enum LiveEventReplay: Equatable, Sendable {
    /// The events after the given id, oldest first (possibly none).
    case events([LiveEvent])
    /// Events the client never saw have been pruned (or the id is from another database): it must
    /// reload, and resume after `newest`.
    case reset(newest: Int64)
}

extension SQLiteStore {
    /// Records a live event in the transaction of the change it describes; it is published to the
    /// connected streams only once that transaction commits (the todo pages it makes stale dropped
    /// first), and never if it rolls back. Older events are let go as `LiveEventRetention` says.
    func record(_ event: LiveEventDraft, in db: Database) throws {
        try db.execute(sql: "INSERT INTO live_events (name, owner_id, data, created_at, recoverable) VALUES (?, ?, ?, ?, ?)",
                       arguments: [event.name, event.owner, event.json, Date(), event.isRecoverable])
        let id = db.lastInsertedRowID
        try run(LiveEventRetention.prune(after: event), in: db)
        let published = LiveEventHub.Published(event: LiveEvent(id: id, name: event.name, data: event.json), ownerID: event.owner)
        let (hub, pages, staleOwner) = (liveEvents, todoPages, event.staleTodoPagesOwner)
        db.afterNextTransaction(onCommit: { _ in
            if let staleOwner { pages.invalidate(owner: staleOwner) }
            hub.publish(published)
        })
    }

    /// The id of the newest live event ever made (0 for none), kept even when that event is pruned.
    public func newestLiveEventID() async throws -> Int64 {
        try read { db in try Self.newestLiveEventID(db) }
    }

    private static func newestLiveEventID(_ db: Database) throws -> Int64 {
        try Int64.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = 'live_events'") ?? 0
    }

    /// The events after `lastID` that `user` may see, oldest first, at most `limit`; or `.reset`
    /// when some of them are no longer kept (`LiveEventRetention`).
    public func liveEvents(after lastID: Int64, visibleTo user: Int64, limit: Int) async throws -> LiveEventReplay {
        try read { db in
            let newest = try Self.newestLiveEventID(db)
            let horizon = try run(LiveEventRetention.horizon(of: user), in: db)
            guard lastID <= newest, lastID >= horizon else { return .reset(newest: newest) }
            let rows = try Row.fetchAll(db, sql: """
                SELECT id, name, data FROM live_events WHERE id > ? AND (owner_id IS NULL OR owner_id = ?) ORDER BY id LIMIT ?
                """, arguments: [lastID, user, limit])
            return .events(rows.map { row in LiveEvent(id: row[0], name: row[1], data: row[2]) })
        }
    }
}
