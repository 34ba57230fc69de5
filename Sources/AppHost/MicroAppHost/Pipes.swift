import Dispatch
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// Our end of an app's standard input: writes never block; what the pipe cannot take yet waits,
/// up to `limit` bytes, and is written as the app reads.
final class PipeWriter: Sendable {
    private struct State {
        var pending: [UInt8] = []
        var watch: PipePoller.Watch?
        var closed = false
        var closeWhenFlushed = false
    }

    /// More unread input than this means the app is not reading it.
    static let limit = 1 << 20

    private let descriptor: Int32
    private let queue: DispatchQueue
    private let state = Mutex(State())

    init(descriptor: Int32, queue: DispatchQueue) {
        self.descriptor = descriptor
        self.queue = queue
    }

    deinit {
        close()
    }

    /// - Returns: false when the bytes would pass the limit (they are dropped).
    @discardableResult
    func write(_ bytes: [UInt8]) -> Bool {
        state.withLock { state in
            guard !state.closed, !state.closeWhenFlushed else { return true }
            guard state.pending.isEmpty else {
                guard state.pending.count + bytes.count <= Self.limit else { return false }
                state.pending += bytes
                return true
            }
            let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written == bytes.count { return true }
            if written < 0, errno != EAGAIN {
                close(&state)  // the app is gone: its exit will be reported
                return true
            }
            state.pending = Array(bytes[max(0, written)...])
            watch(&state)
            return true
        }
    }

    /// Closes the app's input once what is pending is written.
    func closeWhenFlushed() {
        state.withLock { state in
            if state.pending.isEmpty { close(&state) } else { state.closeWhenFlushed = true }
        }
    }

    func close() {
        state.withLock { close(&$0) }
    }

    private func watch(_ state: inout State) {
        guard state.watch == nil else { return }
        let watch = PipePoller.shared.watch(descriptor, for: .writable, on: queue) { [weak self] in self?.flush() }
        state.watch = watch
        PipePoller.shared.arm(watch)
    }

    /// Writes until the pipe is full (then waits to be writable again) or nothing is pending.
    private func flush() {
        state.withLock { state in
            while !state.closed, !state.pending.isEmpty {
                let written = state.pending.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
                if written < 0 {
                    if errno == EINTR { continue }
                    if errno != EAGAIN { close(&state) }
                    if let watch = state.watch { PipePoller.shared.arm(watch) }
                    return
                }
                state.pending.removeFirst(written)
            }
            guard !state.closed else { return }
            state.watch.map(PipePoller.shared.cancel)
            state.watch = nil
            if state.closeWhenFlushed { close(&state) }
        }
    }

    private func close(_ state: inout State) {
        guard !state.closed else { return }
        state.closed = true
        state.pending = []
        state.watch.map(PipePoller.shared.cancel)
        state.watch = nil
        Glibc.close(descriptor)
    }
}

/// Reads one of an app's output pipes as it becomes readable, on the app's queue; closes it at
/// the end.
///
/// Each turn reads until the pipe is empty (or at its end), then waits to be readable again. A
/// flooding app gets 16 chunks a turn, then the rest of the queue (its timers) runs before the
/// reading goes on.
final class PipeReader: Sendable {
    static let chunk = 64 * 1024
    static let chunksPerTurn = 16

    private let descriptor: Int32
    private let queue: DispatchQueue
    private let received: @Sendable ([UInt8]) -> Void
    /// Nil once closed.
    private let watch = Mutex<PipePoller.Watch?>(nil)
    /// Whether the stream ended (or reading stopped), and what waits for it (`afterEnd`).
    private let ending = Mutex<(ended: Bool, waiting: [OnceAction])>((false, []))

    /// - Parameters:
    ///   - received: each chunk as read; an empty one at the end of the stream.
    init(descriptor: Int32, queue: DispatchQueue, received: @escaping @Sendable ([UInt8]) -> Void) {
        self.descriptor = descriptor
        self.queue = queue
        self.received = received
        // The handler holds the reader until the end of the stream, so a reader whose owner is
        // gone still drains and closes its pipe.
        let watch = PipePoller.shared.watch(descriptor, for: .readable, on: queue) { [self] in drain() }
        self.watch.withLock { $0 = watch }
        PipePoller.shared.arm(watch)
    }

    /// Stops reading and closes the pipe (on the queue, never under a read).
    func cancel() {
        queue.async { [self] in close() }
    }

    /// Runs `body` once everything written was read: at the end of the stream, or after `limit`
    /// if it has not ended by then (a process that outlived the one that exited may hold the pipe
    /// open). So what an app wrote to stderr as it crashed is in its log before its exit is told.
    func afterEnd(within limit: Duration, _ body: @escaping @Sendable () -> Void) {
        let action = OnceAction(body)
        let ended = ending.withLock { ending in
            if !ending.ended { ending.waiting.append(action) }
            return ending.ended
        }
        guard !ended else { return action.run() }
        queue.asyncAfter(deadline: .now() + .nanoseconds(Int(limit / .nanoseconds(1)))) { action.run() }
    }

    private func drain() {
        guard let watch = watch.withLock({ $0 }) else { return }
        var buffer = [UInt8](repeating: 0, count: Self.chunk)
        for _ in 0..<Self.chunksPerTurn {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, Self.chunk) }
            if count > 0 {
                received(Array(buffer[..<count]))
            } else if count < 0, errno == EINTR {
                continue
            } else if count < 0, errno == EAGAIN {
                return PipePoller.shared.arm(watch)
            } else {
                received([])
                return close()
            }
        }
        queue.async { [self] in drain() }
    }

    private func close() {
        guard let watch = watch.withLock({ $0.take() }) else { return }
        PipePoller.shared.cancel(watch)
        Glibc.close(descriptor)
        let waiting = ending.withLock { ending in
            ending.ended = true
            defer { ending.waiting = [] }
            return ending.waiting
        }
        waiting.forEach { $0.run() }
    }
}

/// An action that runs at most once, whoever asks first.
final class OnceAction: Sendable {
    private let body: Mutex<(@Sendable () -> Void)?>

    init(_ body: @escaping @Sendable () -> Void) {
        self.body = Mutex(body)
    }

    func run() {
        body.withLock { $0.take() }?()
    }
}
