import CalendarTime
import CanvasCore

/// The user selected a day in a calendar.
public struct DateSelected: BusEvent, Hashable, Encodable {
    public static let name: EventName = "calendar.date.selected"
    public static let supersedesPrevious = true
    public let date: CalendarDate

    public init(date: CalendarDate) { self.date = date }

    public var summary: String { date.iso }

    private enum CodingKeys: String, CodingKey { case date }

    /// `{"date": "2026-11-23"}`, as micro-apps hear it.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(date.iso, forKey: .date)
    }
}
