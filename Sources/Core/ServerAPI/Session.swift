/// One of a user's sessions on a server (`GET /api/auth/sessions`): a sign-in whose tokens are
/// good until it ends (`termcanvas sessions end`) or expires.
public struct SessionInfo: Codable, Sendable, Equatable {
    public var id: String
    /// How it signed in: `password`, `sso` (single sign-on) or `local` (this machine's own server).
    public var method: String
    /// The address it signed in from, as the server saw it.
    public var address: String
    /// The machine name the client gave (`TermCanvas-Client`), if it gave one.
    public var client: String?
    /// ISO 8601 UTC.
    public var startedAt: String
    /// When its token was last renewed (ISO 8601 UTC); its start when never.
    public var renewedAt: String
    /// Whether it is the session of the request that asked.
    public var current: Bool

    public init(id: String, method: String, address: String, client: String?, startedAt: String, renewedAt: String, current: Bool) {
        self.id = id
        self.method = method
        self.address = address
        self.client = client
        self.startedAt = startedAt
        self.renewedAt = renewedAt
        self.current = current
    }

    /// The header a client names its machine in when it signs in.
    public static let clientHeader = "TermCanvas-Client"
    /// The longest machine name kept, in bytes.
    public static let clientBytes = 64
    /// The most sessions a user keeps; past it their least recently renewed ends.
    public static let perUser = 50

    /// How it signed in, in words: `single sign-on`, `password`, `this machine's server`.
    public var methodInWords: String {
        switch method {
        case "sso": "single sign-on"
        case "local": "this machine's server"
        default: method
        }
    }
}

/// The answer to `DELETE /api/auth/sessions`: how many of the caller's other sessions ended.
public struct SessionsEnded: Codable, Sendable, Equatable {
    public var ended: Int

    public init(ended: Int) {
        self.ended = ended
    }
}
