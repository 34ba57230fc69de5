import BFF
import BFFTesting
import Foundation
import HummingbirdTesting
import JWTKit
import ServerAPI
import ServerSSO
import ServerStore
import Testing
import TestSupport

/// Single sign-on against a real OpenID Connect provider (Django OAuth Toolkit, started here):
/// device logins through its pages, renewals, groups, and every attack on an ID token refused.
@Suite("Single sign-on")
struct SingleSignOnTests {
    static let people = ["alice:pw-alice:admins", "bob:pw-bob"]

    static func settings(_ provider: TestIdentityProvider, client: String = "tc-device", passwords: Bool = true) -> SingleSignOnSettings {
        SingleSignOnSettings(issuer: provider.issuer, clientID: client, adminGroup: "admins",
                             scopes: ["openid", "profile", "email", "groups", "offline_access"],
                             deviceAuthorizationEndpoint: URL(string: provider.deviceEndpoint), sessionLifetime: 600, passwords: passwords)
    }

    /// Runs `body` against a server that signs in through `provider`.
    static func withServer<T: Sendable>(_ provider: TestIdentityProvider, harness: BFFHarness, settings: SingleSignOnSettings? = nil,
                                        clock: (@Sendable () -> Date)? = nil,
                                        _ body: @Sendable (any TestClientProtocol) async throws -> T) async throws -> T {
        var configuration = harness.configuration()
        configuration.singleSignOn = settings ?? Self.settings(provider)
        if let clock { configuration.clock = clock }
        return try await harness.withServer(configuration: configuration, body)
    }

