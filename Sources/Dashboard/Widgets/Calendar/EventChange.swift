import AppModel
import CalendarTime
import CanvasCore
import CanvasUI
import ServerAPI

/// A change the user asked for of an event the pane shows: new times or a title, or its
/// deletion. Of an instance of a repeating event, the pane asks which instances first.
struct EventChange: Equatable {
    enum Kind: Equatable {
        case patch(CalendarEventPatch)
        case delete
    }

    let event: CalendarEvent
    let kind: Kind
    /// Days the selection follows the event by once the change is asked for (a move's).
    var days = 0

    /// Whether it is of one instance of several, so "which of them" must be asked.
    var needsInstances: Bool { event.instanceStart != nil }

    /// The request for it; of a repeating event, of the instances `scope` names from this one.
    func command(_ scope: CalendarEditScope?) -> AppCommand {
        let instances = scope.flatMap { scope in event.instanceStart.map { CalendarInstances(scope, from: $0) } }
        switch kind {
        case .patch(let patch): return .calendar(.update(id: event.id, patch, of: instances))
        case .delete: return .calendar(.delete(id: event.id, of: instances))
        }
    }

    /// The event moved by `days` whole days: the same local time in the clock's zone (across a
    /// change to summer time too), as long as it was.
    static func moving(_ event: CalendarEvent, days: Int, clock: CanvasClock) -> EventChange {
        let length = event.end.secondsSinceEpoch - event.start.secondsSinceEpoch
        let start: UTCInstant
        if event.allDay {
            start = event.start.adding(seconds: Int64(days) * 86_400)
        } else {
            let local = event.start.adding(seconds: Int64(EventTime.offset(at: event.start, clock: clock)))
            start = EventTime.instant(day: local.day.adding(days: days), minutes: local.secondsIntoDay / 60, clock: clock)
                .adding(seconds: Int64(local.secondsIntoDay % 60))
        }
        return EventChange(event: event, kind: .patch(CalendarEventPatch(start: start.iso, end: start.adding(seconds: length).iso)), days: days)
    }

    /// What the user's new text for `event` changes, against `before` (the text the edit began
    /// with): the title, the times only where they were typed anew (an event over several days
    /// keeps its span when only its title changes), a repetition only of one that had none.
    /// Nil when nothing changed.
    static func editing(_ event: CalendarEvent, from before: String, to text: String, on day: CalendarDate,
                        clock: CanvasClock) throws(EventEntryProblem) -> EventChange? {
        let typed = try EventEntry.parse(text, on: day, clock: clock)
        guard typed.reminders == nil else { throw .reminderOnEdit }
        var patch = CalendarEventPatch()
        if typed.title != event.title { patch.title = typed.title }
        let was = try? EventEntry.parse(before, on: day, clock: clock)
        if was.map({ ($0.start, $0.end, $0.allDay) != (typed.start, typed.end, typed.allDay) }) ?? true {
            (patch.start, patch.end) = (typed.start, typed.end)
            if typed.allDay != event.allDay { patch.allDay = typed.allDay }
        }
        if let rule = typed.recurrence {
            guard event.instanceStart == nil else { throw .repeatsAlready }
            (patch.recurrence, patch.timeZone) = (rule, typed.timeZone)
        }
        return patch == CalendarEventPatch() ? nil : EventChange(event: event, kind: .patch(patch))
    }
}
