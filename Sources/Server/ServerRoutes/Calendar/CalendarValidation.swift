import CalendarItems
import CalendarTime
import Recurrence
import ServerAPI
import ServerHTTP
import SystemZones

/// The rules for calendar events; each failure names its field. Valid events come out with their
/// date-times in UTC.
enum CalendarValidation {
    /// A new event, checked and normalised, as the API shows it (its id not yet given).
    static func validated(_ new: NewCalendarEvent) throws -> CalendarEvent {
        try title(new.title)
        var event = CalendarEvent(id: 0, title: new.title, start: try dateTime(new.start, field: "start"),
                                  end: try dateTime(new.end, field: "end"), allDay: new.allDay ?? false)
        event.recurrence = new.recurrence.flatMap { $0.isEmpty ? nil : $0 }
        event.timeZone = new.timeZone.flatMap { $0.isEmpty ? nil : $0 }
        event.location = new.location.flatMap { $0.isEmpty ? nil : $0 }
        event.description = new.description.flatMap { $0.isEmpty ? nil : $0 }
        try details(recurrence: event.recurrence, timeZone: event.timeZone, location: event.location, description: event.description)
        try span(start: event.start, end: event.end, allDay: event.allDay)
        if let reminders = new.reminders, !reminders.isEmpty {
            guard reminders.count <= CalendarLimits.remindersPerEvent, reminders.allSatisfy(CalendarLimits.reminderMinutes.contains) else {
                throw APIFailure.badRequest("at most \(CalendarLimits.remindersPerEvent) numbers of minutes before the start, "
                                            + "from 0 to \(CalendarLimits.reminderMinutes.upperBound) (four weeks)", field: "reminders")
            }
            event.reminders = Set(reminders).sorted(by: >)
        }
        return event
    }

    /// `event` with `patch` applied (`CalendarEvent.patched`), checked field by field and as a whole.
    static func patched(_ event: CalendarEvent, with patch: CalendarEventPatch) throws -> CalendarEvent {
        if let title = patch.title { try self.title(title) }
        if let start = patch.start { _ = try dateTime(start, field: "start") }
        if let end = patch.end { _ = try dateTime(end, field: "end") }
        // Only what the patch sets: an imported event's own words may be longer than the API's.
        func given(_ text: String?) -> String? { text.flatMap { $0.isEmpty ? nil : $0 } }
        try details(recurrence: given(patch.recurrence), timeZone: given(patch.timeZone), location: given(patch.location),
                    description: given(patch.description))
        let result = event.patched(patch)
        try span(start: result.start, end: result.end, allDay: result.allDay)
        return result
    }

    static func title(_ title: String) throws {
        try TextValidation.check(title, field: "title", lines: .single, length: CalendarLimits.titleLength)
    }

    /// The fields beyond the title and the times: a rule the recurrence engine reads, a zone the
    /// system's database has, words within their bytes.
    private static func details(recurrence: String?, timeZone: String?, location: String?, description: String?) throws {
        if let recurrence {
            guard recurrence.utf8.count <= CalendarLimits.recurrenceBytes else {
                throw APIFailure.badRequest("must be at most \(CalendarLimits.recurrenceBytes) bytes", field: "recurrence")
            }
            do {
                _ = try RecurrenceRule(parsing: recurrence)
            } catch {
                throw APIFailure.badRequest("must be an iCalendar RRULE such as FREQ=WEEKLY;BYDAY=MO: \(error.description)", field: "recurrence")
            }
        }
        if let zone = timeZone, SystemZones.zone(zone) == nil {
            throw APIFailure.badRequest("must name a zone of the tz database, such as Europe/Paris or America/New_York", field: "timeZone")
        }
        if let location {
            try TextValidation.check(location, field: "location", lines: .single, length: CalendarLimits.locationLength)
        }
        if let description {
            try TextValidation.check(description, field: "description", lines: .multiple, length: CalendarLimits.descriptionLength)
        }
    }

    /// A resource about to be stored, no larger than one event may be.
    static func sized(_ resource: EventResource) throws -> EventResource {
        guard resource.text.utf8.count <= EventLimits.resourceBytes else {
            throw APIFailure.badRequest("the event's iCalendar text would pass \(EventLimits.resourceBytes) bytes: "
                                        + "it has too many instances changed on their own; change all of them at once instead", field: nil)
        }
        return resource
    }

    /// A date-time in the supported years (as a UTC date: `9999-12-31T23:30:00-01:00` is in the
    /// year 10000).
    static func dateTime(_ text: String, field: String) throws -> UTCInstant {
        guard let instant = UTCInstant(iso: text), CalendarLimits.years.contains(instant.day.year) else {
            throw APIFailure.badRequest(
                "must be an ISO 8601 date-time with a zone, e.g. 2026-11-22T09:30:00Z, in the years "
                    + "\(CalendarLimits.years.lowerBound)–\(CalendarLimits.years.upperBound)",
                field: field
            )
        }
        return instant
    }

    private static func span(start: UTCInstant, end: UTCInstant, allDay: Bool) throws {
        guard end >= start else { throw APIFailure.badRequest("must not be before 'start'", field: "end") }
        guard end.secondsSinceEpoch - start.secondsSinceEpoch <= Int64(CalendarLimits.maxDurationDays) * 86_400 else {
            throw APIFailure.badRequest("an event may last at most \(CalendarLimits.maxDurationDays) days", field: "end")
        }
        if allDay {
            guard start.secondsIntoDay == 0 else {
                throw APIFailure.badRequest("must be midnight UTC for an all-day event", field: "start")
            }
            guard end.secondsIntoDay == 0, end > start else {
                throw APIFailure.badRequest("must be a later midnight UTC for an all-day event", field: "end")
            }
        }
    }
}
