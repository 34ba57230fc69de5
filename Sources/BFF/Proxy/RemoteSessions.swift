import Synchronization

/// Which user opened each remote app session this server proxies, so no one else reaches it,
/// and how many each user holds: at most `perUser` at once, `total` in all.
final class RemoteSessions: Sendable {
    struct Key: Hashable, Sendable {
        let app: String
        let session: String
    }

    private struct State {
        var owners: [Key: Int64] = [:]
        var counts: [Int64: Int] = [:]
    }

    let perUser: Int
    let total: Int
    private let state = Mutex(State())

    init(perUser: Int = 16, total: Int = 2000) {
        self.perUser = perUser
        self.total = total
    }

    /// Whether `user` may open another.
    func hasRoom(for user: Int64) -> Bool {
        state.withLock { $0.owners.count < total && $0.counts[user, default: 0] < perUser }
    }

    func add(_ key: Key, owner: Int64) {
        state.withLock { state in
            guard state.owners[key] == nil else { return }
            state.owners[key] = owner
            state.counts[owner, default: 0] += 1
        }
    }

    func owner(of key: Key) -> Int64? { state.withLock { $0.owners[key] } }

    func remove(_ key: Key) {
        state.withLock { state in
            guard let owner = state.owners.removeValue(forKey: key) else { return }
            state.counts[owner, default: 1] -= 1
            if state.counts[owner] == 0 { state.counts[owner] = nil }
        }
    }
}
