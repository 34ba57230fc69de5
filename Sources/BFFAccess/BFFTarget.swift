/// The BFF a dashboard talks to, with the token to talk to it.
public enum BFFTarget: Sendable, Equatable {
    /// This user's embedded server, on its unix socket.
    case local(LocalBFFConnection)
    /// A team server the user logged in to (`termcanvas login`).
    case remote(Credential)
}
