import MicroAppAPI

/// What a calendar list asks for: a range, a page size and where the previous page ended.
public struct CalendarQuery: Sendable, Equatable {
    /// The range's first moment, inclusive; events ending before it are left out.
    public var from: UTCInstant?
    /// The range's last moment, inclusive; events starting after it are left out.
    public var to: UTCInstant?
    public var limit: Int
    /// Where the previous page ended.
    public var after: Cursor?

    /// A position in the list's order (start, then id); on the wire `START~ID`.
    public struct Cursor: Sendable, Equatable {
        public let start: UTCInstant
        public let id: Int64

        public init(start: UTCInstant, id: Int64) {
            self.start = start
            self.id = id
        }

        /// Reads a cursor this server gave; nil for anything else.
        public init?(_ text: String) {
            let parts = text.split(separator: "~", omittingEmptySubsequences: false)
            guard parts.count == 2, let start = UTCInstant(iso: String(parts[0])), start.iso == parts[0],
                  let id = Int64(parts[1]), id >= 0 else { return nil }
            self.init(start: start, id: id)
        }

        public var text: String { "\(start)~\(id)" }
    }

    public init(from: UTCInstant? = nil, to: UTCInstant? = nil, limit: Int = CalendarLimits.maxPageSize, after: Cursor? = nil) {
        self.from = from
        self.to = to
        self.limit = limit
        self.after = after
    }
}
