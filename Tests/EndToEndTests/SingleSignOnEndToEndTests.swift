import BFFTesting
import CanvasCore
import Foundation
import TestSupport
import Testing

/// Single sign-on as a team meets it: a real identity provider (Django OAuth Toolkit), a team
/// server trusting it, `termcanvas login URL --sso` in tmux showing the code and a QR code, the
/// test playing the user at the provider's page, the dashboard on the team server as that user,
/// an admin by group publishing, and a user disabled at the provider losing the server.
@Suite("Single sign-on end to end", .serialized)
struct SingleSignOnEndToEndTests {
    /// The provider's access tokens live `tokenSeconds` (12 unless a test needs less): a single sign-on's token, no longer.
    static func start(tokenSeconds: Int = 12) async throws -> (TestIdentityProvider, TeamServer) {
        let provider = try await TestIdentityProvider.start(people: ["alice:pw-alice:admins", "bob:pw-bob"],
                                                            environment: ["TC_OIDC_ACCESS_SECONDS": "\(tokenSeconds)"])
        let scopes = ["openid", "profile", "email", "groups", "offline_access"].flatMap { ["--oidc-scope", $0] }
        let server = try await TeamServer.start(users: [], options: [
            "--oidc-issuer", provider.issuer, "--oidc-client-id", "tc-device", "--oidc-device-endpoint", provider.deviceEndpoint,
            "--oidc-admin-group", "admins", "--no-passwords",
        ] + scopes)
        return (provider, server)
    }

