import Synchronization

/// Which user opened each remote app session this server proxies, so no one else reaches it,
/// and how many each user holds: at most `perUser` at once, `total` in all. A place is reserved
/// before the entry is asked to open a session (`reserve`), so requests at once cannot all pass
/// the check and overshoot, and then filled (`add`) or given back (`release`). A session is
/// forgotten when it is deleted or its stream ends, and one whose stream was never opened after
/// `unstreamedLifetime` (a client that opened it and went away), so it cannot hold a place: the
/// caller ends those at their entries.
package final class RemoteSessions: Sendable {
    static let standardTotal = 2000

    struct Key: Hashable, Sendable {
        let app: String
        let session: String
    }

    private struct Session {
        let owner: Int64
        /// When it was opened, until its stream is.
        var unstreamedSince: ContinuousClock.Instant?
    }

    private struct State {
        var sessions: [Key: Session] = [:]
        /// Sessions and reserved places, per user.
        var counts: [Int64: Int] = [:]
        var reserved = 0
    }

    /// A session forgotten because its stream was never opened.
    struct Expired: Equatable, Sendable {
        let key: Key
        let owner: Int64
    }

    let perUser: Int
    let total: Int
    let unstreamedLifetime: Duration
    private let state = Mutex(State())

    package init(perUser: Int = 16, total: Int = standardTotal, unstreamedLifetime: Duration = .seconds(30)) {
        self.perUser = perUser
        self.total = total
        self.unstreamedLifetime = unstreamedLifetime
    }

    /// Reserves a place for a session `user` is about to open, once sessions never streamed have
    /// expired (returned, for the caller to end at their entries); false when there is no room.
    func reserve(for user: Int64, now: ContinuousClock.Instant = .now) -> (reserved: Bool, expired: [Expired]) {
        state.withLock { state in
            let expired = state.sessions.filter { $0.value.unstreamedSince.map { now - $0 >= unstreamedLifetime } ?? false }
                .map { Expired(key: $0.key, owner: $0.value.owner) }
            for session in expired { Self.remove(session.key, from: &state) }
            guard state.sessions.count + state.reserved < total, state.counts[user, default: 0] < perUser else { return (false, expired) }
            state.reserved += 1
            state.counts[user, default: 0] += 1
            return (true, expired)
        }
    }

    /// Fills a place `owner` reserved with the session the entry opened.
    func add(_ key: Key, owner: Int64, now: ContinuousClock.Instant = .now) {
        state.withLock { state in
            state.reserved = max(0, state.reserved - 1)
            guard state.sessions[key] == nil else {
                Self.giveBack(owner, in: &state)
                return
            }
            state.sessions[key] = Session(owner: owner, unstreamedSince: now)
        }
    }

    /// Gives back a place `owner` reserved: the entry opened no session.
    func release(for owner: Int64) {
        state.withLock { state in
            state.reserved = max(0, state.reserved - 1)
            Self.giveBack(owner, in: &state)
        }
    }

    /// Whether the session is there and its stream not open yet: one stream per session.
    func mayStream(_ key: Key) -> Bool {
        state.withLock { $0.sessions[key]?.unstreamedSince != nil }
    }

    /// Claims the session's one stream: it lasts until the stream ends. False when the session
    /// has gone (deleted, expired) or another stream has it.
    func streaming(_ key: Key) -> Bool {
        state.withLock { state in
            guard state.sessions[key]?.unstreamedSince != nil else { return false }
            state.sessions[key]?.unstreamedSince = nil
            return true
        }
    }

    func owner(of key: Key) -> Int64? { state.withLock { $0.sessions[key]?.owner } }

    func remove(_ key: Key) {
        state.withLock { Self.remove(key, from: &$0) }
    }

    private static func remove(_ key: Key, from state: inout State) {
        guard let session = state.sessions.removeValue(forKey: key) else { return }
        giveBack(session.owner, in: &state)
    }

    private static func giveBack(_ owner: Int64, in state: inout State) {
        state.counts[owner, default: 1] -= 1
        if state.counts[owner, default: 0] <= 0 { state.counts[owner] = nil }
    }
}
