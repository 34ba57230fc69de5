import Foundation
import ServerAPI

extension AppHealth {
    /// As the catalog and a pane's title say it: `up`, `degraded (reason)`, `down since 14:02`
    /// (local time), `unknown`.
    public func label(timeZone: TimeZone = .current) -> String {
        switch state {
        case .unknown: return "unknown"
        case .up: return "up"
        case .degraded: return "degraded (\(reason ?? "no reason given"))"
        case .down:
            guard let since, let date = try? Date(since, strategy: .iso8601) else { return "down" }
            var style = Date.FormatStyle(date: .omitted, time: .shortened, timeZone: timeZone)
            style.locale = Locale(identifier: "en_GB")
            return "down since \(date.formatted(style))"
        }
    }
}
