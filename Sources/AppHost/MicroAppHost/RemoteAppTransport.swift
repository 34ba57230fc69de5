/// How the dashboard reaches a remote app's sessions: the server's proxy of its entry, through
/// the dashboard's own client (which holds the token; the app never sees it).
public protocol RemoteAppTransport: Sendable {
    /// Opens a session with the `initialize` request (one protocol line); returns the session's id
    /// and the app's answer to `initialize` (one line).
    func open(app: String, initialize: [UInt8]) async throws(RemoteAppFailure) -> (session: String, answer: [UInt8])
    /// What the app sends, one protocol line per element, until the session's stream ends.
    func lines(app: String, session: String) -> AsyncStream<RemoteLine>
    /// Sends the app one protocol line.
    func send(app: String, session: String, line: [UInt8]) async throws(RemoteAppFailure)
    /// Ends the session (best effort).
    func close(app: String, session: String) async
}

/// One element of a remote session's stream.
public enum RemoteLine: Sendable, Equatable {
    case line([UInt8])
    /// The stream ended, and why (the last element).
    case ended(String)
}

/// Why a remote app could not be reached, as its pane says it (`the app's entry is unreachable`).
public struct RemoteAppFailure: Error, Sendable, Equatable, CustomStringConvertible {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}
