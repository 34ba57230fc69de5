import CalendarTime
import CanvasCore
import ServerAPI

// The calendar micro-app's canvas events (see `TodoEvents` for where they come from).

/// The events overlapping `range`, replacing what a listener had for those days.
public struct CalendarEventsLoaded: BusEvent {
    public static let name: CanvasCore.EventName = "calendar.events.loaded"
    public let range: DayRange
    public let events: [CalendarEvent]
    public let origin: DataOrigin

    public init(range: DayRange, events: [CalendarEvent], origin: DataOrigin) {
        self.range = range
        self.events = events
        self.origin = origin
    }

    public var summary: String { "\(events.count) event\(events.count == 1 ? "" : "s") \(range.first)…\(range.last) from the \(origin)" }
}

public struct CalendarEventCreated: BusEvent {
    public static let name: CanvasCore.EventName = "calendar.event.created"
    public let event: CalendarEvent

    public init(event: CalendarEvent) { self.event = event }

    public var summary: String { "#\(event.id) \(event.title) \(event.start)" }
}

public struct CalendarEventUpdated: BusEvent {
    public static let name: CanvasCore.EventName = "calendar.event.updated"
    public let event: CalendarEvent

    public init(event: CalendarEvent) { self.event = event }

    public var summary: String { "#\(event.id) \(event.title) \(event.start)" }
}

public struct CalendarEventDeleted: BusEvent {
    public static let name: CanvasCore.EventName = "calendar.event.deleted"
    public let id: Int64
    /// Of a repeating event, the instances that went; nil: the whole event.
    public let instances: CalendarInstances?

    public init(id: Int64, instances: CalendarInstances? = nil) {
        self.id = id
        self.instances = instances
    }

    public var summary: String { "#\(id)" + (instances.map { " \($0.scope.rawValue) from \($0.instance)" } ?? "") }
}

/// An event made offline reached the server: `localID` is now `event.id`.
public struct CalendarEventSynced: BusEvent {
    public static let name: CanvasCore.EventName = "calendar.event.synced"
    public let localID: Int64
    public let event: CalendarEvent

    public init(localID: Int64, event: CalendarEvent) {
        self.localID = localID
        self.event = event
    }

    public var summary: String { "#\(localID) → #\(event.id)" }
}

/// Reminders going off, by moment (the sync engine's schedule of `GET /api/calendar/reminders`):
/// the message line says them and the terminal is alerted. `missed`: they went off while no
/// dashboard was open, and are said once at the start.
public struct CalendarRemindersDue: UrgentEvent {
    public static let name: CanvasCore.EventName = "calendar.reminders.due"
    public let reminders: [CalendarReminder]
    public let missed: Bool

    public init(reminders: [CalendarReminder], missed: Bool) {
        self.reminders = reminders
        self.missed = missed
    }

    public var summary: String {
        (missed ? "missed: " : "") + reminders.prefix(3).map { "#\($0.id) \($0.title) at \($0.at)" }.joined(separator: ", ")
            + (reminders.count > 3 ? " and \(reminders.count - 3) more" : "")
    }

    /// `Reminder: Stand-up in 15 min, 09:00–09:15 · Room 4 — Bring the figures (and 1 more)`; a
    /// missed one says its day.
    public func notice(secondsFromGMT: (Int64) -> Int) -> String {
        guard let first = reminders.first else { return "" }
        func local(_ instant: UTCInstant) -> (day: CalendarDate, time: String) {
            let seconds = instant.secondsSinceEpoch + Int64(secondsFromGMT(instant.secondsSinceEpoch))
            let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
            let inDay = Int(seconds - days * 86_400)
            func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
            return (CalendarDate(daysSinceEpoch: Int(days)), "\(two(inDay / 3600)):\(two(inDay / 60 % 60))")
        }
        let start = local(first.start)
        var when = first.allDay ? "all day" : "\(start.time)–\(local(first.end).time)"
        if missed {
            when = "\(["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"][start.day.weekday - 1]) \(when)"
        } else if !first.allDay {
            let lead = (first.start.secondsSinceEpoch - first.at.secondsSinceEpoch) / 60
            let soon = lead > 0 ? "in \(Self.minutes(lead))" : lead < 0 ? "started \(Self.minutes(-lead)) ago" : "now"
            when = "\(soon), \(when)"
        }
        var text = (missed ? "Missed while closed: " : "Reminder: ") + "\(first.title) \(when)"
        if let location = first.location { text += " · \(location)" }
        if let words = first.text { text += " — \(words.split(separator: "\n").first.map(String.init) ?? "")" }
        if reminders.count > 1 { text += " (and \(reminders.count - 1) more)" }
        return text
    }

    /// `15 min`, `2 h`, `1 h 30 min`, `2 days`.
    static func minutes(_ count: Int64) -> String {
        if count < 60 { return "\(count) min" }
        if count < 24 * 60 { return "\(count / 60) h" + (count % 60 == 0 ? "" : " \(count % 60) min") }
        let days = count / (24 * 60)
        return days == 1 ? "1 day" : "\(days) days"
    }
}
