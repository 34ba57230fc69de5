import Foundation
import GRDB
import ServerAPI

extension SQLiteStore {
    /// Records a live event in the transaction of the change it describes; it is published (the
    /// observers of commits told first) only once that transaction commits, and never if it rolls
    /// back. Older events are let go as `LiveEventRetention` says.
    func record(_ event: LiveEventDraft, in db: Database) throws {
        try db.execute(sql: "INSERT INTO live_events (name, owner_id, data, created_at, recoverable) VALUES (?, ?, ?, ?, ?)",
                       arguments: [event.name, event.owner, event.json, Date(), event.isRecoverable])
        let id = db.lastInsertedRowID
        try run(LiveEventRetention.prune(after: event), in: db)
        let published = LiveEventHub.Published(event: LiveEvent(id: id, name: event.name, data: event.json), ownerID: event.owner)
        let hub = liveEvents
        db.afterNextTransaction(onCommit: { _ in hub.publish(published) })
    }

    /// The id of the newest live event ever made, kept even when that event is pruned.
    package var newestLiveEvent: SQLStatement { "SELECT seq FROM sqlite_sequence WHERE name = 'live_events'" }
}
