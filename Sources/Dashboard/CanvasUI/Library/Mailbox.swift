import Synchronization

/// Where what happens outside the app loop reaches it, as `HostMessage`s in the order posted:
/// the answers of the host's IO (`HostIO`), the server's news, the generator's progress, a
/// widget's outside work. The app loop hands each to the host's `update`.
public struct Mailbox: Sendable {
    public let messages: AsyncStream<HostMessage>
    private let continuation: AsyncStream<HostMessage>.Continuation

    public init() {
        (messages, continuation) = AsyncStream<HostMessage>.makeStream()
    }

    /// Hands a message to the app loop, from anywhere.
    public func post(_ message: HostMessage) {
        continuation.yield(message)
    }

    /// Drops every message posted from now on: the app loop has ended, and nothing reads them.
    public func close() {
        continuation.finish()
    }

    /// Returns once every message posted before this call is handled and on the screen, or the
    /// app loop has ended, or the task is cancelled: for work that would compete with drawing
    /// them (the start's server connection after the cache's answers).
    public func drawn() async {
        let signal = DrawnSignal()
        await withTaskCancellationHandler {
            await withCheckedContinuation { waiter in
                signal.wait(waiter)
                if case .terminated = continuation.yield(.drawn(signal)) { signal.release() }
            }
        } onCancel: {
            signal.release()
        }
    }
}

/// What `Mailbox.drawn` waits on: released by the app loop once the frame before it is out (at
/// once after the loop's end), or by the waiter's cancellation.
public final class DrawnSignal: Sendable {
    private enum State {
        case pending
        case waiting(CheckedContinuation<Void, Never>)
        case released
    }

    private let state = Mutex(State.pending)

    init() {}

    func wait(_ continuation: CheckedContinuation<Void, Never>) {
        let releasedAlready = state.withLock { state in
            guard case .pending = state else { return true }
            state = .waiting(continuation)
            return false
        }
        if releasedAlready { continuation.resume() }
    }

    func release() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            defer { state = .released }
            if case .waiting(let continuation) = state { return continuation }
            return nil
        }
        waiter?.resume()
    }
}
