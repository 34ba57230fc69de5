/// The apps whose data the server keeps — todo, calendar and chat: the server hosts them, the
/// dashboard ships their widgets and keeps their data in sync. Their ids are their registry ids
/// and their panes' kinds. (A micro-app is an app from elsewhere; see the glossary in
/// `docs/architecture.md`.)
public enum ServerApp: String, CaseIterable, Sendable, Hashable, Codable, Comparable {
    case todo, calendar, chat

    /// The kind of the panes that show it.
    public var kind: AppKind { AppKind(rawValue: rawValue) }

    /// In the order of `allCases`.
    public static func < (lhs: ServerApp, rhs: ServerApp) -> Bool {
        (allCases.firstIndex(of: lhs) ?? 0) < (allCases.firstIndex(of: rhs) ?? 0)
    }
}
