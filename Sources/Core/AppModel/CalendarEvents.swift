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

    public init(id: Int64) { self.id = id }

    public var summary: String { "#\(id)" }
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
