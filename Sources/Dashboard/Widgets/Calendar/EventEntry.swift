import CalendarTime
import CanvasCore
import CanvasUI
import FoundationEssentials
import ServerAPI
import PlainText

/// What the user types for a new event on a day: `Title` (all day), or `09:30 Title` (an hour),
/// or `09:30-11:00 Title`, in the clock's time zone.
enum EventEntry {
    static func parse(_ text: String, on day: CalendarDate, clock: CanvasClock) throws(EventEntryProblem) -> NewCalendarEvent {
        var words = text.trimmingWhitespace().split(separator: " ", maxSplits: 1).map(String.init)
        var times: (Int, Int)?
        if let first = words.first, first.first?.isNumber == true, first.contains(":") {
            let bounds = first.split(separator: "-").map(String.init)
            guard (1...2).contains(bounds.count), let start = minutes(bounds[0]) else { throw .badTime(first) }
            let end = bounds.count == 2 ? minutes(bounds[1]) : start + 60
            guard let end, end > start else { throw .badTime(first) }
            times = (start, end)
            words.removeFirst()
        }
        let title = words.joined(separator: " ").trimmingWhitespace()
        guard !title.isEmpty else { throw .emptyTitle }
        guard CalendarLimits.titleLength.contains(title.count) else { throw .tooLong(CalendarLimits.titleLength.upperBound) }
        guard let (start, end) = times else {
            return NewCalendarEvent(title: title, start: day.iso + "T00:00:00Z", end: day.adding(days: 1).iso + "T00:00:00Z", allDay: true)
        }
        return NewCalendarEvent(title: title, start: EventTime.instant(day: day, minutes: start, clock: clock).iso,
                                end: EventTime.instant(day: day, minutes: end, clock: clock).iso, allDay: false)
    }

    /// Minutes after midnight of `HH:MM` (up to 24:00).
    static func minutes(_ text: String) -> Int? {
        let parts = text.split(separator: ":")
        guard parts.count == 2, let hour = Int(parts[0]), let minute = Int(parts[1]),
              (0...24).contains(hour), (0..<60).contains(minute), hour * 60 + minute <= 24 * 60 else { return nil }
        return hour * 60 + minute
    }
}

enum EventEntryProblem: Error, Equatable, CustomStringConvertible {
    case emptyTitle, tooLong(Int), badTime(String)

    var description: String {
        switch self {
        case .emptyTitle: "An event needs a title."
        case .tooLong(let limit): "Titles have at most \(limit) characters."
        case .badTime(let text): "'\(text)' is not a time: use 09:30 or 09:30-11:00 before the title."
        }
    }
}
