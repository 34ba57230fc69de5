import Hummingbird
import MicroAppAPI
import NIOCore

/// Answers 429 with `Retry-After` (whole seconds, at least 1) once a client spends its bucket.
///
/// Two instances guard the API: one keyed by the peer address in front of everything (all users
/// behind one address together, and unauthenticated requests), one keyed by user after bearer auth.
struct RateLimitMiddleware: RouterMiddleware {
    typealias Context = BFFRequestContext

    enum Key: Sendable {
        case address
        case user
    }

    let limiter: TokenBucketLimiter
    let key: Key

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let name: String? = switch key {
        case .address: context.clientAddress
        case .user: context.user.map { String($0.id) }
        }
        if let name, let wait = limiter.take(name) {
            throw APIFailure.tooManyRequests(retryAfter: wait)
        }
        return try await next(request, context)
    }
}
