import CalendarTime
import CanvasCore
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The time source of the canvas; tests fix it.
public struct CanvasClock: Sendable {
    public let now: @Sendable () -> Date
    /// Seconds east of UTC at an instant, where the canvas is.
    public let secondsFromGMT: @Sendable (Date) -> Int

    /// A clock in the system's local time zone, read from the C library (`localtime_r`): Foundation's
    /// `TimeZone.current` loads ICU's time-zone data, ~1 MB of the dashboard's memory, for one number.
    public init(now: @escaping @Sendable () -> Date = { Date() }) {
        self.now = now
        secondsFromGMT = Self.localOffset
    }

    /// A clock in `timeZone`.
    public init(now: @escaping @Sendable () -> Date, timeZone: TimeZone) {
        self.now = now
        secondsFromGMT = { timeZone.secondsFromGMT(for: $0) }
    }

    private init(now: @escaping @Sendable () -> Date, secondsFromGMT: @escaping @Sendable (Date) -> Int) {
        self.now = now
        self.secondsFromGMT = secondsFromGMT
    }

    /// A clock stopped at noon of `date` in UTC.
    public static func fixed(_ date: CalendarDate) -> CanvasClock {
        let instant = Date(timeIntervalSince1970: Double(date.daysSinceEpoch * 86_400 + 12 * 3_600))
        return CanvasClock(now: { instant }, secondsFromGMT: { _ in 0 })
    }

    /// The local offset at `date` (`TZ`, else `/etc/localtime`), 0 when the C library cannot say.
    private static func localOffset(_ date: Date) -> Int {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var local = tm()
        guard localtime_r(&seconds, &local) != nil else { return 0 }
        return local.tm_gmtoff
    }

    /// The local calendar day now.
    public var today: CalendarDate {
        let instant = now()
        let seconds = instant.timeIntervalSince1970 + Double(secondsFromGMT(instant))
        return CalendarDate(daysSinceEpoch: Int((seconds / 86_400).rounded(.down)))
    }

    /// `HH:MM:SS` of an instant in this clock's time zone.
    public func timeOfDay(_ date: Date) -> String {
        let seconds = Int((date.timeIntervalSince1970 + Double(secondsFromGMT(date))).rounded(.down))
        let s = ((seconds % 86_400) + 86_400) % 86_400
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(two(s / 3600)):\(two(s / 60 % 60)):\(two(s % 60))"
    }
}
