import CalendarTime
import CanvasCore
import Foundation

/// The time source of the canvas; tests fix it.
public struct CanvasClock: Sendable {
    public let now: @Sendable () -> Date
    public let timeZone: TimeZone

    public init(now: @escaping @Sendable () -> Date = { Date() }, timeZone: TimeZone = .current) {
        self.now = now
        self.timeZone = timeZone
    }

    /// A clock stopped at noon of `date` in UTC.
    public static func fixed(_ date: CalendarDate) -> CanvasClock {
        let instant = Date(timeIntervalSince1970: Double(date.daysSinceEpoch * 86_400 + 12 * 3_600))
        return CanvasClock(now: { instant }, timeZone: TimeZone(identifier: "UTC")!)
    }

    /// The local calendar day now.
    public var today: CalendarDate {
        let seconds = now().timeIntervalSince1970 + Double(timeZone.secondsFromGMT(for: now()))
        return CalendarDate(daysSinceEpoch: Int((seconds / 86_400).rounded(.down)))
    }

    /// `HH:MM:SS` of an instant in this clock's time zone.
    public func timeOfDay(_ date: Date) -> String {
        let seconds = Int((date.timeIntervalSince1970 + Double(timeZone.secondsFromGMT(for: date))).rounded(.down))
        let s = ((seconds % 86_400) + 86_400) % 86_400
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(two(s / 3600)):\(two(s / 60 % 60)):\(two(s % 60))"
    }
}
