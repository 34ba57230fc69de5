/// The BFF a dashboard talks to, with the token to talk to it.
public enum BFFTarget: Sendable, Equatable {
    /// This user's embedded server, on its unix socket.
    case local(LocalBFFConnection)
    /// A team server the user logged in to (`termcanvas login`).
    case remote(Credential)

    /// The stored login of a team server; nil for the local one.
    public var credential: Credential? {
        if case .remote(let credential) = self { return credential }
        return nil
    }
}
