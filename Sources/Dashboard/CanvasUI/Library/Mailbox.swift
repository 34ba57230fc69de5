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
}
