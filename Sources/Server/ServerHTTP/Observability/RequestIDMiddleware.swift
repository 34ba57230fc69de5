import HTTPTypes
import Hummingbird

/// Sends the request id that every log line of the request carries (`hb.request.id`) back as
/// `X-Request-Id`, so a user's report of a failed request can be matched to the server's log.
package struct RequestIDMiddleware<Context: RequestContext>: RouterMiddleware {
    package init() {}

    static var header: HTTPField.Name { HTTPField.Name("X-Request-Id")! }

    package func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        response.headers[Self.header] = context.id
        return response
    }
}
