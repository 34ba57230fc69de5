import CalendarTime
import FoundationEssentials
import PlainText

/// `Retry-After` (RFC 9110 §10.2.3): whole seconds, or an HTTP date.
public enum RetryAfter {
    /// The seconds to wait (0 for a date passed); nil for anything else, which leaves the caller's
    /// backoff in charge.
    public static func seconds(_ value: String, now: Date = Date()) -> Int? {
        let text = value.trimmingWhitespace()
        if !text.isEmpty, text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) {
            return Int(text)
        }
        guard let date = httpDate(text) else { return nil }
        return max(0, Int(date.timeIntervalSince(now).rounded(.up)))
    }

    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// An IMF-fixdate, the form RFC 9110 has servers send: `Sun, 06 Nov 1994 08:49:37 GMT`. Every
    /// number has its fixed width, so none from a server can overflow what is computed from it.
    static func httpDate(_ text: String) -> Date? {
        let parts = text.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 6, parts[0].count == 4, parts[0].hasSuffix(","), parts[5] == "GMT",
              let day = number(parts[1], digits: 2), let month = months.firstIndex(of: String(parts[2])),
              let year = number(parts[3], digits: 4), let date = CalendarDate(year: year, month: month + 1, day: day) else { return nil }
        let clock = parts[4].split(separator: ":", omittingEmptySubsequences: false).map { number($0, digits: 2) }
        guard clock.count == 3, let hour = clock[0], let minute = clock[1], let second = clock[2],
              hour < 24, minute < 60, second <= 60 else { return nil }
        let seconds = date.daysSinceEpoch * 86_400 + hour * 3_600 + minute * 60 + second
        return Date(timeIntervalSince1970: Double(seconds))
    }

    /// `text` as a number if it is exactly `digits` ASCII digits.
    private static func number(_ text: Substring, digits: Int) -> Int? {
        guard text.utf8.count == digits, text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else { return nil }
        return Int(text)
    }
}
