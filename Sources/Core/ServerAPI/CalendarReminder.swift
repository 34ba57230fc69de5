import CalendarTime

/// A reminder going off (`GET /api/calendar/reminders`): an alarm (`VALARM`) of an event's
/// instance, with what a notice says of the instance. Alarms of one event going off at one moment
/// are one reminder.
public struct CalendarReminder: Codable, Sendable, Equatable {
    /// When it goes off.
    public var at: UTCInstant
    /// The event's id.
    public var id: Int64
    /// Of a repeating event: the instance's `instanceStart`, as the event list gives it.
    public var instanceStart: UTCInstant?
    public var title: String
    /// The instance's times.
    public var start: UTCInstant
    public var end: UTCInstant
    public var allDay: Bool
    public var location: String?
    /// The alarm's own words (its `DESCRIPTION`), where they say more than the title.
    public var text: String?

    public init(at: UTCInstant, id: Int64, instanceStart: UTCInstant? = nil, title: String, start: UTCInstant, end: UTCInstant,
                allDay: Bool = false, location: String? = nil, text: String? = nil) {
        self.at = at
        self.id = id
        self.instanceStart = instanceStart
        self.title = title
        self.start = start
        self.end = end
        self.allDay = allDay
        self.location = location
        self.text = text
    }
}
