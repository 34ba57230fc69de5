import ServerAPI

extension SessionInfo {
    /// The sessions as a table with a header, as `termcanvas sessions` and `user sessions` print
    /// them: id, how, from where, which machine, started, last renewed; the caller's marked.
    public static func table(_ sessions: [SessionInfo]) -> [String] {
        TextTable.lines([["ID", "HOW", "FROM", "MACHINE", "STARTED", "RENEWED", ""]] + sessions.map { session in
            [session.id, session.methodInWords, session.address, session.client ?? "-", minute(session.startedAt), minute(session.renewedAt),
             session.current ? "(this one)" : ""]
        })
    }

    /// `2026-11-28T02:15:03Z` as `2026-11-28 02:15 UTC`.
    private static func minute(_ instant: String) -> String {
        instant.count >= 16 ? instant.prefix(10) + " " + instant.dropFirst(11).prefix(5) + " UTC" : instant
    }
}
