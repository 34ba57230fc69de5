import CalendarTime
import CanvasCore
import FoundationEssentials
import PlainText
#if canImport(Glibc)
import Glibc
#endif

/// The time source of the canvas; tests fix it.
public struct CanvasClock: Sendable {
    public let now: @Sendable () -> Date
    /// Seconds east of UTC at an instant, where the canvas is.
    public let secondsFromGMT: @Sendable (Date) -> Int
    /// The tz database's name of its zone (`Europe/Paris`), when known: an event made to repeat
    /// here keeps its local time across summer time.
    public let zoneName: String?

    /// A clock in the system's local time zone (`LocalTime`).
    public init(now: @escaping @Sendable () -> Date = { Date() }) {
        self.now = now
        secondsFromGMT = LocalTime.secondsFromGMT(at:)
        zoneName = Self.localZoneName()
    }

    /// A clock in `timeZone`.
    public init(now: @escaping @Sendable () -> Date, timeZone: TimeZone) {
        self.now = now
        secondsFromGMT = { timeZone.secondsFromGMT(for: $0) }
        zoneName = timeZone.identifier
    }

    private init(now: @escaping @Sendable () -> Date, secondsFromGMT: @escaping @Sendable (Date) -> Int) {
        self.now = now
        self.secondsFromGMT = secondsFromGMT
        zoneName = nil
    }

    /// A clock stopped at noon of `date` in UTC.
    public static func fixed(_ date: CalendarDate) -> CanvasClock {
        let instant = Date(timeIntervalSince1970: Double(date.daysSinceEpoch * 86_400 + 12 * 3_600))
        return CanvasClock(now: { instant }, secondsFromGMT: { _ in 0 })
    }

    /// The local zone's name: `TZ` when it names one (`Europe/Paris`, `:Europe/Paris`), else where
    /// `/etc/localtime` links to in the zone database; nil for a rule (`CET-1CEST`) or a copy.
    static func localZoneName(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        if let given = environment["TZ"] {
            let name = given.hasPrefix(":") ? String(given.dropFirst()) : given
            return name.utf8Contains("/") && !name.hasPrefix("/") && !name.utf8Contains("..") ? name : name == "UTC" ? "UTC" : nil
        }
        var target = [CChar](repeating: 0, count: 512)
        let count = readlink("/etc/localtime", &target, target.count - 1)
        guard count > 0 else { return nil }
        let path = String(decoding: target.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard let range = path.utf8Range(of: "zoneinfo/") else { return nil }
        return String(path[range.upperBound...])
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
