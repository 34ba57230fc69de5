import AppModel
import CalendarTime
import FoundationEssentials

/// Where the sync engine is with its server: the control state, each case carrying what is
/// valid in it. What the panes show of the connection is derived from it (`connection`).
enum ServerLink: Equatable {
    /// No client for the server yet: it is being found or started. `quietOver` once the first
    /// second has passed, after which the panes say so.
    case noClient(quietOver: Bool)
    /// A client; its live stream has not connected yet.
    case connecting(quietOver: Bool)
    /// The live stream runs. `currentRanges`: the calendar ranges fetched and stored while it ran,
    /// which it has kept current since; a widget going back to one is answered from the cache.
    case online(currentRanges: Set<DayRange>)
    /// The server was lost or answered badly, until its live stream connects again: what the
    /// panes show (offline, or failing and why).
    case lost(SyncStatus.Connection)

    /// The connection the panes show: nothing for the first second (a title that says
    /// `connecting` for the few milliseconds the local server takes only flickers).
    var connection: SyncStatus.Connection {
        switch self {
        case .noClient(let quietOver), .connecting(let quietOver): quietOver ? .connecting : .starting
        case .online: .online
        case .lost(let connection): connection
        }
    }

    var hasClient: Bool {
        if case .noClient = self { return false }
        return true
    }

    var isOnline: Bool {
        if case .online = self { return true }
        return false
    }

    /// Whether the live stream keeps `days` current in the cache.
    func keepsCurrent(_ days: DayRange) -> Bool {
        if case .online(let ranges) = self { return ranges.contains(days) }
        return false
    }

    /// The first second is over.
    mutating func endQuietStart() {
        switch self {
        case .noClient: self = .noClient(quietOver: true)
        case .connecting: self = .connecting(quietOver: true)
        case .online, .lost: break
        }
    }

    /// `days` were fetched and stored while the live stream ran: it keeps them current.
    mutating func keep(_ days: DayRange) {
        if case .online(var ranges) = self {
            ranges.insert(days)
            self = .online(currentRanges: ranges)
        }
    }
}

/// The first reload of a run, which replaces the cache with the server's data (or catches up
/// from a cache that was complete): it waits for the live stream, then until the outbox has sent
/// what it can, so the server's lists carry the user's offline writes instead of a list without
/// them followed at once by each of them synced.
enum FirstReload: Equatable {
    /// The live stream has not connected yet. `resumesCompleteCache`: the stream resumes from the
    /// last event of a cache complete within `SyncMachine.trustCompleteCache`, so the server's
    /// replay brings it up to date without reloading everything.
    case notYet(resumesCompleteCache: Bool)
    /// Connected; the reload waits for the outbox.
    case waitingForOutbox(SyncMachine.Reload, requested: Date)
    /// Started (the reload round is `SyncMachine.refresh`).
    case started
}
