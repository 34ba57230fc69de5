import HTTPTypes
import MicroAppAPI

/// An error a handler answers with: a status and the `{"error", "field"}` body.
struct APIFailure: Error {
    let status: HTTPResponse.Status
    let body: APIError

    static func badRequest(_ message: String, field: String?) -> APIFailure {
        APIFailure(status: .badRequest, body: APIError(error: message, field: field))
    }

    static let notFound = APIFailure(status: .notFound, body: APIError(error: "not found"))
    static let unauthorized = APIFailure(status: .unauthorized, body: APIError(error: "missing, invalid or expired bearer token"))
}
