import PostgresNIO
import ServerAPI

extension PostgresStore {
    /// The channel that announces each committed live event's id to every instance.
    static let liveEventChannel = "termcanvas_live_events"
    /// The transaction-wide lock every writer of a live event takes just before it takes its id:
    /// ids are then given and committed in one order, so a reader that has seen id N has seen
    /// every committed event before it, which `Last-Event-ID` and the feed rely on.
    private static let liveEventLock: Int64 = 0x7463_6c69_7665_6576 // "tclivev"

    /// Records a live event (`LiveEventDraft`) in the transaction of its change, and announces it:
    /// PostgreSQL delivers the notification only once that transaction commits, and never if it
    /// rolls back.
    func record(_ event: LiveEventDraft, on connection: PostgresConnection) async throws {
        try await connection.run("SELECT pg_advisory_xact_lock(\(Self.liveEventLock))", logger: logger)
        _ = try await connection.rows("""
            WITH event AS (INSERT INTO live_events (name, owner_id, data, recoverable)
                           VALUES (\(event.name), \(event.owner), \(event.json), \(event.isRecoverable)) RETURNING id)
            SELECT id, pg_notify(\(Self.liveEventChannel), id::text)::text FROM event
            """, as: (Int64, String).self, logger: logger)
        _ = try await run(LiveEventRetention.prune(after: event), on: connection)
    }

    /// The newest committed event's id: every event up to it has committed (see `liveEventLock`).
    package var newestLiveEvent: SQLStatement { "SELECT COALESCE(MAX(id), 0)::bigint FROM live_events" }

    /// The committed events after `lastID`, oldest first, at most `limit`, with who may see them:
    /// what the feed hands to this instance's streams.
    func committedLiveEvents(after lastID: Int64, limit: Int) async throws -> [LiveEventHub.Published] {
        try await rows("SELECT id, name, owner_id, data FROM live_events WHERE id > \(lastID) ORDER BY id LIMIT \(Int64(limit))",
                       as: (Int64, String, Int64?, String).self)
            .map { LiveEventHub.Published(event: LiveEvent(id: $0.0, name: $0.1, data: $0.3), ownerID: $0.2) }
    }
}
