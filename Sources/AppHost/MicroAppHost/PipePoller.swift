import CSpawn
import Dispatch
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import Threads

/// Watches the micro-apps' pipes on one thread of its own, with `poll(2)`, and runs each ready
/// pipe's handler on its owner's queue.
///
/// Not libdispatch's read and write sources: its epoll event loop on Linux crashed now and then
/// as apps' pipes were opened and closed (a SIGSEGV in `_dispatch_event_loop_drain`, following a
/// freed registration; the known swift-corelibs-foundation#3276, SR-12079). `termcanvas apps try`
/// met it about once in 30 runs beside another app; the generator's trial run too.
///
/// A watch fires once each time it is armed (`arm`); its handler arms it again once it has read or
/// written until the pipe would block. So a handler never runs twice at once, and a pipe being
/// drained is not polled meanwhile. A cancelled watch never fires again, and its descriptor may be closed at
/// once: at worst a poll under way reports a number since reused, and whoever owns it then finds
/// nothing to read (every pipe here is non-blocking).
final class PipePoller: Sendable {
    enum Interest: Sendable {
        case readable
        case writable
    }

    struct Watch: Hashable, Sendable {
        fileprivate let id: Int
    }

    private struct Entry {
        let descriptor: Int32
        let interest: Interest
        let queue: DispatchQueue
        let handler: @Sendable () -> Void
        var armed = false
    }

    static let shared = PipePoller()

    private let entries = Mutex((watches: [Int: Entry](), next: 0))
    /// Written to wake the thread from `poll` when the watches change.
    private let wakeRead: Int32
    private let wakeWrite: Int32

    private init() {
        var ends: [Int32] = [-1, -1]
        // Without a pipe no app could be watched: nothing would work, so say so at once.
        precondition(tc_pipe(&ends) == 0, "no pipe for the micro-apps' poller: \(errno)")
        for end in ends { _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK) }
        wakeRead = ends[0]
        wakeWrite = ends[1]
        DetachedThread.start(stackSize: 256 * 1024) { [self] in run() }
    }

    /// A watch of `descriptor`, whose `handler` runs on `queue` once it is ready, after each
    /// `arm`: the first too, once the caller has kept the watch where its handler finds it.
    func watch(_ descriptor: Int32, for interest: Interest, on queue: DispatchQueue,
               handler: @escaping @Sendable () -> Void) -> Watch {
        entries.withLock { entries in
            defer { entries.next += 1 }
            entries.watches[entries.next] = Entry(descriptor: descriptor, interest: interest, queue: queue, handler: handler)
            return Watch(id: entries.next)
        }
    }

    /// Watches (again, after the handler ran: it read or wrote until the pipe would block).
    func arm(_ watch: Watch) {
        let changed = entries.withLock { entries in
            guard entries.watches[watch.id]?.armed == false else { return false }
            entries.watches[watch.id]?.armed = true
            return true
        }
        if changed { wake() }
    }

    /// Stops watching; the handler does not run again once this returns (one already handed to
    /// its queue still runs: handlers check their own state).
    func cancel(_ watch: Watch) {
        _ = entries.withLock { $0.watches.removeValue(forKey: watch.id) }
        wake()
    }

    private func wake() {
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)  // a full pipe already wakes it
    }

    private func run() {
        var buffer = [UInt8](repeating: 0, count: 256)
        while true {
            let armed = entries.withLock { entries in entries.watches.filter(\.value.armed).map { ($0.key, $0.value.descriptor, $0.value.interest) } }
            var descriptors = [pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
            descriptors += armed.map { pollfd(fd: $0.1, events: Int16($0.2 == .readable ? POLLIN : POLLOUT), revents: 0) }
            let ready = poll(&descriptors, nfds_t(descriptors.count), -1)
            guard ready > 0 else { continue }  // EINTR
            if descriptors[0].revents != 0 { while read(wakeRead, &buffer, buffer.count) > 0 {} }
            for (index, watched) in armed.enumerated() where descriptors[index + 1].revents != 0 {
                // Still watched and armed: fired once, disarmed until its handler arms it again.
                let fired = entries.withLock { entries -> Entry? in
                    guard let entry = entries.watches[watched.0], entry.armed else { return nil }
                    entries.watches[watched.0]?.armed = false
                    return entry
                }
                if let fired { fired.queue.async(execute: fired.handler) }
            }
        }
    }
}
