/// Ports for servers that tests start on loopback.
public enum LoopbackPort {
    /// A random port below Linux's ephemeral range (32768–60999): a port in that range may already
    /// be the local end of some outgoing connection, and the server started on it fails to listen.
    public static func random() -> Int {
        Int.random(in: 10_000...32_000)
    }
}