    /// `termcanvas login URL --sso` started in tmux, and the code it shows.
    static func startLogIn(_ server: TeamServer, environment: [String: String]) async throws -> (TmuxSession, String, [String]) {
        let login = try await TmuxSession([Products.termcanvas.path, "login", server.url, "--sso"], size: Size(width: 120, height: 45),
                                          environment: environment)
        // The instructions' last line: the terminal may show the rest before it, as the pty hands
        // tmux the QR code's kilobytes in more than one read.
        let shown = try await login.waitFor("Waiting for you to approve the sign-in")
        let line = try #require(shown.first { $0.contains("and enter the code") })
        return (login, try #require(line.split(separator: " ").last.map(String.init)), shown)
    }

    /// `termcanvas login URL --sso` in tmux, approved at the provider as `user`.
    static func logIn(_ user: String, provider: TestIdentityProvider, server: TeamServer) async throws -> [String: String] {
        let environment = try DashboardSessionTests.isolatedHome(canvasLayout: false).environment
        let (login, code, shown) = try await startLogIn(server, environment: environment)
        #expect(shown.contains { $0.contains(provider.base + "/o/device/") })
        // The QR code's finder patterns, top left and top right, in half blocks.
        #expect(shown.contains { $0.contains("█▀▀▀▀▀█") && $0.components(separatedBy: "█▀▀▀▀▀█").count == 3 })
        #expect(shown.contains { $0.contains("Waiting for you to approve the sign-in at \(provider.issuer)") })
        try await provider.approve(user: user, password: "pw-\(user)", code: code)
        try await login.waitFor("termcanvas: logged in to \(server.url) as \(user)", timeout: .seconds(15))
        #expect(try await login.waitForExit().status == 0)
        return environment
    }

    @Test("declined at the provider, or its code run out: each said in its own words, and nothing kept")
    func declinedAndExpired() async throws {
        let (provider, server) = try await Self.start()
        defer {
            server.stop()
            provider.stop()
        }
        let environment = try DashboardSessionTests.isolatedHome(canvasLayout: false).environment
        let (declined, code, _) = try await Self.startLogIn(server, environment: environment)
        try await provider.approve(user: "bob", password: "pw-bob", code: code, deny: true)
        let refusal = try await declined.waitForExit(timeout: .seconds(15))
        #expect(refusal.status != 0)
        #expect(refusal.stderr.contains("the sign-in was declined at the identity provider: nothing was changed; run `termcanvas login \(server.url) --sso` to try again"),
                "\(refusal.stderr)")

        let (expiring, later, _) = try await Self.startLogIn(server, environment: environment)
        try await provider.expire(code: later)
        let expiry = try await expiring.waitForExit(timeout: .seconds(15))
        #expect(expiry.status != 0)
        #expect(expiry.stderr.contains("the code expired before the sign-in was approved: run `termcanvas login \(server.url) --sso` again"),
                "\(expiry.stderr)")
        let credentials = environment["XDG_CONFIG_HOME", default: ""] + "/termcanvas/credentials"
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: credentials)) ?? []).isEmpty, "nothing kept")
    }

    @Test("login --sso in tmux; the dashboard on the team server as that user; an admin by group publishes; renewals keep it going; disabled at the provider, refused once the token's lifetime is out")
    func signInUseAndLose() async throws {
        let (provider, server) = try await Self.start()
        defer {
            server.stop()
            provider.stop()
        }
        let alice = try await Self.logIn("alice", provider: provider, server: server)

        // Passwords are off: the server says how to log in instead.
        let password = try await Command.run([Products.termcanvas.path, "login", server.url, "--user", "alice"], environment: alice,
                                             input: "whatever\n")
        #expect(password.status != 0)
        #expect(password.output.contains("this server signs in through single sign-on only: log in with `termcanvas login URL --sso`"))

        // Alice is an admin by group: she publishes.
        let published = try await Command.run([Products.termcanvas.path, "apps", "publish", MarketplaceEndToEndTests.sysmon.path,
                                               "--bff", server.url], environment: alice)
        #expect(published.status == 0, "\(published.output)")

        // Bob is not: he may not, and he chats as bob from his dashboard.
        let bob = try await Self.logIn("bob", provider: provider, server: server)
        let refused = try await Command.run([Products.termcanvas.path, "apps", "publish", MarketplaceEndToEndTests.sysmon.path,
                                             "--bff", server.url], environment: bob)
        #expect(refused.status != 0)
        let session = try await server.dashboard(bob)
        try await MicroAppsEndToEndTests.waitUntilOnline(session)
        try await session.send("M-3")
        try await session.sendLiteral("signed in at the provider")
        try await session.send("Enter")
        try await session.waitFor("bob: signed in at the provider")

        // Past the first token's 12 seconds, renewed: still online, and chat still goes through.
        let first = try Self.storedCredential(bob, server: server)
        try await eventually("bob's first token ran out, renewed", within: .seconds(30), every: .milliseconds(200)) {
            try Date().timeIntervalSince1970 > first.expiresAt && Self.storedCredential(bob, server: server).token != first.token
        }
        try await session.sendLiteral("still here")
        try await session.send("Enter")
        try await session.waitFor("bob: still here")

        // Disabled at the provider: the next renewal is refused and the dashboard says so; the
        // token in hand stops working within its lifetime.
        try await provider.disable("bob")
        try await session.waitFor("your sign-in at \(server.url) has ended", timeout: .seconds(15))
        let credentials = bob["XDG_CONFIG_HOME", default: ""] + "/termcanvas/credentials/"
        let file = try #require(try FileManager.default.contentsOfDirectory(atPath: credentials).first { $0.hasSuffix(".json") })
        let credential = try String(contentsOfFile: credentials + file, encoding: .utf8)
        let token = try #require(try JSONSerialization.jsonObject(with: Data(credential.utf8)) as? [String: Any])["token"] as? String
        try await eventually("bob's last token refused", within: .seconds(15), every: .milliseconds(500)) {
            try await Command.run(["curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", server.url + "/api/todo/items",
                                   "-H", "Authorization: Bearer \(try #require(token))"]).output == "401"
        }
        try await session.waitFor("token refused", timeout: .seconds(20))
    }

    @Test("a dashboard on another server renews a followed registry's single sign-on too: its packages stay in the catalog past the token's lifetime")
    func followedRegistryRenewed() async throws {
        let (provider, team) = try await Self.start(tokenSeconds: 6)
        defer {
            team.stop()
            provider.stop()
        }
        let home = try await TeamServer.start(users: ["alice"])
        defer { home.stop() }
        let alice = try await Self.logIn("alice", provider: provider, server: team)
        let pomodoro = RemoteAppsEndToEndTests.deploys.deletingLastPathComponent().appendingPathComponent("pomodoro")
        let published = try await MarketplaceEndToEndTests.termcanvas(["apps", "publish", pomodoro.path, "--bff", team.url], alice)
        #expect(published.status == 0, "\(published.output)")
        let login = try await MarketplaceEndToEndTests.termcanvas(["login", home.url, "--user", "alice"], alice, input: "password-alice\n")
        try #require(login.status == 0, "\(login.output)")
        let before = try Self.storedCredential(alice, server: team)

        // The team's token has run out when the dashboard first reads its registry: renewed first.
        try await eventually("the team's token ran out", within: .seconds(10), every: .milliseconds(100)) {
            Date().timeIntervalSince1970 > before.expiresAt
        }
        let session = try await home.dashboard(alice)
        try await MicroAppsEndToEndTests.waitUntilOnline(session)
        try await session.send("C-e")
        try await session.waitFor("ARRANGE")
        try await session.send("a")
        let teamName = "127.0.0.1:\(team.port)"
        try await session.waitFor("(pomodoro) — from \(teamName)", timeout: .seconds(15))
        let renewed = try Self.storedCredential(alice, server: team)
        #expect(renewed.token != before.token && renewed.expiresAt > before.expiresAt)

        // And kept renewed while the dashboard runs, before it runs out again.
        try await eventually("renewed again in the background", within: .seconds(15), every: .milliseconds(500)) {
            try Self.storedCredential(alice, server: team).expiresAt > renewed.expiresAt
        }
        #expect(!(try await session.screen()).contains { $0.contains("has ended") })
        try await session.send("Escape")
        try await session.send("Escape")
        try await session.send("C-q")
        #expect(try await session.waitForExit().status == 0)
    }

    /// The token and its expiry kept for `server` in the credential store of `environment`.
    static func storedCredential(_ environment: [String: String], server: TeamServer) throws -> (token: String, expiresAt: Double) {
        let folder = environment["XDG_CONFIG_HOME", default: ""] + "/termcanvas/credentials/"
        for file in try FileManager.default.contentsOfDirectory(atPath: folder) where file.hasSuffix(".json") {
            let data = try Data(contentsOf: URL(fileURLWithPath: folder + file))
            let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            guard (object["server"] as? String)?.hasSuffix(":\(server.port)") == true else { continue }
            return (try #require(object["token"] as? String), try #require(object["expiresAt"] as? Double))
        }
        throw CredentialMissing()
    }

    struct CredentialMissing: Error {}
}
