import Foundation
import GRDB
import MicroAppAPI

/// A row of `liveEvent`: a committed change, visible to one owner or (owner NULL) to everyone.
struct LiveEventRecord: Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "liveEvent"
    var id: Int64?
    var name: String
    var ownerId: Int64?
    var data: String
    var createdAt: Date

    enum Columns {
        static let id = Column(CodingKeys.id)
        static let ownerId = Column(CodingKeys.ownerId)
    }

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }

    var event: LiveEvent { LiveEvent(id: id ?? 0, name: name, data: data) }
}

/// What a client resuming from a `Last-Event-ID` gets.
public enum LiveEventReplay: Equatable, Sendable {
    /// The events after the given id, oldest first (possibly none).
    case events([LiveEvent])
    /// Events the client never saw have been pruned (or the id is from another database): it must
    /// reload, and resume after `newest`.
    case reset(newest: Int64)
}

extension SQLiteStore {
    /// How many events the database keeps for `Last-Event-ID` resume; older ones are pruned.
    static let retainedLiveEvents: Int64 = 10_000

    /// Records a live event in the transaction of the change it describes; it is published to the
    /// connected streams only once that transaction commits, and never if it rolls back.
    func record(_ name: EventName, owner: Int64?, data: some Encodable, in db: Database) throws {
        let json = String(decoding: try JSONEncoder().encode(data), as: UTF8.self)
        try record(name.rawValue, owner: owner, json: json, in: db)
    }

    /// Records an event by name with its data as JSON text: a webhook's, which the server passes on
    /// as it came.
    func record(_ name: String, owner: Int64?, json: String, in db: Database) throws {
        var record = LiveEventRecord(id: nil, name: name, ownerId: owner, data: json, createdAt: Date())
        try record.insert(db)
        guard let id = record.id else { return }
        if id % 256 == 0 {
            try LiveEventRecord.filter(LiveEventRecord.Columns.id <= id - Self.retainedLiveEvents).deleteAll(db)
        }
        let published = LiveEventHub.Published(event: record.event, ownerID: owner)
        let hub = liveEvents
        db.afterNextTransaction(onCommit: { _ in hub.publish(published) })
    }

    /// The id of the newest live event ever made (0 for none), kept even when that event is pruned.
    public func newestLiveEventID() async throws -> Int64 {
        try read { db in try Self.newestLiveEventID(db) }
    }

    private static func newestLiveEventID(_ db: Database) throws -> Int64 {
        try Int64.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = 'liveEvent'") ?? 0
    }

    /// The events after `lastID` that `user` may see, oldest first, at most `limit`; or `.reset`
    /// when some of them are no longer kept.
    public func liveEvents(after lastID: Int64, visibleTo user: Int64, limit: Int) async throws -> LiveEventReplay {
        try read { db in
            let newest = try Self.newestLiveEventID(db)
            let oldest = try Int64.fetchOne(db, sql: "SELECT MIN(id) FROM liveEvent") ?? newest + 1
            guard lastID <= newest, lastID + 1 >= oldest else { return .reset(newest: newest) }
            let records = try LiveEventRecord
                .filter(LiveEventRecord.Columns.id > lastID)
                .filter(LiveEventRecord.Columns.ownerId == nil || LiveEventRecord.Columns.ownerId == user)
                .order(LiveEventRecord.Columns.id)
                .limit(limit)
                .fetchAll(db)
            return .events(records.map(\.event))
        }
    }
}
