import CalendarTime
/// A calendar event as the API shows it: `{id, title, start, end, allDay}`, with `start` and `end`
/// ISO 8601 date-times in UTC (`2026-11-22T09:30:00Z`). An all-day event runs from midnight to
/// midnight UTC, its `end` the first moment after it (one day: `2026-11-22T00:00:00Z` to
/// `2026-11-23T00:00:00Z`).
///
/// Every event is an iCalendar event (RFC 5545) on the server; the fields after `allDay` say more
/// of it, and are left out where they have nothing to say (a dashboard from before reads the rest
/// as it did). A repeating event is listed once per instance in a range, each with the event's
/// `id` and its own `instanceStart`.
public struct CalendarEvent: Codable, Sendable, Equatable {
    public var id: Int64
    public var title: String
    public var start: UTCInstant
    public var end: UTCInstant
    public var allDay: Bool
    /// Its iCalendar `UID`, the same in every calendar program that has it.
    public var uid: String?
    /// How it repeats: an iCalendar `RRULE` (`FREQ=WEEKLY;BYDAY=MO`); nil for one that does not.
    public var recurrence: String?
    /// The zone it repeats in (`Europe/Paris`): a weekly 09:00 stays 09:00 there across summer
    /// time. Nil: UTC.
    public var timeZone: String?
    public var location: String?
    public var description: String?
    /// Of an instance of a repeating event: the start the repetition gives it (where an instance
    /// changed on its own was before), which names it in a change of this instance alone.
    public var instanceStart: UTCInstant?
    /// Its reminders as minutes before each instance's start (alarms `TRIGGER:-PT15M`), soonest
    /// last; absent when it has none of that kind. Every alarm, whatever its kind, is listed by
    /// `GET /api/calendar/reminders` when it goes off.
    public var reminders: [Int]?
    /// The `CalendarCollection` it is in; absent for the user's own events.
    public var calendar: Int64?
    /// Its calendar's colour (`#RRGGBB`), when it has one.
    public var colour: String?
    /// True when it cannot be changed here (it is in a subscription); absent when it can.
    public var readOnly: Bool?

    public init(id: Int64, title: String, start: UTCInstant, end: UTCInstant, allDay: Bool = false) {
        self.id = id
        self.title = title
        self.start = start
        self.end = end
        self.allDay = allDay
    }
}

extension CalendarEvent {
    /// Which instance it is: the event's id and, of a repeating event, the instance's start as
    /// the repetition gives it.
    public struct Key: Hashable, Sendable {
        public let id: Int64
        public let instanceStart: UTCInstant?

        public init(id: Int64, instanceStart: UTCInstant?) {
            self.id = id
            self.instanceStart = instanceStart
        }
    }

    public var key: Key { Key(id: id, instanceStart: instanceStart) }

    /// Whether it stands for a repeating event as a whole (as a change's answer and the live
    /// stream tell of one), whose instances only a list of a range gives.
    public var isSeries: Bool { recurrence != nil && instanceStart == nil }
}

/// The body of `POST /api/calendar/events`: date-times with any offset, stored in UTC.
public struct NewCalendarEvent: Codable, Sendable, Equatable {
    public var title: String
    public var start: String
    public var end: String
    public var allDay: Bool?
    public var recurrence: String?
    public var timeZone: String?
    public var location: String?
    public var description: String?
    /// Reminders, in minutes before each instance's start (`CalendarLimits.reminderMinutes`).
    public var reminders: [Int]?
    /// The `CalendarCollection` (a synced one) it goes to; by default the user's calendar for new
    /// events: their own, unless `calendar connect` made a synced one that.
    public var calendar: Int64?

    public init(title: String, start: String, end: String, allDay: Bool? = nil, recurrence: String? = nil, timeZone: String? = nil,
                location: String? = nil, description: String? = nil, reminders: [Int]? = nil) {
        self.title = title
        self.start = start
        self.end = end
        self.allDay = allDay
        self.recurrence = recurrence
        self.timeZone = timeZone
        self.location = location
        self.description = description
        self.reminders = reminders
    }
}