    @Test("a device login: pending until the user approves at the provider's page, then a token; the login signs in once; a renewal asks the provider, which decides admin rights, and ends a disabled user; with the provider away, the session waits")
    func deviceLogin() async throws {
        // Polls every 3 seconds: the second poll below comes well within one, however busy the machine.
        let provider = try await TestIdentityProvider.start(people: Self.people, environment: ["TC_OIDC_INTERVAL": "3"])
        defer { provider.stop() }
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addAdmins("root")
        try await Self.withServer(provider, harness: harness) { client in
            let started = try await client.send(.post, APIPath.authSSODevice, rawBody: nil)
            #expect(started.status == .ok)
            let device = try started.decode(DeviceLogin.self)
            #expect(device.verificationURI == provider.base + "/o/device/")
            #expect(device.interval == 3)
            let pending = try await client.send(.post, APIPath.authSSO, json: SingleSignOnRequest(login: device.login))
            #expect(pending.status == .accepted)
            #expect(try pending.decode(DeviceLoginWait.self).status == "authorization_pending")
            // Asked again at once: the server asks the provider at most once an interval.
            let early = try await client.send(.post, APIPath.authSSO, json: SingleSignOnRequest(login: device.login))
            #expect(try early.decode(DeviceLoginWait.self).status == "slow_down")

            #expect(provider.requests(to: "/o/token/") == 1, "asked once within the interval")
            try await provider.approve(user: "alice", password: "pw-alice", code: device.userCode)
            try await Task.sleep(for: .seconds(3.1))
            let done = try await client.send(.post, APIPath.authSSO, json: SingleSignOnRequest(login: device.login))
            #expect(done.status == .ok, "\(String(buffer: done.body))")
            let login = try done.decode(SingleSignOnLogin.self)
            #expect(login.user == "alice")
            #expect(login.admin)
            #expect(login.expiresIn <= 600)
            #expect(try await client.send(.get, APIPath.todoItems, token: login.token).status == .ok)

            // The same login again: a device code signs in once.
            let replay = try await client.send(.post, APIPath.authSSO, json: SingleSignOnRequest(login: device.login))
            #expect(replay.status == .conflict)
            #expect(replay.apiError?.error == "the sign-in was refused: this sign-in was used already")

            // Out of the admin group at the provider: no longer an admin at the renewal.
            try await provider.setGroups("alice", [])
            let firstRenewal: String = try #require(login.renewal)
            let renewed = try await client.send(.post, APIPath.authSSO, json: SingleSignOnRequest(renewal: firstRenewal))
            #expect(renewed.status == .ok)
            let second = try renewed.decode(SingleSignOnLogin.self)
            #expect(second.user == "alice" && !second.admin)
            // A renewal handle is used once.
            let again = try await client.send(.post, APIPath.authSSO, json: SingleSignOnRequest(renewal: firstRenewal))
            #expect(again.status == .unauthorized)

            // The provider away: the renewal says so (502) and keeps the session for the next try.
            provider.takeDown()
            let secondRenewal: String = try #require(second.renewal)
            let away = try await client.send(.post, APIPath.authSSO, json: SingleSignOnRequest(renewal: secondRenewal))
            #expect(away.status == .badGateway)
            #expect(away.apiError?.error.hasPrefix("the identity provider could not be asked") == true)
            try await provider.serveAgain()
            let back = try await client.send(.post, APIPath.authSSO, json: SingleSignOnRequest(renewal: secondRenewal))
            #expect(back.status == .ok, "\(String(buffer: back.body))")
            let third = try back.decode(SingleSignOnLogin.self)

            // Disabled at the provider: the next renewal is refused.
            try await provider.disable("alice")
            let thirdRenewal: String = try #require(third.renewal)
            let refused = try await client.send(.post, APIPath.authSSO, json: SingleSignOnRequest(renewal: thirdRenewal))
            #expect(refused.status == .unauthorized)
            #expect(refused.apiError?.error == "the sign-in was refused: the identity provider no longer signs this user in")

            let admin = try await client.token(for: "root")
            let audit = try await client.send(.get, APIPath.audit, token: admin).decode(Page<AuditEntry>.self).items
            let actions = audit.map(\.action)
            #expect(actions.contains(.userCreated))
            #expect(actions.contains(.adminRevoked))
            #expect(audit.contains { $0.action == .userLoggedIn && $0.actor == "alice" && $0.detail.hasPrefix("by single sign-on from ") })
            #expect(audit.contains { $0.action == .loginRefused && $0.detail.hasSuffix("this sign-in was used already") })
            // A refused renewal names whose session it was; a replayed login is nobody's yet.
            #expect(audit.contains { $0.action == .loginRefused && $0.actor == "alice" && $0.detail.hasSuffix("the identity provider no longer signs this user in") })
            #expect(audit.contains { $0.action == .loginRefused && $0.actor == AuditActor.someone && $0.detail.hasSuffix("this sign-in was used already") })
        }
    }

    @Test("a sign-in whose token ran out overnight is renewed by its handle, listed meanwhile, as a dashboard started the next morning renews it; one ended is not")
    func renewedAfterItsTokenRanOut() async throws {
        let provider = try await TestIdentityProvider.start(people: Self.people, environment: ["TC_OIDC_INTERVAL": "1"])
        defer { provider.stop() }
        let harness = try await BFFHarness()
        defer { harness.remove() }
        var settings = Self.settings(provider)
        settings.sessionLifetime = 5
        try await Self.withServer(provider, harness: harness, settings: settings) { client in
            let first = try await Self.deviceLogIn("alice", client: client, provider: provider)
            let second = try await Self.deviceLogIn("alice", client: client, provider: provider)
            // Later (the next morning, as far as a token of five seconds knows): both tokens ran
            // out; their sessions, renewable, are still there.
            try await eventually("the first token ran out", within: .seconds(10), every: .milliseconds(100)) {
                try await client.send(.get, APIPath.todoItems, token: second.token).status == .unauthorized
            }
            let firstRenewal: String = try #require(first.renewal)
            let renewed = try await client.send(.post, APIPath.authSSO, json: SingleSignOnRequest(renewal: firstRenewal))
            #expect(renewed.status == .ok, "\(String(buffer: renewed.body))")
            let token = try renewed.decode(SingleSignOnLogin.self).token
            let listed = try await client.send(.get, APIPath.authSessions, token: token).decode([SessionInfo].self)
            #expect(listed.count == 2, "the other sign-in, renewable, is listed to be ended: \(listed)")
            // Ended by its user: its handle renews nothing.
            #expect(try await client.send(.delete, APIPath.authSessions, token: token).status == .ok)
            let secondRenewal: String = try #require(second.renewal)
            let ended = try await client.send(.post, APIPath.authSSO, json: SingleSignOnRequest(renewal: secondRenewal))
            #expect(ended.status == .unauthorized)
        }
    }

