import Foundation
import Synchronization

/// Users found by id in the last second, so a burst of requests with one token, or an event
/// fanned out to all of a user's streams, looks its user up once: while one lookup of an id is
/// under way, the others wait for its answer rather than ask the database too. A user deleted
/// (by `termcanvas user delete`, another process) loses access within `validity`.
final class RecentUsers: Sendable {
    private struct State {
        var found: [Int64: (user: BFFUser, at: ContinuousClock.Instant)] = [:]
        var lookingUp: [Int64: Task<BFFUser?, any Error>] = [:]
    }

    private let state = Mutex(State())
    private let validity: Duration
    /// Users remembered at most; past it the memory starts over.
    private static let capacity = 4096

    init(validity: Duration = .seconds(1)) {
        self.validity = validity
    }

    /// The user with `id`, from memory when looked up within `validity`, else from `lookUp`.
    func user(id: Int64, lookUp: @escaping @Sendable (Int64) async throws -> BFFUser?) async throws -> BFFUser? {
        let now = ContinuousClock.now
        enum Known {
            case recent(BFFUser)
            case lookingUp(Task<BFFUser?, any Error>)
        }
        let known = state.withLock { state -> Known in
            if let recent = state.found[id], recent.at.duration(to: now) < validity { return .recent(recent.user) }
            if let running = state.lookingUp[id] { return .lookingUp(running) }
            let task = Task { try await lookUp(id) }
            state.lookingUp[id] = task
            return .lookingUp(task)
        }
        let lookup: Task<BFFUser?, any Error>
        switch known {
        case .recent(let user): return user
        case .lookingUp(let running): lookup = running
        }
        let result = await lookup.result
        state.withLock { state in
            if state.lookingUp[id] == lookup { state.lookingUp[id] = nil }
            switch result {
            case .success(let user?):
                if state.found.count >= Self.capacity { state.found.removeAll(keepingCapacity: true) }
                state.found[id] = (user, now)
            case .success(nil):
                state.found[id] = nil
            case .failure:
                break
            }
        }
        return try result.get()
    }
}
