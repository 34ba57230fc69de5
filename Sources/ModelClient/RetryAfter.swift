import Foundation

/// `Retry-After`: whole seconds, or an HTTP date (RFC 9110 §10.2.3).
enum RetryAfter {
    static func seconds(_ value: String, now: Date = Date()) -> Int? {
        let text = value.trimmingCharacters(in: .whitespaces)
        if let seconds = Int(text) { return max(0, seconds) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = formatter.date(from: text) else { return nil }
        return max(0, Int(date.timeIntervalSince(now).rounded(.up)))
    }
}
