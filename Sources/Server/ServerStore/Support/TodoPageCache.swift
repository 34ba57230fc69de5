import CanvasCore
import NIOCore
import ServerAPI
import Synchronization

/// Todo list pages recently served, as the bytes sent, per user and query, so a client that
/// polls an unchanged list costs neither a database read nor JSON writing.
///
/// A user's pages are dropped when a change to their todos commits (`BFFStore.record`). A page
/// read while such a change commits could hold the old data: each user's generation, taken
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

    /// Drops every user's pages: changes may have committed unseen (another instance's, while its
    /// notifications could not reach this one).
    func invalidateAll() {
        state.withLock { state in
            for owner in state.generations.keys { state.generations[owner, default: 0] &+= 1 }
            state.pages.removeAll()
            state.bytes = 0
        }
    }

    /// Drops the pages the live event `name` of `owner` makes stale: its owner's, when it is a todo
    /// event. Each engine calls it as the event's transaction commits, before anyone hears of it;
    /// PostgreSQL's feed again on the other instances.
    func invalidate(afterEvent name: String, owner: Int64?) {
        guard let owner, EventName(rawValue: name)?.app == ServerApp.todo.rawValue else { return }
        invalidate(owner: owner)
    }

    /// Drops the user's pages; called once a change to their todos has committed.
    func invalidate(owner: Int64) {
        state.withLock { state in
            state.generations[owner, default: 0] &+= 1
            state.pages = state.pages.filter { $0.key.owner != owner }
            state.bytes = state.pages.values.reduce(0) { $0 + $1.readableBytes }
        }
    }
}
