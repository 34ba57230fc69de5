/// A new sign-in as the dashboard's user on its server, by password or single sign-on, from
/// another place or this one: every dashboard of theirs says it once, so a sign-in they did not
/// make (a phished device code) is seen.
public struct NewSignIn: MessageLineEvent, Hashable {
    public static let name: EventName = "auth.session.started"
    /// Where from: the address, and the machine's name when the client gave one.
    public let address: String
    /// How: `single sign-on`, `password`.
    public let method: String
    /// When, as the server said it: `02:15 UTC`.
    public let at: String

    public init(address: String, method: String, at: String) {
        self.address = address
        self.method = method
        self.at = at
    }

    public var summary: String { "a new sign-in as you from \(address) (\(method)) at \(at)" }
    public var message: String { summary.prefix(1).uppercased() + summary.dropFirst() }
}
