import HTTPClient

/// The body the raw servers answer with, and what it decodes to.
struct Flag: Codable, Equatable {
    static let okJSON = #"{"ok":true}"#
    var ok: Bool
}

/// A call's result or its `HTTPClientError` as one value, so a test can match on it.
func outcome<Value>(_ call: () async throws(HTTPClientError) -> Value) async -> Result<Value, HTTPClientError> {
    do {
        return .success(try await call())
    } catch {
        return .failure(error)
    }
}
