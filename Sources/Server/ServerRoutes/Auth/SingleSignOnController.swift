import AppPackages
import Crypto
import Foundation
import Hummingbird
import ServerAPI
import ServerHTTP
import ServerSSO
import ServerStore

/// Single sign-on through an OpenID Connect provider (`serve --oidc-issuer …`):
/// - `GET /api/auth/sso` says which provider;
/// - `POST /api/auth/sso/device` starts a device login (RFC 8628) at the provider, keeping its
///   device code here: the client gets a login handle, the user code and where to enter it;
/// - `POST /api/auth/sso` finishes one: with the handle (the server polls the provider, once per
///   interval whoever asks, and redeems the device code once), an ID token issued to its client, or
///   a renewal handle from an earlier sign-in (the server redeems the provider's refresh token: a
///   user the provider no longer signs in is refused);
/// - `POST /api/auth/sso/logout` ends a renewable session.
///
/// The server's token then lives `sessionLifetime`, or less when the provider's access token
/// does. Handles and tokens are kept only as SHA-256 hashes, besides the provider's refresh token.
/// Every login and every refusal, with why, goes to the audit log.
package struct SingleSignOnController {
    let provider: IdentityProvider
    let issuer: TokenIssuer
    let store: BFFStore
    let limiter: TokenBucketLimiter?

    static let method = "single sign-on"
    /// Bytes of a handle, a token or a provider's value the server takes.
    static let maxHandleBytes = 64
    static let maxProviderValueBytes = 4096

    package init(provider: IdentityProvider, issuer: TokenIssuer, store: BFFStore, limits: RateLimits) {
        self.provider = provider
        self.issuer = issuer
        self.store = store
        let perMinute = limits.share(limits.tokenRequestsPerMinute)
        limiter = limits.isOff || perMinute == 0 ? nil : TokenBucketLimiter(rate: perMinute / 60, burst: perMinute)
    }

    package func addRoutes(to router: Router<BFFRequestContext>) {
        router.get(RouterPath(APIPath.authSSO)) { _, _ in
            try Response.json(SingleSignOnInfo(issuer: provider.settings.issuer, passwords: provider.settings.passwords))
        }
        router.post(RouterPath(APIPath.authSSODevice)) { _, context in try await startDeviceLogin(context: context) }
        router.post(RouterPath(APIPath.authSSO)) { request, context in try await signIn(request, context: context) }
        router.post(RouterPath(APIPath.authSSOLogout)) { request, context in
            let body = try await request.decodeJSON(SingleSignOnLogout.self, context: context)
            // The handle is the proof: its session ends with it.
            if let renewal = try await store.takeRenewal(renewalHash: Self.hash(try Self.handle(body.renewal, field: "renewal"))),
               let session = renewal.sessionID, let user = try await store.user(id: renewal.userID) {
                _ = try await store.endSessions(of: user, .one(session), by: user.name)
            }
            return Response(status: .noContent)
        }
    }

    private func startDeviceLogin(context: BFFRequestContext) async throws -> Response {
        try takeTurn(context)
        try await Self.quota { try await store.checkDeviceLoginRoom(address: context.clientAddress, now: issuer.now.timeIntervalSince1970) }
        let started = try await refusing(context) { try await provider.startDeviceLogin() }
        guard Self.isPrintable(started.deviceCode, upTo: Self.maxProviderValueBytes), Self.isPrintable(started.userCode, upTo: 64),
              Self.isWebAddress(started.verificationURI), started.verificationURIComplete.map(Self.isWebAddress) ?? true
        else { throw Self.providerFailure("its device authorization answer is not one") }
        let now = issuer.now.timeIntervalSince1970
        let expiresIn = Int(min(max(started.expiresIn.isFinite ? started.expiresIn : 0, 30), 3600))
        let interval = Int(min(max(started.interval.flatMap { $0.isFinite ? $0 : nil } ?? 5, 1), 60))
        let login = Self.newHandle()
        try await Self.quota {
            try await store.addDeviceLogin(loginHash: Self.hash(login), deviceCode: started.deviceCode, address: context.clientAddress,
                                           expiresAt: now + Double(expiresIn), interval: Double(interval), now: now)
        }
        return try .json(DeviceLogin(login: login, userCode: started.userCode, verificationURI: started.verificationURI,
                                     verificationURIComplete: started.verificationURIComplete, expiresIn: expiresIn, interval: interval))
    }

    /// `body`, its quota refusal said as 429.
    private static func quota(_ body: () async throws -> Void) async throws {
        do {
            try await body()
        } catch BFFStoreError.quotaReached(let what, let limit) {
            throw APIFailure(status: .tooManyRequests, body: APIError(error: "at most \(limit) \(what): finish or let one expire first"))
        }
    }

    private func signIn(_ request: Request, context: BFFRequestContext) async throws -> Response {
        let body = try await request.decodeJSON(SingleSignOnRequest.self, context: context)
        let given = [body.login, body.idToken, body.renewal].compactMap { $0 }
        guard given.count == 1 else {
            throw APIFailure.badRequest("give exactly one of login, idToken and renewal", field: nil)
        }
        let now = issuer.now
        let client = SessionClient.name(of: request)
        if let login = body.login {
            return try await finishDeviceLogin(try Self.handle(login, field: "login"), now: now, client: client, context: context)
        }
        // Not a renewal: a handle cannot be guessed, and a team's dashboards behind one address
        // renew every few minutes each.
        if let renewal = body.renewal { return try await renew(try Self.handle(renewal, field: "renewal"), now: now, context: context) }
        try takeTurn(context)
        let token = body.idToken ?? ""
        let signedIn = try await refusing(context) {
            let identity = try await provider.identity(ofIDToken: token, now: now)
            // A token signs in once: one seen in a log or on the way is no way in, however spelled.
            let signIn = Self.hash(IdentityProvider.signInKey(ofIDToken: token))
            guard try await store.spendToken(hash: signIn, expiresAt: now.timeIntervalSince1970 + 86_400, now: now.timeIntervalSince1970)
            else { throw SignInRefusal.replayed }
            return SignedIn(identity: identity, refreshToken: nil, accessTokenExpiry: nil)
        }
        return try await welcome(signedIn, now: now, client: client, context: context)
    }

    private func finishDeviceLogin(_ login: String, now: Date, client: String?, context: BFFRequestContext) async throws -> Response {
        let hash = Self.hash(login)
        switch try await store.pollDeviceLogin(loginHash: hash, now: now.timeIntervalSince1970) {
        case .unknown:
            try takeTurn(context)
            throw APIFailure(status: .notFound, body: APIError(error: "no such sign-in is under way: start again with `termcanvas login URL --sso`",
                                                               field: "login"))
        case .redeemed:
            try takeTurn(context)
            try await refuse(.replayed, context: context)
        case .expired:
            throw Self.expired
        case .tooSoon(let interval):
            return try .json(DeviceLoginWait(status: "slow_down", interval: Int(interval)), status: .accepted)
        case .ask(let deviceCode, let interval):
            let state = try await refusing(context) { try await provider.pollDeviceLogin(deviceCode: deviceCode, now: now) }
            switch state {
            case .pending:
                return try .json(DeviceLoginWait(status: "authorization_pending", interval: Int(interval)), status: .accepted)
            case .slowDown:
                try await store.slowDeviceLogin(loginHash: hash)
                return try .json(DeviceLoginWait(status: "slow_down", interval: Int(interval) + 5), status: .accepted)
            case .denied:
                try await store.endDeviceLogin(loginHash: hash)
                throw APIFailure(status: .forbidden, body: APIError(error: "the sign-in was declined at the identity provider"))
            case .expired:
                try await store.endDeviceLogin(loginHash: hash)
                throw Self.expired
            case .signedIn(let signedIn):
                guard try await store.redeemDeviceLogin(loginHash: hash) else { try await refuse(.replayed, context: context) }
                return try await welcome(signedIn, now: now, client: client, context: context)
            }
        }
    }

    /// The session is taken (a handle renews once); when the provider cannot be asked, it is put
    /// back, so the dashboard's next try works once the provider answers again.
    private func renew(_ renewal: String, now: Date, context: BFFRequestContext) async throws -> Response {
        let hash = Self.hash(renewal)
        guard let kept = try await store.takeRenewal(renewalHash: hash) else { throw Self.ended }
        let signedIn: SignedIn
        do {
            let renewed = try await provider.renew(refreshToken: kept.refreshToken, now: now)
            guard renewed.identity.issuer == kept.issuer, renewed.identity.subject == kept.subject else { throw SignInRefusal.providerRefused }
            // A provider that rotates nothing keeps the same refresh token good.
            signedIn = SignedIn(identity: renewed.identity, refreshToken: renewed.refreshToken ?? kept.refreshToken,
                                accessTokenExpiry: renewed.accessTokenExpiry)
        } catch let refusal as SignInRefusal {
            if case .providerUnavailable = refusal {
                try await store.addRenewal(renewalHash: hash, sessionID: kept.sessionID, userID: kept.userID, refreshToken: kept.refreshToken,
                                           now: now.timeIntervalSince1970)
            }
            try await refuse(refusal, context: context, user: kept.userID)
        }
        return try await welcome(signedIn, now: now, client: nil, context: context, renewing: kept.sessionID)
    }

    private static let ended = APIFailure(status: .unauthorized, body: APIError(error: "this sign-in has ended: log in again with `termcanvas login URL --sso`"))

    /// The user the provider vouched for, made or updated, with the server's token and a renewal:
    /// of a new session (its machine named `client`), or of the session `renewing` when it has not ended.
    private func welcome(_ signedIn: SignedIn, now: Date, client: String?, context: BFFRequestContext,
                         renewing: String? = nil) async throws -> Response {
        let settings = provider.settings
        let identity = signedIn.identity
        if let group = settings.userGroup, !identity.groups.contains(group) { try await refuse(.notInGroup(group), context: context) }
        let found = try await store.singleSignOnUser(issuer: identity.issuer, subject: identity.subject,
                                                     names: [identity.preferredUsername, identity.email].compactMap { $0 },
                                                     groups: identity.groups, adminGroup: settings.adminGroup)
        let untilProviderExpiry = signedIn.accessTokenExpiry.map { $0 - now.timeIntervalSince1970 } ?? settings.sessionLifetime
        let lifetime = max(5, min(settings.sessionLifetime, untilProviderExpiry))
        let expires = now.addingTimeInterval(lifetime)
        let session: String
        if let renewing {
            guard try await store.renewSession(renewing, of: found.user.id, expires: expires, now: now) else { throw Self.ended }
            session = renewing
        } else {
            session = try await store.startSession(for: found.user, method: .singleSignOn, address: context.clientAddress,
                                                   client: client, expires: expires, now: now)
            context.logger.info("signed in", metadata: ["user": "\(found.user.name)", "method": "sso", "created": "\(found.created)"])
        }
        let token = try await issuer.issue(for: found.user, session: session, lifetime: lifetime, now: now)
        var renewal: String?
        if let refreshToken = signedIn.refreshToken {
            let handle = Self.newHandle()
            try await store.addRenewal(renewalHash: Self.hash(handle), sessionID: session, userID: found.user.id, refreshToken: refreshToken,
                                       now: now.timeIntervalSince1970)
            renewal = handle
        }
        return try .json(SingleSignOnLogin(token: token, expiresIn: Int(lifetime), renewal: renewal, user: found.user.name,
                                           admin: found.user.isAdmin, nameTaken: found.nameTaken))
    }

    /// Runs `body`; a refusal is audited and answered 401, a provider that cannot be asked 502.
    private func refusing<T>(_ context: BFFRequestContext, _ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let refusal as SignInRefusal {
            try await refuse(refusal, context: context)
        }
    }

    /// Audits and answers a refusal: by `user` when the server knows whose sign-in it was (a
    /// renewal), else by `(someone)`.
    private func refuse(_ refusal: SignInRefusal, context: BFFRequestContext, user: Int64? = nil) async throws -> Never {
        if case .providerUnavailable(let why) = refusal {
            context.logger.warning("identity provider unavailable", metadata: ["why": "\(why)"])
            throw Self.providerFailure(why)
        }
        try await store.auditRefusedLogin(method: Self.method, address: context.clientAddress, reason: refusal.reason, userID: user)
        context.logger.info("sign-in refused", metadata: ["why": "\(refusal.reason)"])
        let status: HTTPResponse.Status = refusal == .replayed ? .conflict : .unauthorized
        throw APIFailure(status: status, body: APIError(error: "the sign-in was refused: \(refusal.reason)"))
    }

    private func takeTurn(_ context: BFFRequestContext) throws {
        if let wait = limiter?.take(context.clientAddress) { throw APIFailure.tooManyRequests(retryAfter: wait) }
    }

    private static let expired = APIFailure(status: .gone, body: APIError(
        error: "the code expired before the sign-in was approved: start again with `termcanvas login URL --sso`"))

    private static func providerFailure(_ why: String) -> APIFailure {
        APIFailure(status: .badGateway, body: APIError(
            error: "the identity provider could not be asked (\(why)); try again, or tell the server's operator"))
    }

    private static func handle(_ value: String, field: String) throws -> String {
        guard isPrintable(value, upTo: maxHandleBytes) else { throw APIFailure.badRequest("is not a handle this server gave", field: field) }
        return value
    }

    /// 32 random bytes, base64url.
    private static func newHandle() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    private static func hash(_ value: String) -> String {
        Base16.encode(SHA256.hash(data: Data(value.utf8)))
    }

    private static func isPrintable(_ value: String, upTo bytes: Int) -> Bool {
        !value.isEmpty && value.utf8.count <= bytes && value.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F }
    }

    private static func isWebAddress(_ value: String) -> Bool {
        isPrintable(value, upTo: 2048) && (value.hasPrefix("https://") || value.hasPrefix("http://")) && !value.contains(" ")
    }
}
