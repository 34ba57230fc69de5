import Foundation
import ServerAPI

/// What a client resuming from a `Last-Event-ID` gets.
package enum LiveEventReplay: Equatable, Sendable {
    /// The events after the given id, oldest first (possibly none).
    case events([LiveEvent])
    /// Events the client never saw have been pruned (or the id is from another database): it must
    /// reload, and resume after `newest`.
    case reset(newest: Int64)
}

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
///
/// A prune follows one event in `pruneOdds` of a kind, drawn at random: the cost is shared, and
/// no kind is left out (a rule on the event's id was: the events an edit fans out to two members
/// take ids of alternate parity, so one member's never met it). Events younger than `grace` stay
/// whatever their number, so an instance's feed that lags behind (PostgreSQL) still finds every
/// event it has not handed on.
enum LiveEventRetention {
    static let keptPerUser = 1000
    static let recoverableKeptPerUser = 200
    static let keptForEveryone = 10_000
    static let pruneOdds = 16
    static let grace: Double = 60

    /// What follows recording `event`: now and then, the event's kind of its owner's (or
    /// everyone's) events past what is kept are let go, and the horizon moves past them unless
    /// they are recoverable.
    static func prune(after event: LiveEventDraft) -> Plan<Void> {
        guard Int.random(in: 0..<pruneOdds) == 0 else { return .done(()) }
        let kept = event.owner == nil ? keptForEveryone : event.isRecoverable ? recoverableKeptPerUser : keptPerUser
        let scope: SQLStatement = event.owner.map { "owner_id = \($0) AND recoverable = \(event.isRecoverable)" }
            ?? "owner_id IS NULL AND recoverable = \(event.isRecoverable)"
        let settled = Date().addingTimeInterval(-grace)
        return .run("SELECT id FROM live_events WHERE \(scope) ORDER BY id DESC LIMIT 1 OFFSET \(kept)") { rows in
            guard let newestLetGo = try rows.first?.integer(0) else { return .done(()) }
            return .run("DELETE FROM live_events WHERE \(scope) AND id <= \(newestLetGo) AND created_at < \(settled) RETURNING id") { rows in
                guard !event.isRecoverable, let letGo = try rows.map({ try $0.integer(0) }).max() else { return .done(()) }
                return .run("""
                    INSERT INTO live_event_horizons (owner_id, let_go_through) VALUES (\(event.owner ?? 0), \(letGo))
                    ON CONFLICT (owner_id) DO UPDATE SET let_go_through = CASE
                        WHEN excluded.let_go_through > live_event_horizons.let_go_through THEN excluded.let_go_through
                        ELSE live_event_horizons.let_go_through END
                    """) { _ in .done(()) }
            }
        }
    }

    /// What a client resuming after `lastID` gets: the events after it that `user` may see,
    /// oldest first, at most `limit`; or `.reset` when some of them are no longer kept, or the id
    /// is past `newest` (another database's). Run in one snapshot, so a prune between the horizon
    /// and the rows cannot leave a gap where a reset is due.
    /// - Parameter newest: The engine's statement for the newest event id ever committed.
    static func replay(after lastID: Int64, visibleTo user: Int64, limit: Int, newest: SQLStatement) -> Plan<LiveEventReplay> {
        .run(newest) { rows in
            let newest = try rows.first?.integer(0) ?? 0
            return horizon(of: user).then { horizon in
                guard lastID <= newest, lastID >= horizon else { return .done(.reset(newest: newest)) }
                return .run("""
                    SELECT id, name, data FROM live_events WHERE id > \(lastID) AND (owner_id IS NULL OR owner_id = \(user))
                    ORDER BY id LIMIT \(Int64(limit))
                    """) { rows in
                    .done(.events(try rows.map { LiveEvent(id: try $0.integer(0), name: try $0.text(1), data: try $0.text(2)) }))
                }
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
