import CalendarTime
import FoundationEssentials
import ServerAPI

extension AppHealth {
    /// As the catalog and a pane's title say it: `up`, `degraded (reason)`, `down since 14:02`
    /// (local time: `secondsFromGMT` gives its offset at an instant), `unknown`.
    public func label(secondsFromGMT: (Date) -> Int = LocalTime.secondsFromGMT(at:)) -> String {
        switch state {
        case .unknown: return "unknown"
        case .up: return "up"
        case .degraded: return "degraded (\(reason ?? "no reason given"))"
        case .down:
            guard let since, let date = try? Date(since, strategy: .iso8601) else { return "down" }
            return "down since \(LocalTime.hoursAndMinutes(of: date, secondsFromGMT: secondsFromGMT(date)))"
        }
    }
}
