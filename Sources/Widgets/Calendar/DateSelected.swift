import CanvasCore

/// The user selected a day in a calendar.
public struct DateSelected: BusEvent, Hashable {
    public static let name: EventName = "calendar.date.selected"
    public static let supersedesPrevious = true
    public let date: CalendarDate

    public init(date: CalendarDate) { self.date = date }

    public var summary: String { date.iso }
}