    /// A device login of `user`, approved at the provider.
    static func deviceLogIn(_ user: String, client: some TestClientProtocol, provider: TestIdentityProvider) async throws -> SingleSignOnLogin {
        let device = try await client.send(.post, APIPath.authSSODevice, rawBody: nil).decode(DeviceLogin.self)
        try await provider.approve(user: user, password: "pw-\(user)", code: device.userCode)
        var answer = try await client.send(.post, APIPath.authSSO, json: SingleSignOnRequest(login: device.login))
        while answer.status == .accepted {
            try await Task.sleep(for: .seconds(1.1))
            answer = try await client.send(.post, APIPath.authSSO, json: SingleSignOnRequest(login: device.login))
        }
        return try answer.decode(SingleSignOnLogin.self)
    }
}

/// Every attack on an ID token, each refused with its reason in the audit log; the real token
/// beside them signs in once.
@Suite("Single sign-on: attacks")
struct SingleSignOnAttackTests {
    /// Claims as the provider writes them, for tokens signed here.
    struct Forged: JWTPayload {
        var iss: String
        var sub = "2"
        var aud = "tc-web"
        var exp = Date().timeIntervalSince1970 + 300
        var iat = Date().timeIntervalSince1970
        var preferred_username = "bob"
        func verify(using algorithm: some JWTAlgorithm) async throws {}
    }

