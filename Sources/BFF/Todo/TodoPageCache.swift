import Hummingbird
import Synchronization

/// Todo list pages recently served, as the bytes sent, per user and query, so a client that
/// polls an unchanged list costs neither a database read nor JSON writing.
///
/// A user's pages are dropped when a change to their todos commits (`BFFStore.record`). A page
/// read while such a change commits could hold the old data: each user's generation, taken
/// before the read and checked when the page is stored, keeps such a page out.
final class TodoPageCache: Sendable {
    struct Key: Hashable {
        let owner: Int64
        let query: TodoQuery
    }

    private struct State {
        var generations: [Int64: UInt64] = [:]
        var pages: [Key: ByteBuffer] = [:]
    }

    /// Pages kept at most; past it the cache starts over (lists are cheap to read again).
    static let capacity = 1024
    private let state = Mutex(State())

    /// The user's generation now: pass it to `store` after reading.
    func generation(of owner: Int64) -> UInt64 {
        state.withLock { $0.generations[owner, default: 0] }
    }

    func page(for key: Key) -> ByteBuffer? {
        state.withLock { $0.pages[key] }
    }

    /// Keeps `page` unless the user's todos changed since `generation` was taken.
    func store(_ page: ByteBuffer, for key: Key, readAt generation: UInt64) {
        state.withLock { state in
            guard state.generations[key.owner, default: 0] == generation else { return }
            if state.pages.count >= Self.capacity { state.pages.removeAll(keepingCapacity: true) }
            state.pages[key] = page
        }
    }

    /// Drops the user's pages; called once a change to their todos has committed.
    func invalidate(owner: Int64) {
        state.withLock { state in
            state.generations[owner, default: 0] &+= 1
            state.pages = state.pages.filter { $0.key.owner != owner }
        }
    }
}
