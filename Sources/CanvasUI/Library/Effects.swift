/// Runs the host's IO off the main actor and hands results back as `HostMessage`s.
///
/// Reads run concurrently; writes run one after another in the order they were asked for, so
/// the history on disk follows the steps exactly.
@MainActor
public final class Effects {
    public let messages: AsyncStream<HostMessage>
    private let continuation: AsyncStream<HostMessage>.Continuation
    private var lastWrite: Task<Void, Never>?

    public init() {
        (messages, continuation) = AsyncStream<HostMessage>.makeStream()
    }

    /// Starts `work`; its message, if any, arrives through `messages`.
    public func perform(_ work: @escaping @Sendable () async -> HostMessage?) {
        let continuation = continuation
        Task.detached {
            if let message = await work() { continuation.yield(message) }
        }
    }

    /// Queues a write after every earlier one; a failure arrives as an error notice.
    public func write(_ what: String, _ work: @escaping @Sendable () async throws -> Void) {
        let previous = lastWrite
        let continuation = continuation
        lastWrite = Task.detached {
            await previous?.value
            do {
                try await work()
            } catch {
                continuation.yield(.notice(.error("Could not \(what): \(error)")))
            }
        }
    }

    /// Waits until every queued write has finished.
    public func drain() async {
        await lastWrite?.value
    }
}
