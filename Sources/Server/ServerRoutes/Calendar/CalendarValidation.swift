import CalendarTime
import ServerAPI
import ServerHTTP

/// The rules for calendar events; each failure names its field. Valid events come out with their
/// date-times in UTC.
enum CalendarValidation {
    /// A new event, checked and normalised.
    static func validated(_ new: NewCalendarEvent) throws -> (title: String, start: UTCInstant, end: UTCInstant, allDay: Bool) {
        try title(new.title)
        let start = try dateTime(new.start, field: "start")
        let end = try dateTime(new.end, field: "end")
        let allDay = new.allDay ?? false
        try span(start: start, end: end, allDay: allDay)
        return (new.title, start, end, allDay)
    }

    /// `event` with `patch` applied (`CalendarEvent.patched`), checked field by field and as a whole.
    static func patched(_ event: CalendarEvent, with patch: CalendarEventPatch) throws -> CalendarEvent {
        if let title = patch.title { try self.title(title) }
        if let start = patch.start { _ = try dateTime(start, field: "start") }
        if let end = patch.end { _ = try dateTime(end, field: "end") }
        let result = event.patched(patch)
        try span(start: result.start, end: result.end, allDay: result.allDay)
        return result
    }

    static func title(_ title: String) throws {
        try TextValidation.check(title, field: "title", lines: .single, length: CalendarLimits.titleLength)
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
