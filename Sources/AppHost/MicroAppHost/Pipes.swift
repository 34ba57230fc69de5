import Dispatch
import Foundation
import Synchronization

/// A dispatch source, which libdispatch lets any thread resume or cancel, but which Swift's
/// overlay on Linux does not mark `Sendable`.
struct SharedSource: @unchecked Sendable {
    let source: any DispatchSourceProtocol
}

/// A descriptor closed only once no dispatch source watches it. libdispatch keeps a cancelled
/// source's descriptor registered until the source's cancel handler runs; closed before that, its
/// number could go to another app's new pipe while still registered, and libdispatch's event loop
/// crashed (seen as a SIGSEGV in `_dispatch_event_loop_drain`).
final class WatchedDescriptor: Sendable {
    private struct State {
        var sources = 0
        var closing = false
        var closed = false
    }

    let value: Int32
    private let state = Mutex(State())

    init(_ value: Int32) {
        self.value = value
    }

    /// A source on it was made; its cancel handler must call `released`.
    func watched() {
        state.withLock { $0.sources += 1 }
    }

    func released() {
        closeIfDue { $0.sources -= 1 }
    }

    /// Closes it now, or when the last source watching it is let go of.
    func close() {
        closeIfDue { $0.closing = true }
    }

    private func closeIfDue(_ change: (inout State) -> Void) {
        let due = state.withLock { state in
            change(&state)
            guard state.closing, state.sources == 0, !state.closed else { return false }
            state.closed = true
            return true
        }
        if due { Glibc.close(value) }
    }
}

/// Our end of an app's standard input: writes never block; what the pipe cannot take yet waits,
/// up to `limit` bytes, and is written as the app reads.
final class PipeWriter: Sendable {
    private struct State {
        var pending: [UInt8] = []
        var source: SharedSource?
        var closed = false
        var closeWhenFlushed = false
    }

    /// More unread input than this means the app is not reading it.
    static let limit = 1 << 20

    private let descriptor: WatchedDescriptor
    private let queue: DispatchQueue
    private let state = Mutex(State())

    init(descriptor: Int32, queue: DispatchQueue) {
        self.descriptor = WatchedDescriptor(descriptor)
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
            let written = bytes.withUnsafeBytes { Glibc.write(descriptor.value, $0.baseAddress, $0.count) }
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
        guard state.source == nil else { return }
        let source = DispatchSource.makeWriteSource(fileDescriptor: descriptor.value, queue: queue)
        source.setEventHandler { [weak self] in self?.flush() }
        descriptor.watched()
        source.setCancelHandler { [descriptor] in descriptor.released() }
        state.source = SharedSource(source: source)
        source.activate()
    }

    /// Writes until the pipe is full or nothing is pending (readiness comes by edges, see
    /// `PipeReader`).
    private func flush() {
        state.withLock { state in
            while !state.closed, !state.pending.isEmpty {
                let written = state.pending.withUnsafeBytes { Glibc.write(descriptor.value, $0.baseAddress, $0.count) }
                if written < 0 {
                    if errno == EINTR { continue }
                    if errno != EAGAIN { close(&state) }
                    return
                }
                state.pending.removeFirst(written)
            }
            guard !state.closed else { return }
            state.source?.source.cancel()
            state.source = nil
            if state.closeWhenFlushed { close(&state) }
        }
    }

    private func close(_ state: inout State) {
        guard !state.closed else { return }
        state.closed = true
        state.pending = []
        state.source?.source.cancel()
        state.source = nil
        descriptor.close()
    }
}

/// Reads one of an app's output pipes as it becomes readable, on the app's queue; closes it at
/// the end.
///
/// libdispatch reports readability by edges on Linux: each wake-up reads until the pipe is empty
/// (or at its end), or a turn would be lost. A flooding app gets 16 chunks a turn, then the rest of
/// the queue (its timers) runs before the reading goes on.
final class PipeReader: Sendable {
    static let chunk = 64 * 1024
    static let chunksPerTurn = 16

    private let source: SharedSource

    /// - Parameters:
    ///   - received: each chunk as read; an empty one at the end of the stream.
    init(descriptor: Int32, queue: DispatchQueue, received: @escaping @Sendable ([UInt8]) -> Void) {
        let source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: queue)
        let shared = SharedSource(source: source)
        self.source = shared
        @Sendable func drain() {
            guard !shared.source.isCancelled else { return }
            var buffer = [UInt8](repeating: 0, count: Self.chunk)
            for _ in 0..<Self.chunksPerTurn {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, Self.chunk) }
                if count > 0 {
                    received(Array(buffer[..<count]))
                } else if count < 0, errno == EINTR {
                    continue
                } else if count < 0, errno == EAGAIN {
                    return
                } else {
                    received([])
                    shared.source.cancel()
                    return
                }
            }
            queue.async(execute: drain)
        }
        // The handler holds its source until the end of the stream: libdispatch lets go of both once
        // it is cancelled, so a reader whose owner is gone still drains and closes its pipe.
        source.setEventHandler(handler: drain)
        source.setCancelHandler { Glibc.close(descriptor) }
        source.activate()
    }

    func cancel() {
        source.source.cancel()
    }
}
