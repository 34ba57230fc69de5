import CalendarTime
import ICalendar

/// A subscribed calendar's file as the server keeps it: its events (its tasks are not a
/// calendar's), its own name, and how often it asks to be read again. Unlike an import, a file
/// with a mistake in an event keeps the rest: a feed is read as its publisher wrote it, and its
/// problems are counted, not shown one by one.
public struct CalendarFeed: Sendable {
    public let events: [EventResource]
    /// `X-WR-CALNAME` (one line, 100 characters at most), which most publishers give.
    public let name: String?
    /// Seconds between readings the file asks for (RFC 7986's `REFRESH-INTERVAL`, or the older
    /// `X-PUBLISHED-TTL`); nil when it does not say.
    public let refreshSeconds: Int64?
    /// Events left out for a mistake or their size.
    public let leftOut: Int

    /// - Throws: `ICalError` when `text` is not iCalendar at all, or holds no calendar.
    public init(text: String, zones: @escaping @Sendable (String) -> ZoneRules?) throws(ICalError) {
        let calendars = try ICalendarText.read(text).filter { $0.name == "VCALENDAR" }
        guard let first = calendars.first else { throw ICalError(line: 1, "it holds no calendar (BEGIN:VCALENDAR)") }
        let read = CalendarImport(calendars, zones: zones)
        events = read.events
        leftOut = read.problems.count
        name = first["X-WR-CALNAME"].map { Self.oneLine($0.value) }.flatMap { $0.isEmpty ? nil : $0 }
        refreshSeconds = (first["REFRESH-INTERVAL"] ?? first["X-PUBLISHED-TTL"]).flatMap { ICalDuration($0.value) }.flatMap { duration in
            duration.isNegative ? nil : Int64(duration.days) * 86_400 + Int64(duration.seconds)
        }
    }

    /// `text` on one line, without control characters, in at most 100 characters.
    private static func oneLine(_ text: String) -> String {
        let kept = String(String.UnicodeScalarView(text.unicodeScalars.filter { !$0.properties.generalCategory.isControl }))
        return String(kept.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed().prefix(100))
    }
}

private extension Unicode.GeneralCategory {
    var isControl: Bool { self == .control || self == .format || self == .lineSeparator || self == .paragraphSeparator }
}
