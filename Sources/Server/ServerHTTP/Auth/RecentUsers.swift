import Foundation
import ServerStore
import Synchronization

/// Users found by id in the last second, with their live sessions, so a burst of requests with one
/// token, or an event fanned out to all of a user's streams, looks its user up once: while one
/// lookup of an id is under way, the others wait for its answer rather than ask the database too.
/// A user deleted (by `termcanvas user delete`, another process), or a session ended (on any
/// instance), loses access within `validity`.
///
/// A user still asked for is looked up again in the background once half of `validity` has
/// passed, so a steady stream of events never waits on the database (a fan-out to a user's many
/// streams did, each second, for all of them).
///
/// An asker joins only a lookup started within `joinWindow`: one that has waited longer is stuck on
/// a database that went away, and its failure, at its deadline, is no answer for a request that
/// came once the database was back (a write 0.6 s after `/ready` said 200 got its 503).
package final class RecentUsers: Sendable {
    private struct State {
        var found: [Int64: (user: SignedInUser, at: ContinuousClock.Instant)] = [:]
        var lookingUp: [Int64: (task: Task<SignedInUser?, any Error>, started: ContinuousClock.Instant)] = [:]
    }

    private let state = Mutex(State())
    private let validity: Duration
    /// Users remembered at most; past it the memory starts over.
    private static let capacity = 4096
    /// How old a lookup may be for an asker to wait for it rather than start another: far above a
    /// lookup's time on a working database (about a millisecond), so a burst still asks once, and
    /// a dead database is asked at most four times a second for a user.
    static let joinWindow = Duration.milliseconds(250)

    package init(validity: Duration = .seconds(1)) {
        self.validity = validity
    }

    /// The user with `id`, from memory when looked up within `validity` before `now` (and not
    /// `again`), else from `lookUp`.
    /// - Parameter again: looks up afresh (a token newer than what memory holds of its user), not
    ///   joining a lookup that started before.
    package func user(id: Int64, now: ContinuousClock.Instant = .now, again: Bool = false,
              lookUp: @escaping @Sendable (Int64) async throws -> SignedInUser?) async throws -> SignedInUser? {
        enum Known {
            case recent(SignedInUser)
            case lookingUp(Task<SignedInUser?, any Error>)
        }
        let known = state.withLock { state -> Known in
            if again {
                let task = lookingUp(id, at: now, lookUp)
                state.lookingUp[id] = (task, now)
                return .lookingUp(task)
            }
            if let recent = state.found[id], recent.at.duration(to: now) < validity {
                if recent.at.duration(to: now) >= validity / 2, state.lookingUp[id] == nil {
                    state.lookingUp[id] = (lookingUp(id, at: now, lookUp), now)
                }
                return .recent(recent.user)
            }
            if let running = state.lookingUp[id], running.started.duration(to: now) < Self.joinWindow { return .lookingUp(running.task) }
            let task = lookingUp(id, at: now, lookUp)
            state.lookingUp[id] = (task, now)
            return .lookingUp(task)
        }
        switch known {
        case .recent(let user): return user
        case .lookingUp(let lookup): return try await lookup.value
        }
    }

    /// Forgets what is remembered of `id`: its sessions changed here (one ended), and this instance
    /// need not wait out `validity` to know.
    package func forget(_ id: Int64) {
        _ = state.withLock { $0.found.removeValue(forKey: id) }
    }

    /// A lookup of `id`, started at `started`, that remembers what it found (as of then) when it ends.
    private func lookingUp(_ id: Int64, at started: ContinuousClock.Instant,
                           _ lookUp: @escaping @Sendable (Int64) async throws -> SignedInUser?) -> Task<SignedInUser?, any Error> {
        Task {
            let result: Result<SignedInUser?, any Error>
            do { result = .success(try await lookUp(id)) } catch { result = .failure(error) }
            state.withLock { state in
                // A lookup started after this one, past the join window, is its own and still runs.
                if state.lookingUp[id]?.started == started { state.lookingUp[id] = nil }
                switch result {
                case .success(let user?):
                    if state.found.count >= Self.capacity { state.found.removeAll(keepingCapacity: true) }
                    if state.found[id].map({ $0.at < started }) ?? true { state.found[id] = (user, started) }
                case .success(nil):
                    state.found[id] = nil
                case .failure:
                    break
                }
            }
            return try result.get()
        }
    }
}
