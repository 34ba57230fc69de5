import BFF
import BFFTesting
import Foundation
import HummingbirdTesting
import JWTKit
import ServerAPI
import ServerHTTP
import Synchronization
import Testing
import TestSupport

@Suite("BFF auth")
struct AuthTests {
    @Test("no token, a malformed one, one signed with another secret, an expired one: all 401 JSON")
    func rejectsMissingBadAndExpiredTokens() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addUsers("ann")

        // A well-signed token that expired a minute ago, and one signed with a different secret.
        let keys = JWTKeyCollection()
        await keys.add(hmac: HMACKey(from: BFFHarness.secret), digestAlgorithm: .sha256)
        let expired = try await keys.sign(TokenClaims(userID: 1, name: "ann", session: "0123456789abcdef", expires: .init(value: Date() - 60)))
        let otherKeys = JWTKeyCollection()
        await otherKeys.add(hmac: HMACKey(from: "some-other-secret-0123456789abcdef"), digestAlgorithm: .sha256)
        let forged = try await otherKeys.sign(TokenClaims(userID: 1, name: "ann", session: "0123456789abcdef", expires: .init(value: Date() + 600)))

        try await harness.withServer { client in
            for token in [nil, "not-a-jwt", "a.b.c", expired, forged] as [String?] {
                let response = try await client.send(.get, APIPath.todoItems, token: token)
                #expect(response.status == .unauthorized, "token \(token ?? "none")")
                #expect(response.apiError?.error.isEmpty == false)
            }
            // The header must say Bearer.
            let basic = try await client.execute(uri: APIPath.todoItems, method: .get, headers: [.authorization: "Basic YW5uOnB3"])
            #expect(basic.status == .unauthorized)
            // A good token works.
            let token = try await client.token(for: "ann")
            #expect(try await client.send(.get, APIPath.todoItems, token: token).status == .ok)
        }
    }

    @Test("a wrong password or unknown user gets 401; a token names its user and expires")
    func issuesTokensOnlyForRightPasswords() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addUsers("ann")
        try await harness.withServer { client in
            let wrong = try await client.send(.post, APIPath.authToken, json: TokenRequest(username: "ann", password: "nope"))
            #expect(wrong.status == .unauthorized)
            let unknown = try await client.send(.post, APIPath.authToken, json: TokenRequest(username: "bob", password: "pw-bob"))
            #expect(unknown.status == .unauthorized)
            let missing = try await client.send(.post, APIPath.authToken, rawBody: #"{"username": "ann"}"#)
            #expect(missing.status == .badRequest)
            #expect(missing.apiError == APIError(error: "is required", field: "password"))

            let token = try await client.token(for: "ann")
            let keys = JWTKeyCollection()
            await keys.add(hmac: HMACKey(from: BFFHarness.secret), digestAlgorithm: .sha256)
            let claims = try await keys.verify(token, as: TokenClaims.self)
            #expect(claims.name == "ann")
            // It expires after the configured lifetime (30 days by default), not merely later.
            let lifetime = harness.configuration().tokenLifetime
            #expect(abs(claims.exp.value.timeIntervalSinceNow - lifetime) < 60, "\(claims.exp.value)")
        }
    }

    @Test("a token the server issued is refused once its lifetime has passed, and once its user is deleted")
    func issuedTokensStopWorking() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addUsers("ann", "bob")
        var configuration = harness.configuration()
        configuration.tokenLifetime = 60
        // The server's clock, moved on instead of waited for (by far more than a loaded machine's delays).
        let later = Mutex(TimeInterval(0))
        configuration.clock = { Date() + later.withLock { $0 } }
        try await harness.withServer(configuration: configuration) { client in
            let short = try await client.token(for: "ann")
            #expect(try await client.send(.get, APIPath.todoItems, token: short).status == .ok)
            later.withLock { $0 = 40 }
            #expect(try await client.send(.get, APIPath.todoItems, token: short).status == .ok)
            later.withLock { $0 = 70 }
            #expect(try await client.send(.get, APIPath.todoItems, token: short).status == .unauthorized)
            later.withLock { $0 = 0 }

            let bob = try await client.token(for: "bob")
            #expect(try await client.send(.get, APIPath.todoItems, token: bob).status == .ok)
            // Deleted as `termcanvas user delete` does it: by another process, on the database.
            #expect(try await harness.withStore { try await $0.deleteUser(name: "bob") })
            try await eventually("the deleted user refused", every: .milliseconds(50)) {
                try await client.send(.get, APIPath.todoItems, token: bob).status == .unauthorized
            }
        }
    }

    @Test("neither passwords nor tokens appear in the logs, even at trace level")
    func secretsNeverLogged() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addUsers("ann")
        let logs = LogCapture()
        let token = try await harness.withServer(logs: logs) { client in
            _ = try await client.send(.post, APIPath.authToken, json: TokenRequest(username: "ann", password: "wrong-secret-pw"))
            let token = try await client.token(for: "ann")
            _ = try await client.send(.post, APIPath.todoItems, token: token, json: NewTodo(title: "t"))
            _ = try await client.send(.get, APIPath.todoItems, token: token + "x")
            return token
        }
        #expect(!logs.lines.isEmpty)
        for line in logs.lines {
            #expect(!line.contains("pw-ann") && !line.contains("wrong-secret-pw"), "\(line)")
            #expect(!line.contains(token) && !line.contains(String(token.prefix(20))), "\(line)")
            #expect(!line.contains(BFFHarness.secret), "\(line)")
        }
    }

    @Test("health needs no token; unknown routes get 404 JSON")
    func healthAndUnknownRoutes() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.withServer { client in
            #expect(try await client.send(.get, APIPath.health).status == .ok)
            for path in ["/nope", "/api/nope"] {
                let response = try await client.send(.get, path)
                #expect(response.status == .notFound, "\(path)")
                #expect(response.apiError == APIError(error: "not found"))
                #expect(response.headers[.contentType]?.hasPrefix("application/json") == true)
            }
        }
    }

    @Test("without a configured secret one is generated, kept (SQLite: in a file of mode 0600; PostgreSQL: in the database) and reused after a restart")
    func generatedSecretIsKeptPrivate() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addUsers("ann")
        let token = try await harness.withServer(secret: nil) { client in try await client.token(for: "ann") }
        let path = harness.directory.appendingPathComponent("jwt-secret").path
        if TestDatabase.isPostgres {
            #expect(!FileManager.default.fileExists(atPath: path))
        } else {
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        }
        try await harness.withServer(secret: nil) { client in
            let response = try await client.send(.get, APIPath.todoItems, token: token)
            #expect(response.status == .ok)
        }
    }
}
