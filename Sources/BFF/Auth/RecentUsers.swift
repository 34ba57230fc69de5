import Foundation
import Synchronization

/// Users found by id in the last second, so a burst of requests with one token looks its user up
/// once. A user deleted (by `termcanvas user delete`, another process) loses access within
/// `validity`.
final class RecentUsers: Sendable {
    private let found = Mutex<[Int64: (user: BFFUser, at: ContinuousClock.Instant)]>([:])
    private let validity: Duration
    /// Users remembered at most; past it the memory starts over.
    private static let capacity = 4096

    init(validity: Duration = .seconds(1)) {
        self.validity = validity
    }

    /// The user with `id`, from memory when looked up within `validity`, else from `lookUp`.
    func user(id: Int64, lookUp: (Int64) async throws -> BFFUser?) async rethrows -> BFFUser? {
        let now = ContinuousClock.now
        if let recent = found.withLock({ $0[id] }), recent.at.duration(to: now) < validity { return recent.user }
        guard let user = try await lookUp(id) else {
            found.withLock { _ = $0.removeValue(forKey: id) }
            return nil
        }
        found.withLock { found in
            if found.count >= Self.capacity { found.removeAll(keepingCapacity: true) }
            found[id] = (user, now)
        }
        return user
    }
}
