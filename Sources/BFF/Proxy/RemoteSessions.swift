import Synchronization

/// Which user opened each remote app session this server proxies, so no one else reaches it,
/// and how many each user holds: at most `perUser` at once, `total` in all. A session is
/// forgotten when it is deleted or its stream ends, and one whose stream was never opened after
/// `unstreamedLifetime` (a client that opened it and went away), so it cannot hold a place.
final class RemoteSessions: Sendable {
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
        var counts: [Int64: Int] = [:]
    }

    let perUser: Int
    let total: Int
    let unstreamedLifetime: Duration
    private let state = Mutex(State())

    init(perUser: Int = 16, total: Int = standardTotal, unstreamedLifetime: Duration = .seconds(30)) {
        self.perUser = perUser
        self.total = total
        self.unstreamedLifetime = unstreamedLifetime
    }

    /// Whether `user` may open another, once sessions never streamed have expired.
    func hasRoom(for user: Int64, now: ContinuousClock.Instant = .now) -> Bool {
        state.withLock { state in
            let expired = state.sessions.filter { $0.value.unstreamedSince.map { now - $0 >= unstreamedLifetime } ?? false }
            for key in expired.keys { Self.remove(key, from: &state) }
            return state.sessions.count < total && state.counts[user, default: 0] < perUser
        }
    }

    func add(_ key: Key, owner: Int64, now: ContinuousClock.Instant = .now) {
        state.withLock { state in
            guard state.sessions[key] == nil else { return }
            state.sessions[key] = Session(owner: owner, unstreamedSince: now)
            state.counts[owner, default: 0] += 1
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
        state.counts[session.owner, default: 1] -= 1
        if state.counts[session.owner] == 0 { state.counts[session.owner] = nil }
    }
}
