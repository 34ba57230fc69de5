import HTTPTypes
import Hummingbird
import ServerAPI
import Synchronization

/// A path the server serves, asked with a method it does not serve there (`TRACE /api/todo/items`),
/// is 405 with `Allow` naming the methods it does serve, not 404 (RFC 9110 §15.5.6).
package struct MethodNotAllowedMiddleware<Context: RequestContext>: RouterMiddleware {
    let routes: ServedRoutes

    package init(routes: ServedRoutes) {
        self.routes = routes
    }

    package func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound && context.endpointPath == "NotFound" {
            // No route took the request (a route's own 404 names its endpoint instead).
            let allowed = routes.methods(for: request.uri.path)
            guard !allowed.isEmpty else { throw error }
            throw APIFailure(status: .methodNotAllowed, body: APIError(error: "method not allowed"),
                             headers: [.allow: allowed.map(\.rawValue).joined(separator: ", ")])
        }
    }
}

/// The routes a router serves, by path pattern (`{id}` matches any one segment), filled once the
/// router is built.
package final class ServedRoutes: Sendable {
    private let patterns = Mutex<[(segments: [Substring?], method: HTTPRequest.Method)]>([])

    package init() {}

    package func record(_ routes: [Router<some RequestContext>.RouteDescription]) {
        let recorded = routes.map { route in
            (segments: route.path.description.split(separator: "/").map { $0.hasPrefix("{") ? nil : $0 }, method: route.method)
        }
        patterns.withLock { $0 = recorded }
    }

    /// The methods served at `path`, sorted; empty when no route has this path. As the router
    /// does, a segment named literally wins over a parameter: `/api/calendars/caldav` is not one
    /// of `/api/calendars/{id}`.
    func methods(for path: String) -> [HTTPRequest.Method] {
        let segments = path.split(separator: "/")
        var matching = patterns.withLock { patterns in
            patterns.filter { pattern in
                pattern.segments.count == segments.count && zip(pattern.segments, segments).allSatisfy { $0 == nil || $0 == $1 }
            }
        }
        for index in segments.indices where matching.contains(where: { $0.segments[index] != nil }) {
            matching.removeAll { $0.segments[index] == nil }
        }
        return Set(matching.map(\.method)).sorted { $0.rawValue < $1.rawValue }
    }
}