/// The body of `PATCH /api/calendar/events/{id}`: only the fields present change, and the result
/// must be a valid event as a whole. An empty `recurrence`, `timeZone`, `location` or
/// `description` takes it away. Of a repeating event, the query's `scope` says which instances
/// change (`CalendarEditScope`).
public struct CalendarEventPatch: Codable, Sendable, Equatable {
    public var title: String?
    public var start: String?
    public var end: String?
    public var allDay: Bool?
    public var recurrence: String?
    public var timeZone: String?
    public var location: String?
    public var description: String?

    public init(title: String? = nil, start: String? = nil, end: String? = nil, allDay: Bool? = nil, recurrence: String? = nil,
                timeZone: String? = nil, location: String? = nil, description: String? = nil) {
        self.title = title
        self.start = start
        self.end = end
        self.allDay = allDay
        self.recurrence = recurrence
        self.timeZone = timeZone
        self.location = location
        self.description = description
    }

    /// Whether it moves the event or changes how long it lasts.
    public var changesTimes: Bool { start != nil || end != nil || allDay != nil || timeZone != nil }
}

/// Which instances of a repeating event a change or a deletion is of (`scope=` in the query,
/// with `instance=` the instance's `instanceStart`): as calendar programs ask, "this event, this
/// and the following, or all events".
public enum CalendarEditScope: String, Codable, Sendable, CaseIterable {
    case this
    case following
    case all
}

/// Which of a repeating event's instances a change or a deletion is of: `scope` counted from
/// the instance whose `instanceStart` is `instance` (`scope=…&instance=…` in the query).
public struct CalendarInstances: Codable, Sendable, Hashable {
    public var scope: CalendarEditScope
    public var instance: UTCInstant

    public init(_ scope: CalendarEditScope, from instance: UTCInstant) {
        self.scope = scope
        self.instance = instance
    }

    /// Whether the instance whose `instanceStart` this is is one of them.
    public func contains(_ instanceStart: UTCInstant?) -> Bool {
        switch scope {
        case .all: true
        case .this: instanceStart == instance
        case .following: instanceStart.map { $0 >= instance } ?? false
        }
    }

    /// The query of a change or deletion of them.
    public var query: [(name: String, value: String)] {
        [(name: "scope", value: scope.rawValue), (name: "instance", value: instance.iso)]
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
    /// Characters in a location (one line).
    public static let locationLength = 1...500
    /// Characters in a description (lines).
    public static let descriptionLength = 1...8_000
    /// Bytes of a recurrence rule.
    public static let recurrenceBytes = 1_000
    /// The work one list request may do to work out the instances of repeating events (periods
    /// and candidate instances walked; each instance costs one at least): past it, the request
    /// asks for a shorter range. A year of a busy calendar takes some ten thousand.
    public static let workPerRequest = 1_000_000
    /// The longest range one request for reminders may ask for, in days.
    public static let reminderRangeDays = 31
    /// A new event's reminders: how many minutes before (four weeks at most), and how many.
    public static let reminderMinutes = 0...40_320
    public static let remindersPerEvent = 10
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
        if let recurrence = patch.recurrence { result.recurrence = recurrence.isEmpty ? nil : recurrence }
        if let timeZone = patch.timeZone { result.timeZone = timeZone.isEmpty ? nil : timeZone }
        if let location = patch.location { result.location = location.isEmpty ? nil : location }
        if let description = patch.description { result.description = description.isEmpty ? nil : description }
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

/// The answer of `POST /api/calendar/import`.
public struct CalendarImportResult: Codable, Sendable, Equatable {
    /// Events that were not there (by UID).
    public var added: Int
    /// Events whose UID was there, now as imported.
    public var replaced: Int
    /// What was left out, and why, by line of the body.
    public var skipped: [Skipped]
    /// Tasks (`VTODO`) the todo list had not (by UID); nil from servers before tasks were imported.
    public var tasksAdded: Int?
    /// Tasks whose UID the todo list had, now as imported.
    public var tasksReplaced: Int?

    public struct Skipped: Codable, Sendable, Equatable {
        public var line: Int
        public var error: String

        public init(line: Int, error: String) {
            self.line = line
            self.error = error
        }
    }

    public init(added: Int, replaced: Int, skipped: [Skipped]) {
        self.added = added
        self.replaced = replaced
        self.skipped = skipped
    }
}
