/// Runs the host's IO off the main actor and hands results back as `HostMessage`s.
///
/// Reads run concurrently; writes run one after another in the order they were asked for, so
/// the history on disk follows the steps exactly. Each read sees every write asked for before it
/// and none asked for after it, e.g. the list read again after a rename shows the new name.
@MainActor
public final class Effects {
    public let messages: AsyncStream<HostMessage>
    private nonisolated let continuation: AsyncStream<HostMessage>.Continuation
    private var lastWrite: Task<Void, Never>?
    /// Reads asked for since the last write: the next write waits for them.
    private var readsSinceWrite: [Task<Void, Never>] = []

    public init() {
        (messages, continuation) = AsyncStream<HostMessage>.makeStream()
    }

    /// Starts `work` once the writes asked for before it are done; its message, if any, arrives
    /// through `messages`.
    public func perform(_ work: @escaping @Sendable () async -> HostMessage?) {
        let previous = lastWrite
        let continuation = continuation
        readsSinceWrite.append(Task.detached {
            await previous?.value
            if let message = await work() { continuation.yield(message) }
        })
    }

    /// Queues a write after every earlier write and read; a failure arrives as an error notice,
    /// success as `then`, if given.
    public func write(_ what: String, then done: HostMessage? = nil, _ work: @escaping @Sendable () async throws -> Void) {
        let previous = lastWrite
        let reads = readsSinceWrite
        readsSinceWrite = []
        let continuation = continuation
        lastWrite = Task.detached {
            await previous?.value
            for read in reads { await read.value }
            do {
                try await work()
                if let done { continuation.yield(done) }
            } catch {
                continuation.yield(.notice(.error("Could not \(what): \(error)")))
            }
        }
    }

    /// Hands a message to the app loop from anywhere, e.g. an event from the network.
    public nonisolated func post(_ message: HostMessage) {
        continuation.yield(message)
    }

    /// Waits until every queued write has finished.
    public func drain() async {
        await lastWrite?.value
    }
}
