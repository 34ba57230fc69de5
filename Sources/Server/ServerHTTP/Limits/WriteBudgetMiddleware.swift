import Hummingbird

/// Answers 429 with `Retry-After` once a user has sent more bytes of writes (the bodies of POST,
/// PUT and PATCH) than their budget: requests per second alone let one user make the server
/// parse and store 50 × 64 KiB a second, and everyone's writes wait behind theirs.
///
/// A body is counted as it arrived, whatever it turns out to change: what the server must read,
/// check and store grows with it. The budget (`RateLimits.writeBytesPerUserPerSecond`, bursts of
/// four times that) is far above what a dashboard sends — a todo, a chat message, a pane's state.
package struct WriteBudgetMiddleware: RouterMiddleware {
    package typealias Context = BFFRequestContext

    let limiter: TokenBucketLimiter
    /// The largest body any route takes (the assembly names it: a message to a remote app); each
    /// route still holds its own limit, which is smaller for the rest
    /// (`BFFRequestContext.maxUploadSize`).
    let largestBody: Int
    /// A rarer route that takes larger bodies (a package's archive, published by admins and the
    /// publishers they name), and how large: its body costs at most a burst.
    let larger: (route: @Sendable (Request) -> Bool, limit: Int)?
    private let burst: Double

    /// A budget of `rate` bytes a second, with bursts of four times that and never less than the
    /// largest body, which would otherwise be refused forever.
    package init(rate: Double, largestBody: Int, larger: (route: @Sendable (Request) -> Bool, limit: Int)? = nil) {
        self.largestBody = largestBody
        self.larger = larger
        burst = max(4 * rate, Double(largestBody))
        limiter = TokenBucketLimiter(rate: rate, burst: burst)
    }

    package func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard [.post, .put, .patch].contains(request.method), let user = context.user else { return try await next(request, context) }
        var request = request
        let limit = larger.flatMap { $0.route(request) ? $0.limit : nil } ?? largestBody
        let body = try await request.collectBody(upTo: limit)
        if let wait = limiter.take(String(user.id), amount: min(Double(body.readableBytes), burst)) {
            try await RateLimitMiddleware.refuse(after: wait)
        }
        return try await next(request, context)
    }
}
