import CalendarTime
import CanvasCore
import CanvasUI
import FoundationEssentials
import ServerAPI
import PlainText

/// What the user types for a new event on a day: `Title` (all day), or `09:30 Title` (an hour),
/// or `09:30-11:00 Title`, in the clock's time zone; after the title, how it repeats (`every day`,
/// `every weekday`, `every week`, `every 2 weeks`, `every month`, `every year`: in the clock's
/// zone, so it keeps its local time across summer time) and a reminder (`remind 15m`, `2h`, `1d`).
enum EventEntry {
    static func parse(_ text: String, on day: CalendarDate, clock: CanvasClock) throws(EventEntryProblem) -> NewCalendarEvent {
        var (text, recurrence, reminder) = (text.trimmingWhitespace(), String?.none, Int?.none)
        // The clauses after the title, in either order.
        for _ in 0..<2 {
            var words = text.split(separator: " ").map(String.init)
            if words.count >= 2, words[words.count - 2].lowercased() == "remind", reminder == nil {
                guard let minutes = Self.reminder(words[words.count - 1]) else { throw .badReminder(words[words.count - 1]) }
                reminder = minutes
                words.removeLast(2)
            } else if let every = words.lastIndex(where: { $0.lowercased() == "every" }), words.count - every <= 3, every > 0, recurrence == nil {
                let phrase = words[(every + 1)...].joined(separator: " ")
                if let rule = Self.rule(phrase) {
                    recurrence = rule
                    words.removeSubrange(every...)
                } else if Self.meantAsRepetition(phrase) {
                    throw .badRepetition(phrase)
                }
            }
            text = words.joined(separator: " ")
        }
        var event = try times(text, on: day, clock: clock)
        event.recurrence = recurrence
        event.reminders = reminder.map { [$0] }
        if recurrence != nil, event.allDay != true { event.timeZone = clock.zoneName }
        return event
    }

    /// The text `parse` reads back as `event` on `day`: `09:30-10:00 Title`, or the title of an
    /// event all day; what an edit begins with.
    static func text(of event: CalendarEvent, on day: CalendarDate, clock: CanvasClock) -> String {
        guard !event.allDay else { return event.title }
        return EventTime.clockTime(event.start, clock: clock) + "-" + EventTime.clockTime(event.end, clock: clock) + " " + event.title
    }

    /// `every …`'s words as an iCalendar rule.
    static func rule(_ phrase: String) -> String? {
        let words = phrase.lowercased().split(separator: " ").map(String.init)
        let (count, unit) = words.count == 2 ? (Int(words[0]), words[1]) : (1, words.first ?? "")
        guard let count, (1...99).contains(count) else { return nil }
        let interval = count == 1 ? "" : ";INTERVAL=\(count)"
        switch unit {
        case "day", "days": return "FREQ=DAILY" + interval
        case "weekday" where count == 1, "weekdays" where count == 1: return "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR"
        case "week", "weeks": return "FREQ=WEEKLY" + interval
        case "month", "months": return "FREQ=MONTHLY" + interval
        case "year", "years": return "FREQ=YEARLY" + interval
        default: return nil
        }
    }

    /// Whether words after `every` that are no repetition were meant as one (`every 3 fortnights`,
    /// `every 0 days`), rather than being the title's (`Read every book`).
    static func meantAsRepetition(_ phrase: String) -> Bool {
        let words = phrase.lowercased().split(separator: " ")
        let units: Set<Substring> = ["day", "days", "weekday", "weekdays", "week", "weeks", "month", "months", "year", "years"]
        return words.first.map { Int($0) != nil } == true || words.contains { units.contains($0) }
    }

    /// `15m`, `2h`, `1d` (and `0m`, at the start) as minutes before.
    static func reminder(_ text: String) -> Int? {
        guard let unit = text.last, let number = Int(text.dropLast()), number >= 0 else { return nil }
        let minutes: Int? = switch unit {
        case "m": number
        case "h": number <= 672 ? number * 60 : nil
        case "d": number <= 28 ? number * 1440 : nil
        default: nil
        }
        return minutes.flatMap { CalendarLimits.reminderMinutes.contains($0) ? $0 : nil }
    }

    /// The title and times of `text`.
    private static func times(_ text: String, on day: CalendarDate, clock: CanvasClock) throws(EventEntryProblem) -> NewCalendarEvent {
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
    case emptyTitle, tooLong(Int), badTime(String), badRepetition(String), badReminder(String), reminderOnEdit, repeatsAlready

    var description: String {
        switch self {
        case .emptyTitle: "An event needs a title."
        case .tooLong(let limit): "Titles have at most \(limit) characters."
        case .badTime(let text): "'\(text)' is not a time: use 09:30 or 09:30-11:00 before the title."
        case .badRepetition(let text): "'every \(text)' is not a repetition: use every day, weekday, week, 2 weeks, month or year."
        case .badReminder(let text): "'remind \(text)' is not a reminder: use remind 15m, remind 2h or remind 1d (four weeks at most)."
        case .reminderOnEdit: "Reminders are set when an event is made (n … remind 15m); an edit changes its times and title."
        case .repeatsAlready: "It repeats already: an edit here changes its times and title, not how it repeats."
        }
    }
}
