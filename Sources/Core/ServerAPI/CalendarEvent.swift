import CalendarTime
/// A calendar event as the API shows it: `{id, title, start, end, allDay}`, with `start` and `end`
/// ISO 8601 date-times in UTC (`2026-11-22T09:30:00Z`). An all-day event runs from midnight to
/// midnight UTC, its `end` the first moment after it (one day: `2026-11-22T00:00:00Z` to
/// `2026-11-23T00:00:00Z`).
public struct CalendarEvent: Codable, Sendable, Equatable {
    public var id: Int64
    public var title: String
    public var start: UTCInstant
    public var end: UTCInstant
    public var allDay: Bool

    public init(id: Int64, title: String, start: UTCInstant, end: UTCInstant, allDay: Bool = false) {
        self.id = id
        self.title = title
        self.start = start
        self.end = end
        self.allDay = allDay
    }
}

/// The body of `POST /api/calendar/events`: date-times with any offset, stored in UTC.
public struct NewCalendarEvent: Codable, Sendable, Equatable {
    public var title: String
    public var start: String
    public var end: String
    public var allDay: Bool?

    public init(title: String, start: String, end: String, allDay: Bool? = nil) {
        self.title = title
        self.start = start
        self.end = end
        self.allDay = allDay
    }
}

/// The body of `PATCH /api/calendar/events/{id}`: only the fields present change, and the result
/// must be a valid event as a whole.
public struct CalendarEventPatch: Codable, Sendable, Equatable {
    public var title: String?
    public var start: String?
    public var end: String?
    public var allDay: Bool?

    public init(title: String? = nil, start: String? = nil, end: String? = nil, allDay: Bool? = nil) {
        self.title = title
        self.start = start
        self.end = end
        self.allDay = allDay
    }
}

/// The limits the server enforces on calendar events.
public enum CalendarLimits {
    /// Characters in a title, which must not be blank nor contain control characters.
    public static let titleLength = 1...200
    /// Events one user may keep (403 past it), so no one fills the disk others need.
    public static let eventsPerUser = 100_000
    /// The longest an event may last, in days.
    public static let maxDurationDays = 366
    /// The years `start` and `end` may fall in, in UTC.
    public static let years = 1970...9999
    /// The largest `limit` a list accepts; also its default.
    public static let maxPageSize = 100
}

extension CalendarEvent {
    /// The event with `patch` applied: the one rule the server stores by and a dashboard's cache
    /// shows a change by before the server answers. A patch that makes an event all-day covers
    /// its days with the bounds it leaves out, as a calendar's "all day" switch does: the start
    /// moves back to its day's midnight UTC, the end on to the next midnight. A date-time that
    /// cannot be read (which the server refuses first) leaves its field as it was.
    public func patched(_ patch: CalendarEventPatch) -> CalendarEvent {
        var result = self
        if let title = patch.title { result.title = title }
        if let start = patch.start.flatMap(UTCInstant.init(iso:)) { result.start = start }
        if let end = patch.end.flatMap(UTCInstant.init(iso:)) { result.end = end }
        if let allDay = patch.allDay { result.allDay = allDay }
        if patch.allDay == true {
            if patch.start == nil { result.start = UTCInstant(day: result.start.day) }
            if patch.end == nil { result.end = Self.wholeDaysEnd(result.end, after: result.start) }
        }
        return result
    }

    /// `end` if it is a midnight after `start`, else the midnight that ends its day.
    private static func wholeDaysEnd(_ end: UTCInstant, after start: UTCInstant) -> UTCInstant {
        end.secondsIntoDay == 0 && end > start ? end : UTCInstant(day: end.day).adding(seconds: 86_400)
    }
}
