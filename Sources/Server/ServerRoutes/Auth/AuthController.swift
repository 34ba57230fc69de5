import Hummingbird
import NIOPosix
import ServerAPI
import ServerHTTP
import ServerStore

/// `POST /api/auth/token`: a username and password in, a signed bearer token out.
///
/// Password checks are slow on purpose (bcrypt), so they run on NIO's blocking thread pool, never on
/// the threads that serve other requests. Each address may try only a few times a minute, and each
/// user name may fail only 5 times a minute (`LoginThrottle` has the rule, and how the real user
/// keeps logging in from their usual address meanwhile). Both limits are off with `RateLimits.off`.
package struct AuthController {
    let issuer: TokenIssuer
    let store: BFFStore
    let limiter: TokenBucketLimiter?
    let throttle: LoginThrottle?
    /// False on a server that signs in through single sign-on only (`serve --no-passwords`).
    let passwords: Bool

    package init(issuer: TokenIssuer, store: BFFStore, limits: RateLimits, passwords: Bool = true) {
        self.issuer = issuer
        self.store = store
        self.passwords = passwords
        let perMinute = limits.share(limits.tokenRequestsPerMinute)
        limiter = limits.isOff || perMinute == 0 ? nil : TokenBucketLimiter(rate: perMinute / 60, burst: perMinute)
        throttle = limits.isOff ? nil : LoginThrottle()
    }

    package func addRoutes(to router: Router<BFFRequestContext>) {
        router.post(RouterPath(APIPath.authToken)) { request, context in
            try await self.token(request, context: context)
        }
    }

    private func token(_ request: Request, context: BFFRequestContext) async throws -> Response {
        guard passwords else {
            throw APIFailure(status: .forbidden, body: APIError(
                error: "this server signs in through single sign-on only: log in with `termcanvas login URL --sso`"))
        }
        if let wait = limiter?.take(context.clientAddress) { throw APIFailure.tooManyRequests(retryAfter: wait) }
        let body = try await request.decodeJSON(TokenRequest.self, context: context)
        try TextValidation.check(body.username, field: "username", lines: .single, length: 0...BFFUser.nameMaxLength)
        try TextValidation.check(body.password, field: "password", lines: .multiple, length: 0...Passwords.maxLength)
        let loggedName = body.username
        var counted = false
        switch throttle?.admit(user: body.username, address: context.clientAddress) {
        case .refuse(let wait):
            context.logger.info("token throttled", metadata: ["username": "\(loggedName)"])
            throw APIFailure.tooManyRequests(retryAfter: wait)
        case .check(let taken): counted = taken
        case nil: break
        }
        let user = try await store.authenticate(name: body.username, password: body.password)
        guard let user else {
            context.logger.info("token refused", metadata: ["username": "\(loggedName)"])
            try await store.auditRefusedLogin(method: "password", address: context.clientAddress, reason: "wrong username or password")
            throw APIFailure(status: .unauthorized, body: APIError(error: "wrong username or password"))
        }
        throttle?.succeeded(user: body.username, address: context.clientAddress, counted: counted)
        context.logger.info("token issued", metadata: ["user": "\(user.name)"])
        let now = issuer.now
        let session = try await store.startSession(for: user, method: .password, address: context.clientAddress, client: SessionClient.name(of: request),
                                                   expires: now.addingTimeInterval(issuer.lifetime), now: now)
        return try .json(TokenResponse(token: try await issuer.issue(for: user, session: session, now: now)))
    }
}
