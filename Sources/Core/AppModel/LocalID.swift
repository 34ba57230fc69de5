/// Ids of records created while their write waits in the outbox.
///
/// The server's ids are positive; until it answers, a new todo, event or message carries a
/// negative id of its own (`-1`, `-2`, …). When the write is sent, a `*.synced` event says which
/// server record replaced it, and commands already queued for the local id are rewritten.
public enum LocalID {
    public static func isLocal(_ id: Int64) -> Bool { id < 0 }
}
