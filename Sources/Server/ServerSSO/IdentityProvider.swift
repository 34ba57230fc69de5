import AsyncHTTPClient
import Foundation
import JWTKit
import Logging
import NIOCore
import NIOHTTP1

/// The server's side of an OpenID Connect provider: its discovery document and keys, ID tokens
/// checked, access tokens taken to its userinfo endpoint, device logins started and polled, and
/// refresh tokens redeemed at renewals. Every answer is bounded (`maxAnswerBytes`) and timed out;
/// no redirect is followed.
package final class IdentityProvider: Sendable {
    package let settings: SingleSignOnSettings
    private let client: HTTPClient
    private let logger: Logger
    private let discovery: Discovery
    private let keys: ProviderKeys

    static let maxAnswerBytes = 1 << 20
    static let timeout = TimeAmount.seconds(10)

    package init(settings: SingleSignOnSettings, logger: Logger) {
        self.settings = settings
        self.logger = logger
        var configuration = HTTPClient.Configuration(redirectConfiguration: .disallow, timeout: .init(connect: .seconds(5), read: Self.timeout))
        configuration.httpVersion = .http1Only
        let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
        self.client = client
        let discovery = Discovery(issuer: settings.issuer) { url in try await Self.get(url, client: client, logger: logger) }
        self.discovery = discovery
        keys = ProviderKeys(refetchInterval: settings.keyRefetchInterval) {
            let document = try await discovery.document()
            return try JSONDecoder().decode(JWKS.self, from: try await Self.get(document.jwksURI, client: client, logger: logger))
        }
    }

    /// AsyncHTTPClient requires its client shut down before it goes.
    deinit {
        _ = client.shutdown()
    }

    /// Why the settings cannot work, checked at `serve`'s start: the issuer's address, and the
    /// device endpoint's, which keeps the issuer's rule (https, or http on loopback).
    package static func problem(with settings: SingleSignOnSettings) -> String? {
        guard let url = URL(string: settings.issuer) else { return "--oidc-issuer \(settings.issuer) is not a URL" }
        if let problem = ProviderAddress.problem(url) { return "--oidc-issuer: \(problem)" }
        return settings.deviceAuthorizationEndpoint.flatMap(ProviderAddress.problem).map { "--oidc-device-endpoint: \($0)" }
    }

    /// The identity an ID token vouches for, once every check passed.
    package func identity(ofIDToken token: String, now: Date = Date()) async throws(SignInRefusal) -> Identity {
        let document = try await document()
        let verifier = IDTokenVerifier(issuer: settings.issuer, clientID: settings.clientID, groupsClaim: settings.groupsClaim,
                                       skew: settings.clockSkew, algorithms: document.algorithms, keys: keys)
        return try await verifier.identity(of: token, now: now)
    }

    /// What makes an ID token this sign-in and no other, for "signs in once": what the provider
    /// signed, whatever the spelling of its signature.
    package static func signInKey(ofIDToken token: String) -> String {
        String(IDTokenVerifier.signedPart(of: token))
    }

    /// The identity the provider's userinfo endpoint gives for an access token this server got
    /// from the provider itself (an access token from elsewhere may have been issued to another client).
    func identity(ofAccessToken token: String) async throws(SignInRefusal) -> Identity {
        guard token.utf8.count <= IDTokenVerifier.maxTokenBytes, !token.isEmpty, token.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw .malformedToken
        }
        guard let endpoint = try await document().userinfoEndpoint else {
            throw .providerUnavailable("it has no userinfo endpoint, so it must give an ID token")
        }
        var request = HTTPClientRequest(url: endpoint.absoluteString)
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        request.headers.add(name: "Accept", value: "application/json")
        let (status, body) = try await call(request)
        guard status != .unauthorized, status != .forbidden else { throw .providerRefused }
        guard status == .ok else { throw .providerUnavailable("its userinfo endpoint answered \(status.code)") }
        return try Claims.decode(body, groupsClaim: settings.groupsClaim).userIdentity(issuer: settings.issuer)
    }

    /// Starts a device login (RFC 8628 §3.1).
    package func startDeviceLogin() async throws(SignInRefusal) -> DeviceAuthorization {
        let document = try await document()
        guard let endpoint = settings.deviceAuthorizationEndpoint ?? document.deviceAuthorizationEndpoint else {
            throw .providerUnavailable("its discovery document names no device authorization endpoint: give it with --oidc-device-endpoint")
        }
        let (status, body) = try await post(endpoint, form: ["scope": settings.scopes.joined(separator: " ")])
        guard status == .ok, let answer = try? JSONDecoder().decode(DeviceAuthorization.self, from: body) else {
            throw .providerUnavailable("its device authorization endpoint answered \(status.code)\(Self.errorCode(body))")
        }
        return answer
    }

    /// Asks the token endpoint about a device login (RFC 8628 §3.4) and, once the user approved,
    /// who signed in.
    package func pollDeviceLogin(deviceCode: String, now: Date = Date()) async throws(SignInRefusal) -> DeviceLoginState {
        let (status, body) = try await post(try await document().tokenEndpoint,
                                            form: ["grant_type": "urn:ietf:params:oauth:grant-type:device_code", "device_code": deviceCode])
        if status == .ok { return .signedIn(try await signedIn(body, now: now)) }
        switch (try? JSONDecoder().decode(ProviderError.self, from: body))?.error {
        case "authorization_pending": return .pending
        case "slow_down": return .slowDown
        case "access_denied": return .denied
        case "expired_token": return .expired
        default: throw .providerUnavailable("its token endpoint answered \(status.code)\(Self.errorCode(body))")
        }
    }

    /// Redeems a refresh token: who is signed in now, or `.providerRefused` when the provider no
    /// longer says yes.
    package func renew(refreshToken: String, now: Date = Date()) async throws(SignInRefusal) -> SignedIn {
        let (status, body) = try await post(try await document().tokenEndpoint, form: ["grant_type": "refresh_token", "refresh_token": refreshToken])
        if status == .ok { return try await signedIn(body, now: now) }
        let error = (try? JSONDecoder().decode(ProviderError.self, from: body))?.error
        if status == .badRequest || status == .unauthorized, error == "invalid_grant" || error == "invalid_token" { throw .providerRefused }
        throw .providerUnavailable("its token endpoint answered \(status.code)\(Self.errorCode(body))")
    }

    /// Who a token answer vouches for: its ID token when it has one, else its access token at
    /// the userinfo endpoint.
    private func signedIn(_ body: Data, now: Date) async throws(SignInRefusal) -> SignedIn {
        guard let tokens = try? JSONDecoder().decode(ProviderTokens.self, from: body) else {
            throw .providerUnavailable("its token endpoint's answer is not a token response")
        }
        let identity = if let idToken = tokens.idToken {
            try await identity(ofIDToken: idToken, now: now)
        } else {
            try await identity(ofAccessToken: tokens.accessToken)
        }
        let expiry = tokens.expiresIn.flatMap { $0.isFinite && $0 > 0 && $0 < 1e9 ? now.timeIntervalSince1970 + $0 : nil }
        return SignedIn(identity: identity, refreshToken: tokens.refreshToken, accessTokenExpiry: expiry)
    }

    private func document() async throws(SignInRefusal) -> ProviderDocument {
        try await discovery.document()
    }

    private func post(_ url: URL, form: [String: String]) async throws(SignInRefusal) -> (HTTPResponseStatus, Data) {
        var fields = form
        fields["client_id"] = settings.clientID
        if let secret = settings.clientSecret { fields["client_secret"] = secret }
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        request.headers.add(name: "Accept", value: "application/json")
        request.body = .bytes(ByteBuffer(string: Self.formEncoded(fields)))
        return try await call(request)
    }

    private func call(_ request: HTTPClientRequest) async throws(SignInRefusal) -> (HTTPResponseStatus, Data) {
        try await Self.call(request, client: client, logger: logger)
    }

    /// One request, its answer bounded and timed out; no answer is `.providerUnavailable`.
    private static func call(_ request: HTTPClientRequest, client: HTTPClient, logger: Logger) async throws(SignInRefusal)
        -> (HTTPResponseStatus, Data) {
        do {
            let response = try await client.execute(request, timeout: timeout, logger: logger)
            return (response.status, Data(try await response.body.collect(upTo: maxAnswerBytes).readableBytesView))
        } catch {
            logger.warning("identity provider unreachable", metadata: ["url": "\(request.url)", "error": "\(error)"])
            throw .providerUnavailable("no answer from \(request.url)")
        }
    }

    /// A JSON document the provider publishes (its discovery document, its keys).
    static func get(_ url: URL, client: HTTPClient, logger: Logger) async throws -> Data {
        var request = HTTPClientRequest(url: url.absoluteString)
        request.headers.add(name: "Accept", value: "application/json")
        let (status, body) = try await call(request, client: client, logger: logger)
        guard status == .ok else { throw SignInRefusal.providerUnavailable("\(url.absoluteString) answered \(status.code)") }
        return body
    }

    /// `application/x-www-form-urlencoded`, sorted.
    static func formEncoded(_ fields: [String: String]) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return fields.sorted { $0.key < $1.key }.map { key, value in
            "\(key)=\(value.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")"
        }.joined(separator: "&")
    }

    /// `: CODE` for a provider's OAuth error code, when it is a plain one (never its free text).
    private static func errorCode(_ body: Data) -> String {
        guard let code = (try? JSONDecoder().decode(ProviderError.self, from: body))?.error, code.utf8.count <= 64,
              code.utf8.allSatisfy({ ($0 >= 0x61 && $0 <= 0x7A) || $0 == 0x5F })
        else { return "" }
        return ": \(code)"
    }
}

