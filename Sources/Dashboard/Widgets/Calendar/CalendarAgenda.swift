import AppModel
import CalendarTime
import CanvasCore
import CanvasStyle
import CanvasUI
import ServerAPI

/// What the calendar knows of the days around the shown month: events from its backend, and
/// open todos with due dates from the todo app's events. Both arrive as canvas events.
struct CalendarAgenda: Equatable {
    /// Events, each instance of a repeating one apart.
    private(set) var events: [CalendarEvent.Key: CalendarEvent] = [:]
    /// Open todos by id: their due day and title.
    private(set) var dueTodos: [Int64: DueTodo] = [:]
    /// The same by day, so a frame looks up a month's days, not every todo.
    private var dueDays: [CalendarDate: Set<Int64>] = [:]

    struct DueTodo: Equatable {
        let day: CalendarDate
        let title: String
    }

    mutating func replaceEvents(in range: DayRange, with loaded: [CalendarEvent], clock: CanvasClock) {
        guard let first = CalendarDate(iso: range.first), let last = CalendarDate(iso: range.last) else { return }
        events = events.filter { _, event in
            guard let days = EventTime.days(of: event, clock: clock) else { return false }
            return days.upperBound < first || days.lowerBound > last
        }
        for event in loaded { events[event.key] = event }
    }

    /// An event made or changed: in place of what was known of it. A repeating event's instances
    /// come with the next list of its days (the server's to work out); one instance changed (by
    /// this dashboard, before the server answers) replaces that instance alone.
    mutating func upsert(_ event: CalendarEvent) {
        if event.instanceStart != nil {
            events[event.key] = event
            return
        }
        removeEvent(event.id)
        if !event.isSeries { events[event.key] = event }
    }

    /// Forgets an event, or of a repeating one the instances named.
    mutating func removeEvent(_ id: Int64, instances: CalendarInstances? = nil) {
        events = events.filter { $0.key.id != id || !(instances?.contains($0.key.instanceStart) ?? true) }
    }

    mutating func replaceEvent(_ localID: Int64, with event: CalendarEvent) {
        removeEvent(localID)
        upsert(event)
    }

    mutating func replaceTodos(_ items: [TodoItem]) {
        dueTodos = [:]
        dueDays = [:]
        for item in items { noteTodo(item) }
    }

    /// Remembers an open todo's due day; forgets a done or undated one.
    mutating func noteTodo(_ item: TodoItem) {
        removeTodo(item.id)
        guard !item.done, let due = item.due else { return }
        dueTodos[item.id] = DueTodo(day: due, title: item.title)
        dueDays[due, default: []].insert(item.id)
    }

    mutating func removeTodo(_ id: Int64) {
        guard let old = dueTodos.removeValue(forKey: id) else { return }
        dueDays[old.day]?.remove(id)
        if dueDays[old.day]?.isEmpty == true { dueDays[old.day] = nil }
    }

    mutating func replaceTodo(_ localID: Int64, with item: TodoItem) {
        removeTodo(localID)
        noteTodo(item)
    }

    /// The days in `month` that have an event or an open todo due.
    func markedDays(in month: CalendarDate, clock: CanvasClock) -> Set<CalendarDate> {
        let first = month.firstOfMonth
        let last = first.adding(days: first.daysInMonth - 1)
        var days = Set<CalendarDate>()
        for offset in 0..<first.daysInMonth where dueDays[first.adding(days: offset)] != nil { days.insert(first.adding(days: offset)) }
        for event in events.values {
            guard let range = EventTime.days(of: event, clock: clock) else { continue }
            var day = max(range.lowerBound, first)
            while day <= min(range.upperBound, last) {
                days.insert(day)
                day = day.adding(days: 1)
            }
        }
        return days
    }

    /// The instances whose reminders went off while the dashboard ran: marked in the agenda.
    private(set) var reminded: Set<CalendarEvent.Key> = []

    mutating func noteReminded(_ reminders: [CalendarReminder]) {
        for reminder in reminders { reminded.insert(CalendarEvent.Key(id: reminder.id, instanceStart: reminder.instanceStart)) }
    }

    /// A line of a day's agenda: its time (or `[ ]` for a todo), its title, whether a reminder
    /// of it went off, its calendar's colour (a subscription's), and which event it is (none: a todo).
    typealias Line = (label: String, title: String, reminded: Bool, colour: Color?, event: CalendarEvent.Key?)

    /// `day`'s events (the instances on it), all-day first, then by start time.
    func events(on day: CalendarDate, clock: CanvasClock) -> [CalendarEvent] {
        events.values
            .filter { EventTime.days(of: $0, clock: clock)?.contains(day) ?? false }
            .sorted { ($0.allDay ? 0 : 1, $0.start, $0.id) < ($1.allDay ? 0 : 1, $1.start, $1.id) }
    }

    /// The lines of `day`'s agenda: its events by start time (those reminded of marked), then the
    /// todos due.
    func lines(for day: CalendarDate, clock: CanvasClock) -> [Line] {
        let events = events(on: day, clock: clock).map { event -> Line in
            (label: EventTime.label(of: event, clock: clock), title: event.title, reminded: reminded.contains(event.key),
             colour: event.colour.flatMap(Color.init(hex:)), event: event.key)
        }
        let todos = (dueDays[day] ?? []).sorted().compactMap { dueTodos[$0] }.map {
            (label: "[ ]", title: $0.title, reminded: false, colour: Color?.none, event: CalendarEvent.Key?.none)
        }
        return events + todos
    }
}
