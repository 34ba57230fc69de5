import CalendarTime
import CanvasCore
import CanvasUI
import FoundationEssentials
import ServerAPI

/// Converts the API's moments to and from the local days and times the calendar shows, in the
/// canvas clock's time zone.
enum EventTime {
    static func offset(at instant: UTCInstant, clock: CanvasClock) -> Int {
        clock.secondsFromGMT(date(instant))
    }

    /// The local days an event covers. All-day events are dates, not instants: they keep their
    /// UTC days in every time zone.
    static func days(of event: CalendarEvent, clock: CanvasClock) -> ClosedRange<CalendarDate>? {
        guard event.end > event.start else { return nil }
        func day(_ instant: UTCInstant, local: Bool) -> CalendarDate {
            instant.adding(seconds: local ? Int64(offset(at: instant, clock: clock)) : 0).day
        }
        let local = !event.allDay
        return day(event.start, local: local)...day(event.end.adding(seconds: -1), local: local)
    }

    /// `09:30–10:00` in local time, or `all day`.
    static func label(of event: CalendarEvent, clock: CanvasClock) -> String {
        guard !event.allDay else { return "all day" }
        return clockTime(event.start, clock: clock) + "–" + clockTime(event.end, clock: clock)
    }

    /// `09:30`: the local time of a moment.
    static func clockTime(_ instant: UTCInstant, clock: CanvasClock) -> String {
        String(clock.timeOfDay(date(instant)).prefix(5))
    }

    /// The moment of a local time on a local day.
    static func instant(day: CalendarDate, minutes: Int, clock: CanvasClock) -> UTCInstant {
        let naive = UTCInstant(day: day, seconds: minutes * 60)
        return naive.adding(seconds: -Int64(offset(at: naive, clock: clock)))
    }

    private static func date(_ instant: UTCInstant) -> Date {
        Date(timeIntervalSince1970: Double(instant.secondsSinceEpoch))
    }
}
