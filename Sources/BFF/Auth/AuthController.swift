import Hummingbird
import MicroAppAPI
import NIOPosix

/// `POST /api/auth/token`: a username and password in, a signed bearer token out.
///
/// Password checks are slow on purpose (bcrypt), so they run on NIO's blocking thread pool, never on
/// the threads that serve other requests, and each address may try only a few times a minute.
struct AuthController {
    let issuer: TokenIssuer
    let store: BFFStore
    let limiter: TokenBucketLimiter?

    init(issuer: TokenIssuer, store: BFFStore, limits: RateLimits) {
        self.issuer = issuer
        self.store = store
        let perMinute = Double(limits.tokenRequestsPerMinute)
        limiter = limits.isOff || perMinute == 0 ? nil : TokenBucketLimiter(rate: perMinute / 60, burst: perMinute)
    }

    func addRoutes(to router: Router<BFFRequestContext>) {
        router.post(RouterPath(APIPath.authToken)) { request, context in
            try await self.token(request, context: context)
        }
    }

    private func token(_ request: Request, context: BFFRequestContext) async throws -> Response {
        if let wait = limiter?.take(context.peerAddress) { throw APIFailure.tooManyRequests(retryAfter: wait) }
        let body = try await request.decodeJSON(TokenRequest.self, context: context)
        let store = self.store
        let user = try await NIOThreadPool.singleton.runIfActive {
            try store.authenticate(name: body.username, password: body.password)
        }
        guard let user else {
            context.logger.info("token refused", metadata: ["username": "\(body.username)"])
            throw APIFailure(status: .unauthorized, body: APIError(error: "wrong username or password"))
        }
        context.logger.info("token issued", metadata: ["user": "\(user.name)"])
        return try .json(TokenResponse(token: try await issuer.issue(for: user)))
    }
}
