import Foundation
@testable import HTTPClient
import Testing

@Suite("Request building, retry policy and backoff")
struct RequestBuildingTests {
    private let endpoint = HTTPClient.Endpoint(baseURL: "http://127.0.0.1:7450/")

    private func build(_ request: HTTPClient.Request, token: String? = nil) throws(HTTPClientError) -> Exchange {
        try Exchange.build(request, endpoint: endpoint, token: token, connectTimeout: .seconds(1), totalTimeout: .seconds(2), maxResponseBytes: 100)
    }

    @Test("the URL joins base and path with one slash and percent-encodes the query")
    func url() throws {
        let exchange = try build(.init(.get, "/api/todo/items", query: [(name: "from", value: "2026-01-01"), (name: "q", value: "a b&c=d/é")]))
        #expect(exchange.url == "http://127.0.0.1:7450/api/todo/items?from=2026-01-01&q=a%20b%26c%3Dd%2F%C3%A9")
        #expect(try build(.init(.get, "/x?a=1", query: [(name: "b", value: "2")])).url == "http://127.0.0.1:7450/x?a=1&b=2")
    }

    @Test("a token becomes a bearer header unless the request has its own Authorization")
    func bearer() throws {
        #expect(try build(.init(.get, "/"), token: "abc").headerLines == ["Authorization: Bearer abc"])
        #expect(try build(.init(.get, "/", headers: [(name: "Authorization", value: "Basic x")]), token: "abc").headerLines == ["Authorization: Basic x"])
        #expect(try build(.init(.get, "/")).headerLines.isEmpty)
    }

    @Test("a body turns off libcurl's default content type and Expect unless given")
    func bodyHeaders() throws {
        #expect(try build(.init(.post, "/", body: [1])).headerLines == ["Content-Type:", "Expect:"])
        #expect(try build(.init(.post, "/", headers: [(name: "content-type", value: "application/json")], body: [1])).headerLines
            == ["content-type: application/json", "Expect:"])
    }

    @Test("malformed requests are refused before anything is sent", arguments: [
        HTTPClient.Request(.get, "api/todo"),
        HTTPClient.Request(.get, "/a b"),
        HTTPClient.Request(.get, "/a#b"),
        HTTPClient.Request(.get, "/", headers: [(name: "X-Evil", value: "a\r\nX-Injected: 1")]),
        HTTPClient.Request(.get, "/", headers: [(name: "Bad Name", value: "x")]),
        HTTPClient.Request(.init(rawValue: "GET /x"), "/"),
    ])
    func invalid(request: HTTPClient.Request) {
        #expect {
            try build(request)
        } throws: { error in
            if case .invalidRequest = error as? HTTPClientError { true } else { false }
        }
    }

    @Test("a token with a line break is refused without being echoed")
    func invalidToken() {
        do {
            _ = try build(.init(.get, "/"), token: "secret\r\nX: y")
            Issue.record("a token with a line break was accepted")
        } catch {
            guard case .invalidRequest(let message) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(!message.contains("secret"))
        }
    }

    @Test("only idempotent methods, or requests with an Idempotency-Key, are retryable")
    func retryable() {
        for method in [HTTPClient.Method.get, .head, .put, .delete, .options] { #expect(HTTPClient.Request(method, "/").isRetryable) }
        for method in [HTTPClient.Method.post, .patch] { #expect(!HTTPClient.Request(method, "/").isRetryable) }
        #expect(HTTPClient.Request(.post, "/", headers: [(name: "idempotency-key", value: "k1")]).isRetryable)
    }

    @Test("transient errors: unreachable, timeout, 429, 502, 503, 504")
    func transient() {
        #expect(HTTPClientError.unreachable("x").isTransient && HTTPClientError.timeout.isTransient)
        for code in [429, 502, 503, 504] { #expect(HTTPClientError.status(code: code, body: [], apiError: nil).isTransient) }
        for code in [400, 401, 404, 409, 500] { #expect(!HTTPClientError.status(code: code, body: [], apiError: nil).isTransient) }
        #expect(!HTTPClientError.cancelled.isTransient && !HTTPClientError.undecodable(status: 200, body: [], reason: "").isTransient)
    }

    @Test("backoff doubles from the initial wait up to the cap, half of it random")
    func backoff() {
        let policy = HTTPClient.RetryPolicy(maxAttempts: 10, initialBackoff: .milliseconds(100), maxBackoff: .seconds(1))
        var random = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let first = policy.backoff(afterAttempt: 1, using: &random)
            #expect(first >= .milliseconds(50) && first <= .milliseconds(100))
            let third = policy.backoff(afterAttempt: 3, using: &random)
            #expect(third >= .milliseconds(200) && third <= .milliseconds(400))
            let late = policy.backoff(afterAttempt: 40, using: &random)
            #expect(late >= .milliseconds(500) && late <= .seconds(1))
        }
    }

    @Test("Retry-After: whole seconds or an HTTP date")
    func retryAfter() {
        let now = Date(timeIntervalSince1970: 1_795_000_000)  // Mon, 24 Nov 2026 … GMT
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        #expect(RetryAfter.seconds("3", now: now) == 3)
        #expect(RetryAfter.seconds(" 0 ", now: now) == 0)
        #expect(RetryAfter.seconds(formatter.string(from: now.addingTimeInterval(30)), now: now) == 30)
        #expect(RetryAfter.seconds(formatter.string(from: now.addingTimeInterval(-30)), now: now) == 0)
        #expect(RetryAfter.seconds("-1", now: now) == nil && RetryAfter.seconds("", now: now) == nil)
        #expect(RetryAfter.seconds("soon", now: now) == nil)
    }

    /// A hostile server's date: a year that overflows the seconds computed from it trapped, and
    /// a clock or day that is not its fixed width was read by what parsed of it.
    @Test("Retry-After: a date whose numbers are not their fixed widths is nothing, never a trap")
    func retryAfterHostileDates() {
        let now = Date(timeIntervalSince1970: 1_795_000_000)
        #expect(RetryAfter.seconds("Sun, 06 Nov 1994 08:49:37 GMT", now: now) == 0)
        for hostile in ["Sun, 06 Nov 999999999999999 08:49:37 GMT", "Sun, 06 Nov 99999999999 08:49:37 GMT",
                        "Sun, +6 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 1994 08:xx:37:00 GMT", "Sun, 6 Nov 1994 08:49:37 GMT",
                        "Sun, 06 Nov 1994 8:49:37 GMT", "Sun, 06 Nov 1994 08:49:-1 GMT", "Sun,  06 Nov 1994 08:49:37 GMT"] {
            #expect(RetryAfter.seconds(hostile, now: now) == nil, "\(hostile)")
        }
    }

    @Test("durations become whole milliseconds, rounded up and never 0 (libcurl's 'no limit')")
    func milliseconds() {
        #expect(Duration.milliseconds(1500).milliseconds() == 1500)
        #expect(Duration.microseconds(1).milliseconds() == 1)
        #expect(Duration.zero.milliseconds() == 1)
        #expect(Duration.microseconds(2001).milliseconds() == 3)
    }
}