/// The discovery document, fetched on first need and kept; sign-ins that need it while it is
/// fetched wait for that fetch. A failed fetch is tried again at the next need, at most every few
/// seconds.
private actor Discovery {
    let issuer: String
    let fetch: @Sendable (URL) async throws -> Data
    private var found: ProviderDocument?
    private var fetching: Task<Result<ProviderDocument, SignInRefusal>, Never>?
    private var failed: (at: ContinuousClock.Instant, error: SignInRefusal)?

    init(issuer: String, fetch: @escaping @Sendable (URL) async throws -> Data) {
        self.issuer = issuer
        self.fetch = fetch
    }

    func document() async throws(SignInRefusal) -> ProviderDocument {
        if let found { return found }
        if let failed, failed.at.duration(to: .now) < .seconds(5) { throw failed.error }
        let task = fetching ?? Task { await load() }
        fetching = task
        let result = await task.value
        fetching = nil
        switch result {
        case .success(let document):
            found = document
            return document
        case .failure(let refusal):
            failed = (.now, refusal)
            throw refusal
        }
    }

    private func load() async -> Result<ProviderDocument, SignInRefusal> {
        let trimmed = issuer.hasSuffix("/") ? String(issuer.dropLast()) : issuer
        do {
            guard let url = URL(string: trimmed + "/.well-known/openid-configuration") else { return .failure(.unknownIssuer) }
            let document = try JSONDecoder().decode(ProviderDocument.self, from: try await fetch(url))
            if let problem = document.problem(for: issuer) { return .failure(.providerUnavailable(problem)) }
            return .success(document)
        } catch {
            return .failure(error as? SignInRefusal ?? .providerUnavailable("its discovery document could not be read"))
        }
    }
}