    static func segment(_ json: String) -> String {
        Data(json.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// The `kid` in a token's header.
    static func kid(of token: String) throws -> String {
        let header = try #require(token.split(separator: ".").first)
        var base64 = header.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        let bytes = try #require(Data(base64Encoded: base64))
        let json = try JSONSerialization.jsonObject(with: bytes) as? [String: Any]
        return try #require(json?["kid"] as? String)
    }

    /// A 2048-bit RSA key of nobody's.
    static func strangersKey() async throws -> Insecure.RSA.PrivateKey {
        let pem = try await Command.run(["openssl", "genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048"]).output
        return try Insecure.RSA.PrivateKey(pem: pem)
    }

    @Test("another key, alg none, HMAC with the provider's public key, the wrong audience, an expired token, another issuer, a replay, a user outside the group let in: each refused, and audited with why")
    func idTokenAttacks() async throws {
        let provider = try await TestIdentityProvider.start(people: SingleSignOnTests.people)
        defer { provider.stop() }
        // Another issuer signing with the very same key: only `iss` tells them apart.
        let elsewhere = try await TestIdentityProvider.start(people: SingleSignOnTests.people, signingLike: provider)
        defer { elsewhere.stop() }
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addAdmins("root")

        let real = try await provider.idToken(user: "bob", password: "pw-bob")
        let kid = try Self.kid(of: real)
        let stranger = JWTKeyCollection()
        await stranger.add(rsa: try await Self.strangersKey(), digestAlgorithm: .sha256)
        let otherKey = try await stranger.sign(Forged(iss: provider.issuer), kid: JWKIdentifier(string: kid))
        let claims = Self.segment(#"{"iss":"\#(provider.issuer)","sub":"2","aud":"tc-web","exp":\#(Int(Date().timeIntervalSince1970) + 300),"iat":\#(Int(Date().timeIntervalSince1970))}"#)
        let none = Self.segment(#"{"alg":"none","kid":"\#(kid)"}"#) + "." + claims + "."
        let publicKey = JWTKeyCollection()
        await publicKey.add(hmac: HMACKey(from: try await provider.publicKeyPEM()), digestAlgorithm: .sha256)
        let hmac = try await publicKey.sign(Forged(iss: provider.issuer), kid: JWKIdentifier(string: kid))
        let wrongAudience = try await provider.idToken(user: "bob", password: "pw-bob", client: "tc-other")
        let otherIssuer = try await elsewhere.idToken(user: "bob", password: "pw-bob")
        let forExpiry = try await provider.idToken(user: "bob", password: "pw-bob")
        let notStaff = try await provider.idToken(user: "bob", password: "pw-bob")

        let settings = SingleSignOnTests.settings(provider, client: "tc-web")
        let attacks: [(String, String, String)] = [
            ("another key", otherKey, "the token's signature does not check out"),
            ("alg none", none, "the token is signed with none, which this server does not accept"),
            ("HMAC with the public key", hmac, "the token is signed with HS256, which this server does not accept"),
            ("the wrong audience", wrongAudience, "the token was issued to another client (wrong audience)"),
            ("another issuer", otherIssuer, "the token comes from another issuer"),
            ("not a JWT", "a.b.c", "the token is not a well-formed JWT"),
        ]
        try await SingleSignOnTests.withServer(provider, harness: harness, settings: settings) { client in
            for (attack, token, reason) in attacks {
                let response = try await client.send(.post, APIPath.authSSO, json: SingleSignOnRequest(idToken: token))
                #expect(response.status == .unauthorized, "\(attack)")
                #expect(response.apiError?.error == "the sign-in was refused: \(reason)", "\(attack)")
            }
            // An access token from outside is not taken (it names no audience to check): the request has no member the server reads.
            let access = try await client.send(.post, APIPath.authSSO, rawBody: #"{"accessToken": "anything"}"#)
            #expect(access.status == .badRequest)
            #expect(access.apiError?.error == "give exactly one of login, idToken and renewal")
            let good = try await client.send(.post, APIPath.authSSO, json: SingleSignOnRequest(idToken: real))
            #expect(good.status == .ok, "\(String(buffer: good.body))")
            #expect(try good.decode(SingleSignOnLogin.self).user == "bob")
            let replay = try await client.send(.post, APIPath.authSSO, json: SingleSignOnRequest(idToken: real))
            #expect(replay.status == .conflict)
            // The same token spelled otherwise (its signature padded, or its last character's unused
            // bits set: the same bytes) is no new sign-in.
            let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
            let last = try #require(real.last.flatMap { alphabet.firstIndex(of: $0) })
            for respelled in [real + "=", String(real.dropLast()) + String(alphabet[last ^ 1])] {
                let again = try await client.send(.post, APIPath.authSSO, json: SingleSignOnRequest(idToken: respelled))
                #expect(again.status != .ok, "\(respelled.suffix(4)): \(again.status)")
                #expect(again.apiError?.error == "the sign-in was refused: the token is not a well-formed JWT", "\(String(buffer: again.body))")
            }

            let admin = try await client.token(for: "root")
            let refusals = try await client.send(.get, APIPath.audit + "?limit=200", token: admin).decode(Page<AuditEntry>.self).items
                .filter { $0.action == .loginRefused }.map(\.detail)
            for (attack, _, reason) in attacks {
                #expect(refusals.contains { $0.hasPrefix("by single sign-on from ") && $0.hasSuffix(": " + reason) }, "\(attack)")
            }
        }
        // The server's clock a day on: the provider's real token has expired.
        try await SingleSignOnTests.withServer(provider, harness: harness, settings: settings, clock: { Date() + 86_400 }) { client in
            let expired = try await client.send(.post, APIPath.authSSO, json: SingleSignOnRequest(idToken: forExpiry))
            #expect(expired.apiError?.error == "the sign-in was refused: the token has expired")
        }
        // Only the staff group may sign in: bob, in none, may not.
        var staffOnly = settings
        staffOnly.userGroup = "staff"
        try await SingleSignOnTests.withServer(provider, harness: harness, settings: staffOnly) { client in
            let outsider = try await client.send(.post, APIPath.authSSO, json: SingleSignOnRequest(idToken: notStaff))
            #expect(outsider.apiError?.error == "the sign-in was refused: the user is not in the group staff, whose members alone may sign in here")
        }
    }

    @Test("device logins: only those under way count against an address; a start refused by that limit asks the provider nothing")
    func deviceLoginLimitCountsThoseUnderWay() async throws {
        let provider = try await TestIdentityProvider.start(people: SingleSignOnTests.people, environment: ["TC_OIDC_INTERVAL": "1"])
        defer { provider.stop() }
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await SingleSignOnTests.withServer(provider, harness: harness) { client in
            var logins: [DeviceLogin] = []
            for _ in 0..<BFFStore.deviceLoginsPerAddress {
                let started = try await client.send(.post, APIPath.authSSODevice, rawBody: nil)
                try #require(started.status == .ok, "\(String(buffer: started.body))")
                logins.append(try started.decode(DeviceLogin.self))
            }
            let asked = provider.requests(to: "/o/device-authorization/")
            let refused = try await client.send(.post, APIPath.authSSODevice, rawBody: nil)
            #expect(refused.status == .tooManyRequests)
            #expect(refused.apiError?.error == "at most 10 sign-ins under way from one address: finish or let one expire first")
            #expect(provider.requests(to: "/o/device-authorization/") == asked, "a refused start asked the provider")
            // One finished: it stays known (its replay is refused) but holds no place.
            try await provider.approve(user: "alice", password: "pw-alice", code: logins[0].userCode)
            try await Task.sleep(for: .seconds(1.1))
            let done = try await client.send(.post, APIPath.authSSO, json: SingleSignOnRequest(login: logins[0].login))
            #expect(done.status == .ok, "\(String(buffer: done.body))")
            let again = try await client.send(.post, APIPath.authSSODevice, rawBody: nil)
            #expect(again.status == .ok, "\(String(buffer: again.body))")
        }
    }

    @Test("a device endpoint keeps the issuer's rule: https, or plain http on loopback only")
    func theDeviceEndpointIsHTTPS() {
        func problem(_ endpoint: String) -> String? {
            IdentityProvider.problem(with: SingleSignOnSettings(issuer: "https://idp.example", clientID: "tc",
                                                                deviceAuthorizationEndpoint: URL(string: endpoint)))
        }
        #expect(problem("http://idp.example/device") == "--oidc-device-endpoint: http://idp.example/device is not https (plain http is allowed on loopback only)")
        #expect(problem("https://idp.example/device") == nil)
        #expect(problem("http://127.0.0.1:8080/device") == nil)
    }

    @Test("a flood of tokens naming unknown keys: all refused, and the provider asked for its keys at most once in the interval")
    func unknownKeyFlood() async throws {
        let provider = try await TestIdentityProvider.start(people: SingleSignOnTests.people)
        defer { provider.stop() }
        let harness = try await BFFHarness()
        defer { harness.remove() }
        let stranger = try await Self.strangersKey()
        let settings = SingleSignOnTests.settings(provider, client: "tc-web")
        try await SingleSignOnTests.withServer(provider, harness: harness, settings: settings) { client in
            // The keys fetched once, for a real token.
            let real = try await provider.idToken(user: "bob", password: "pw-bob")
            #expect(try await client.send(.post, APIPath.authSSO, json: SingleSignOnRequest(idToken: real)).status == .ok)
            let before = provider.requests(to: "/o/.well-known/jwks.json")
            #expect(before == 1)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for round in 0..<200 {
                    group.addTask {
                        let keys = JWTKeyCollection()
                        await keys.add(rsa: stranger, digestAlgorithm: .sha256)
                        let token = try await keys.sign(Forged(iss: provider.issuer), kid: JWKIdentifier(string: "unknown-\(round)"))
                        let response = try await client.send(.post, APIPath.authSSO, json: SingleSignOnRequest(idToken: token))
                        #expect(response.apiError?.error == "the sign-in was refused: the token is signed with a key the provider does not publish")
                    }
                }
                try await group.waitForAll()
            }
            #expect(provider.requests(to: "/o/.well-known/jwks.json") - before <= 1)
        }
    }
}
