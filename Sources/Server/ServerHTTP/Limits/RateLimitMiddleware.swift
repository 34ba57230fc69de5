import Hummingbird
import NIOCore
import ServerAPI

/// Answers 429 with `Retry-After` (whole seconds, at least 1) once a client spends its bucket.
///
/// Two instances guard the API: one keyed by the peer address in front of everything (all users
/// behind one address together, and unauthenticated requests), one keyed by user after bearer auth.
package struct RateLimitMiddleware: RouterMiddleware {
    package typealias Context = BFFRequestContext

    package enum Key: Sendable {
        case address
        case user
    }

    let limiter: TokenBucketLimiter
    let key: Key

    package init(limiter: TokenBucketLimiter, key: Key) {
        self.limiter = limiter
        self.key = key
    }

    package func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let name: String? = switch key {
        case .address: context.clientAddress
        case .user: context.user.map { String($0.id) }
        }
        if let name, let wait = limiter.take(name) {
            try await Self.refuse(after: wait)
        }
        return try await next(request, context)
    }

    /// Answers 429 once the client has waited as long as it should have, at most a second: one
    /// that sends as fast as it can whatever it is told gets its refusals at the pace it was
    /// allowed, so refusing it costs the server a sleeping task per connection, not a core (8
    /// connections sending 60 KB edits were refused 19 000 times a second and slowed others' p99
    /// tenfold; see benchmarks.md). A client that honours `Retry-After` never waits here.
    static func refuse(after wait: Duration) async throws -> Never {
        try await Task.sleep(for: min(wait, .seconds(1)))
        throw APIFailure.tooManyRequests(retryAfter: wait)
    }
}
