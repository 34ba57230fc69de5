import CanvasCore
import CanvasUI
import Foundation
import MicroAppAPI

/// Converts the API's UTC date-times (`2026-11-23T09:30:00Z`) to and from the local days and
/// times the calendar shows, in the canvas clock's time zone.
enum EventTime {
    /// Seconds since 1970 of an ISO 8601 UTC date-time, or nil when it is not one.
    static func seconds(_ iso: String) -> Int? {
        let parts = iso.split(whereSeparator: { $0 == "T" || $0 == ":" || $0 == "Z" || $0 == "." })
        guard parts.count >= 4, let day = CalendarDate(iso: String(parts[0])),
              let hour = Int(parts[1]), let minute = Int(parts[2]), let second = Int(parts[3]) else { return nil }
        return day.daysSinceEpoch * 86_400 + hour * 3_600 + minute * 60 + second
    }

    static func iso(_ seconds: Int) -> String {
        let day = CalendarDate(daysSinceEpoch: Int((Double(seconds) / 86_400).rounded(.down)))
        let time = ((seconds % 86_400) + 86_400) % 86_400
        return day.iso + "T" + String(format: "%02d:%02d:%02dZ", time / 3600, time / 60 % 60, time % 60)
    }

    static func offset(at seconds: Int, clock: CanvasClock) -> Int {
        clock.timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(seconds)))
    }

    /// The local days an event covers. All-day events are dates, not instants: they keep their
    /// UTC days in every time zone.
    static func days(of event: CalendarEvent, clock: CanvasClock) -> ClosedRange<CalendarDate>? {
        guard let start = seconds(event.start), let end = seconds(event.end), end > start else { return nil }
        func day(_ instant: Int, local: Bool) -> CalendarDate {
            let shifted = instant + (local ? offset(at: instant, clock: clock) : 0)
            return CalendarDate(daysSinceEpoch: Int((Double(shifted) / 86_400).rounded(.down)))
        }
        let local = !event.allDay
        return day(start, local: local)...day(end - 1, local: local)
    }

    /// `09:30–10:00` in local time, or `all day`.
    static func label(of event: CalendarEvent, clock: CanvasClock) -> String {
        guard !event.allDay, let start = seconds(event.start), let end = seconds(event.end) else { return "all day" }
        func time(_ instant: Int) -> String {
            String(clock.timeOfDay(Date(timeIntervalSince1970: Double(instant))).prefix(5))
        }
        return "\(time(start))–\(time(end))"
    }

    /// The UTC instant of a local time on a local day.
    static func instant(day: CalendarDate, minutes: Int, clock: CanvasClock) -> Int {
        let naive = day.daysSinceEpoch * 86_400 + minutes * 60
        return naive - offset(at: naive, clock: clock)
    }
}
