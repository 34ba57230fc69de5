import ServerAPI

/// Why a request failed. Every failure is one of these values, so callers switch on them rather
/// than parse messages: the UI shows "offline" for `.unreachable`, "slow server" for `.timeout`,
/// the server's own message (`apiError`) for `.status`.
public enum HTTPClientError: Error, Sendable, Equatable {
    /// No HTTP answer could be had: connection refused, no unix socket at the path, name not
    /// resolved, or the connection closed or reset before a whole response arrived. The text is
    /// libcurl's description, for logs.
    case unreachable(String)
    /// A time limit ran out: no connection within the connect timeout, no whole answer within the
    /// total timeout, or an event stream silent for longer than its idle timeout.
    case timeout
    /// The server answered with a status outside 2xx. `apiError` is the BFF's
    /// `{"error", "field"}` body when the body is one.
    case status(code: Int, body: [UInt8], apiError: APIError?)
    /// A 2xx answer whose body is not what the caller asked for (not JSON, or JSON of another
    /// shape, or larger than the client accepts).
    case undecodable(status: Int, body: [UInt8], reason: String)
    /// The calling task was cancelled (or the client went away); the transfer was removed.
    case cancelled
    /// The request could not be sent as given: a path without a leading `/`, a header with a line
    /// break, a body that does not encode, a base URL libcurl rejects.
    case invalidRequest(String)

    /// Whether trying the same request again may succeed: the server was not reached, was too
    /// slow, or said so (429, 502, 503, 504). Whether it is *safe* to retry depends on the method;
    /// see `HTTPClient.Request.isRetryable`.
    public var isTransient: Bool {
        switch self {
        case .unreachable, .timeout: true
        case .status(let code, _, _): [429, 502, 503, 504].contains(code)
        case .undecodable, .cancelled, .invalidRequest: false
        }
    }
}

extension HTTPClientError: CustomStringConvertible {
    /// A one-line description for logs; bodies are cut to 200 bytes.
    public var description: String {
        switch self {
        case .unreachable(let message): "unreachable: \(message)"
        case .timeout: "timed out"
        case .status(let code, let body, let apiError):
            if let apiError {
                "HTTP \(code): \(apiError.error)\(apiError.field.map { " (field \($0))" } ?? "")"
            } else {
                "HTTP \(code): \(Self.excerpt(body))"
            }
        case .undecodable(let status, let body, let reason): "undecodable HTTP \(status) response (\(reason)): \(Self.excerpt(body))"
        case .cancelled: "cancelled"
        case .invalidRequest(let message): "invalid request: \(message)"
        }
    }

    private static func excerpt(_ body: [UInt8]) -> String {
        let text = String(decoding: body.prefix(200), as: UTF8.self)
        return body.count > 200 ? text + "…" : text
    }
}
