import CanvasCore
import Hummingbird
import ServerAPI
import ServerStore
import Synchronization

/// Todo list pages recently served, as the bytes sent, per user and query, so a client that
/// polls an unchanged list costs neither a database read nor JSON writing.
///
/// A user's pages are dropped when a change to their todos commits: the cache observes the
/// store's commits (`LiveEventHub.observeCommits`), which it hears of before any stream does. A
/// page read while such a change commits could hold the old data: each user's generation, taken
/// before the read and checked when the page is stored, keeps such a page out.
package final class TodoPageCache: Sendable {
    package struct Key: Hashable {
        package let owner: Int64
        package let query: TodoQuery

        package init(owner: Int64, query: TodoQuery) {
            self.owner = owner
            self.query = query
        }
    }

    private struct State {
        var generations: [Int64: UInt64] = [:]
        var pages: [Key: ByteBuffer] = [:]
        /// The bytes of every page kept.
        var bytes = 0
    }

    /// The most bytes of pages kept (a page of large notes is up to ~800 KiB): past it the cache
    /// starts over, as lists are cheap to read again. Bytes, not pages, bound the server's memory.
    let capacity: Int
    private let state = Mutex(State())

    /// A cache told of `store`'s commits.
    package convenience init(observing store: BFFStore) {
        self.init()
        store.liveEvents.observeCommits { [weak self] change in self?.forget(after: change) }
    }

    init(capacity: Int = 32 << 20) {
        self.capacity = capacity
    }

    /// The bytes of the pages kept now.
    var bytes: Int { state.withLock { $0.bytes } }

    /// The user's generation now: pass it to `store` after reading.
    package func generation(of owner: Int64) -> UInt64 {
        state.withLock { $0.generations[owner, default: 0] }
    }

    package func page(for key: Key) -> ByteBuffer? {
        state.withLock { $0.pages[key] }
    }

    /// Keeps `page` unless the user's todos changed since `generation` was taken.
    package func store(_ page: ByteBuffer, for key: Key, readAt generation: UInt64) {
        state.withLock { state in
            guard state.generations[key.owner, default: 0] == generation, page.readableBytes <= capacity else { return }
            if let replaced = state.pages[key] { state.bytes -= replaced.readableBytes }
            if state.bytes + page.readableBytes > capacity {
                state.pages.removeAll(keepingCapacity: true)
                state.bytes = 0
            }
            state.pages[key] = page
            state.bytes += page.readableBytes
        }
    }

    /// Drops the pages `change` makes stale: a todo event's owner's (or a calendar's, which may
    /// be a task list a sync changed), a deleted user's, or every user's when changes may have
    /// committed unseen.
    func forget(after change: CommittedChange) {
        switch change {
        case .event(let name, let owner):
            let known = ServerAPI.EventName(rawValue: name)
            guard let owner, let known, known.app == ServerApp.todo.rawValue || Self.tasksMayChange.contains(known) else { return }
            forget(owner: owner)
        case .userDeleted(let owner):
            forget(owner: owner)
        case .unseen:
            state.withLock { state in
                for owner in state.generations.keys { state.generations[owner, default: 0] &+= 1 }
                state.pages.removeAll()
                state.bytes = 0
            }
        }
    }

    /// The events of a calendar, which may be a task list whose items a sync changed.
    private static let tasksMayChange: Set<ServerAPI.EventName> = [.calendarCollectionCreated, .calendarCollectionUpdated, .calendarCollectionDeleted]

    private func forget(owner: Int64) {
        state.withLock { state in
            state.generations[owner, default: 0] &+= 1
            state.pages = state.pages.filter { $0.key.owner != owner }
            state.bytes = state.pages.values.reduce(0) { $0 + $1.readableBytes }
        }
    }
}
