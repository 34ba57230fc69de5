import Foundation
@testable import ModelClient
import Testing

@Suite("Retry-After: seconds or an HTTP date")
struct RetryAfterTests {
    @Test func bothFormsAreRead() {
        let now = Date(timeIntervalSince1970: 1_795_000_000)  // Mon, 24 Nov 2026 … GMT
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        #expect(RetryAfter.seconds(" 7 ", now: now) == 7)
        #expect(RetryAfter.seconds(formatter.string(from: now.addingTimeInterval(30)), now: now) == 30)
        #expect(RetryAfter.seconds(formatter.string(from: now.addingTimeInterval(-30)), now: now) == 0)
        #expect(RetryAfter.seconds("soon", now: now) == nil)
    }
}
