internal import CMainQueue

#if canImport(Glibc)
import Glibc
#endif

/// The process's main thread as the dashboard's run loop: it waits in `poll` on the descriptors
/// watched (the terminal, the signal pipe) and on the main queue's, and calls a watcher on the
/// very thread that saw its descriptor readable. A key is read, handled and drawn in one turn of
/// the loop, with no other thread woken to run it.
///
/// The main actor's jobs still go to the main dispatch queue; the loop runs them when the queue
/// says it has some, as CoreFoundation's run loop does (`_dispatch_main_queue_callback_4CF`).
/// Nothing else wakes it: an idle loop sleeps in `poll`.
@MainActor
public final class MainLoop {
    public static let shared = MainLoop()

    /// Handlers by descriptor, called when it is readable, hung up or failed.
    private var watchers: [Int32: @MainActor () -> Void] = [:]
    private var finished = false

    private init() {}

    /// Runs `body` on the main actor, and the loop until `body` returns. Call once, from `main`.
    public static func run(_ body: @escaping @MainActor () async -> Void) {
        let loop = shared
        Task { @MainActor in
            await body()
            loop.finished = true
        }
        loop.turnUntilFinished()
    }

    /// Calls `handler` whenever `fd` is readable (or hung up, or failed) until `stopWatching`.
    public func watch(_ fd: Int32, _ handler: @escaping @MainActor () -> Void) {
        watchers[fd] = handler
    }

    public func stopWatching(_ fd: Int32) {
        watchers[fd] = nil
    }

    private func turnUntilFinished() {
        let queue = _dispatch_get_main_queue_handle_4CF()
        var entries: [pollfd] = []
        while !finished {
            entries.removeAll(keepingCapacity: true)
            entries.append(pollfd(fd: queue, events: Int16(POLLIN), revents: 0))
            for fd in watchers.keys { entries.append(pollfd(fd: fd, events: Int16(POLLIN), revents: 0)) }
            guard poll(&entries, nfds_t(entries.count), -1) > 0 else { continue }  // EINTR: a signal
            // Descriptors first: a key is drawn before the queue's work, which it does not wait for.
            for entry in entries.dropFirst() where entry.revents != 0 {
                watchers[entry.fd]?()
            }
            if entries[0].revents != 0 {
                var count: UInt64 = 0
                _ = read(queue, &count, MemoryLayout<UInt64>.size)  // the eventfd's count, reset
                _dispatch_main_queue_callback_4CF(nil)
            }
        }
    }
}
