import Foundation

/// `Retry-After` (RFC 9110 §10.2.3): whole seconds, or an HTTP date.
public enum RetryAfter {
    /// The seconds to wait (0 for a date passed); nil for anything else, which leaves the caller's
    /// backoff in charge.
    public static func seconds(_ value: String, now: Date = Date()) -> Int? {
        let text = value.trimmingCharacters(in: .whitespaces)
        if !text.isEmpty, text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) {
            return Int(text)
        }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = formatter.date(from: text) else { return nil }
        return max(0, Int(date.timeIntervalSince(now).rounded(.up)))
    }
}
