import Hummingbird
import Logging
import ServerAPI
import ServerStore

/// Turns every error into a JSON `{"error", "field"}` body with the right status, so no route
/// (not even an unknown one) answers with plain text; unexpected errors become 500 and are logged.
package struct APIErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    package init() {}

    package func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let failure as APIFailure {
            var response = try Response.json(failure.body, status: failure.status)
            response.headers.append(contentsOf: failure.headers)
            return response
        } catch BFFStoreError.unavailable(let reason) {
            context.logger.warning("database unavailable", metadata: ["reason": "\(reason)"])
            var response = try Response.json(APIError(error: "the database is unavailable; try again shortly"), status: .serviceUnavailable)
            response.headers[.retryAfter] = "1"
            return response
        } catch BFFStoreError.auditedChangesSpent(let wait) {
            let failure = APIFailure.tooManyRequests(retryAfter: wait)
            let hours = max(1, (Int(wait.components.seconds) + 3599) / 3600)
            var response = try Response.json(APIError(error: "you have made \(AuditLimits.changesPerUserPerDay) audited changes (creating, sharing, renaming "
                                                      + "or deleting canvases, publishing) in the last 24 hours, the most one user may; "
                                                      + "try again in \(hours) h"), status: failure.status)
            response.headers.append(contentsOf: failure.headers)
            return response
        } catch BFFStoreError.quotaReached(let what, let limit) {
            return try .json(APIError(error: "you keep \(limit) \(what), the most one user may: delete some first"), status: .forbidden)
        } catch BFFStoreError.tooMuchWork {
            return try .json(APIError(error: "the range's repeating events need more work than one request may do (rules that repeat every "
                                      + "second, or almost never): ask for a shorter range", field: "to"), status: .badRequest)
        } catch BFFStoreError.readOnlyCalendar {
            return try .json(APIError(error: "this event is in a subscribed calendar, which is read-only: change it where the calendar "
                                      + "comes from"), status: .conflict)
        } catch BFFStoreError.noSuchCalendar {
            return try .json(APIError(error: "you have no calendar with this id: GET /api/calendars lists yours", field: "calendar"),
                             status: .badRequest)
        } catch BFFStoreError.noSuchList {
            return try .json(APIError(error: "you have no task list with this id: GET /api/calendars lists yours (those with taskList)",
                                      field: "list"), status: .badRequest)
        } catch let error as any HTTPResponseError {
            return try .json(APIError(error: Self.message(for: error.status)), status: error.status)
        } catch {
            context.logger.error("request failed", metadata: ["error": "\(String(reflecting: error))"])
            return try .json(APIError(error: "internal server error"), status: .internalServerError)
        }
    }

    private static func message(for status: HTTPResponse.Status) -> String {
        switch status {
        case .notFound: "not found"
        case .contentTooLarge: "request body too large"
        case .methodNotAllowed: "method not allowed"
        default: status.reasonPhrase.lowercased()
        }
    }
}
