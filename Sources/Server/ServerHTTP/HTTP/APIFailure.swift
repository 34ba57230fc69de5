import HTTPTypes
import ServerAPI

/// An error a handler answers with: a status, the `{"error", "field"}` body and any extra headers.
package struct APIFailure: Error {
    let status: HTTPResponse.Status
    let body: APIError
    var headers: HTTPFields = [:]

    package init(status: HTTPResponse.Status, body: APIError, headers: HTTPFields = [:]) {
        self.status = status
        self.body = body
        self.headers = headers
    }

    package static func badRequest(_ message: String, field: String?) -> APIFailure {
        APIFailure(status: .badRequest, body: APIError(error: message, field: field))
    }

    /// 409: what the request would create exists already.
    package static func conflict(_ message: String, field: String?) -> APIFailure {
        APIFailure(status: .conflict, body: APIError(error: message, field: field))
    }

    package static func tooManyRequests(retryAfter wait: Duration) -> APIFailure {
        let seconds = max(1, Int(wait.components.seconds) + (wait.components.attoseconds > 0 ? 1 : 0))
        return APIFailure(
            status: .tooManyRequests, body: APIError(error: "too many requests; retry after \(seconds) s"),
            headers: [.retryAfter: String(seconds)]
        )
    }

    package static let notFound = APIFailure(status: .notFound, body: APIError(error: "not found"))
    package static let unauthorized = APIFailure(status: .unauthorized, body: APIError(error: "missing, invalid or expired bearer token, or its session ended: log in again (termcanvas login URL)"))
}
