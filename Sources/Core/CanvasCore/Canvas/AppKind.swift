/// The kind of micro-app a pane hosts, e.g. `calendar`; the key of the widget catalog.
public struct AppKind: Hashable, Comparable, Sendable, Codable, RawRepresentable,
    ExpressibleByStringLiteral, CustomStringConvertible
{
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ value: String) { self.rawValue = value }
    public init(stringLiteral value: String) { self.rawValue = value }

    public static func < (lhs: AppKind, rhs: AppKind) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String { rawValue }

    public static let calendar: AppKind = "calendar"
    public static let eventLog: AppKind = "eventlog"
    public static let todo: AppKind = "todo"
    public static let chat: AppKind = "chat"

    /// The kinds compiled into TermCanvas; a micro-app may not take their names.
    public static let builtIn: Set<AppKind> = [.calendar, .eventLog, .todo, .chat]
}
