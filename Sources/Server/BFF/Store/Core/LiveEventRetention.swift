import MicroAppAPI

/// Which live events the database keeps for `Last-Event-ID` resume, written once for both
/// engines: so that no one's events push out anyone else's resume point.
///
/// - A user's own events are kept per user: their newest `keptPerUser`. A flood of one user's
///   writes lets go of their own older events only.
/// - Events a client recovers from by itself (`LiveEventDraft.isRecoverable`: a shared canvas's,
///   which a dashboard catches up on by version after every reconnect) are kept apart, their
///   newest `recoverableKeptPerUser` a user, and letting them go costs no one a reset: an owner
///   who adds fifty users and edits fast pushes out only those users' canvas events.
/// - Events for everyone (chat) are kept, their newest `keptForEveryone`.
///
/// Each user has a horizon, the newest id let go of theirs (`live_event_horizons`; user 0 holds
/// the events for everyone's): a client resuming from an id before its user's or everyone's
/// horizon has missed events and must reload; one resuming from any later id has missed none.
/// Pruning runs every `pruneEvery` events of a kind, so a prune's cost is shared.
enum LiveEventRetention {
    static let keptPerUser = 1000
    static let recoverableKeptPerUser = 200
    static let keptForEveryone = 10_000
    static let pruneEvery: Int64 = 16

    /// What follows recording event `id`: every `pruneEvery` ids, the event's kind of its
    /// owner's (or everyone's) events past what is kept are let go, and the horizon moves past
    /// them unless they are recoverable.
    static func prune(after id: Int64, of event: LiveEventDraft) -> Plan<Void> {
        guard id % pruneEvery == 0 else { return .done(()) }
        let kept: Int, scope: SQLStatement, horizonOwner: Int64
        if let owner = event.owner {
            kept = event.isRecoverable ? recoverableKeptPerUser : keptPerUser
            scope = "owner_id = \(owner) AND recoverable = \(event.isRecoverable)"
            horizonOwner = owner
        } else {
            kept = keptForEveryone
            scope = "owner_id IS NULL"
            horizonOwner = 0
        }
        return .run("SELECT id FROM live_events WHERE \(scope) ORDER BY id DESC LIMIT 1 OFFSET \(kept)") { rows in
            guard let newestLetGo = try rows.first?.integer(0) else { return .done(()) }
            return .run("DELETE FROM live_events WHERE \(scope) AND id <= \(newestLetGo)") { _ in
                guard !event.isRecoverable else { return .done(()) }
                return .run("""
                    INSERT INTO live_event_horizons (owner_id, let_go_through) VALUES (\(horizonOwner), \(newestLetGo))
                    ON CONFLICT (owner_id) DO UPDATE SET let_go_through = excluded.let_go_through
                    """) { _ in .done(()) }
            }
        }
    }

    /// The newest id let go of what `user` may see: theirs or everyone's (0 for none).
    static func horizon(of user: Int64) -> Plan<Int64> {
        .run("SELECT COALESCE(MAX(let_go_through), 0) FROM live_event_horizons WHERE owner_id IN (0, \(user))") { rows in
            .done(try rows.first?.integer(0) ?? 0)
        }
    }
}
