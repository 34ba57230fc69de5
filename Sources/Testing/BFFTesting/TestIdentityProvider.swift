import Foundation
import Synchronization
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// A real OpenID Connect provider for tests of single sign-on: Django OAuth Toolkit, run by
/// `deploy/oidc-provider/provider` on a loopback port with its own database and RSA key, and the
/// people given (`NAME:PASSWORD[:GROUP,…]`). Its clients: `tc-device` (device flow), `tc-web` and
/// `tc-other` (authorization code with PKCE, for ID tokens). The tests play its users through
/// its web pages (`approve`, `idToken`) as a browser would.
package final class TestIdentityProvider: Sendable {
    package let base: String
    package var issuer: String { base + "/o" }
    package var deviceEndpoint: String { base + "/o/device-authorization/" }
    /// The folder holding its database, `key.pem` (its signing key) and `requests.log`.
    package let state: URL
    private let port: Int
    private let environment: [String: String]
    private let pid: Mutex<pid_t>

    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("deploy/oidc-provider/provider").path

    private init(base: String, port: Int, state: URL, environment: [String: String], pid: pid_t) {
        self.base = base
        self.port = port
        self.state = state
        self.environment = environment
        self.pid = Mutex(pid)
    }

    /// Sets one up and starts it; `environment` may set `TC_OIDC_ACCESS_SECONDS`, `TC_OIDC_ID_SECONDS`
    /// and `TC_OIDC_INTERVAL` (the device flow's polling interval, 1 s by default here). With
    /// `signingLike`, it signs with that provider's key (another issuer, the same key).
    package static func start(people: [String], environment: [String: String] = [:],
                             signingLike other: TestIdentityProvider? = nil) async throws -> TestIdentityProvider {
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("tc-oidc-\(UUID().uuidString)")
        if let other {
            try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: other.state.appendingPathComponent("key.pem"), to: state.appendingPathComponent("key.pem"))
        }
        let port = LoopbackPort.random()
        let base = "http://127.0.0.1:\(port)"
        let setup = try await Command.run([script, "setup", state.path, base + "/o"] + people, environment: environment)
        guard setup.status == 0 else { throw ProviderFailure(what: "setup", output: setup.output) }
        let pid = try await serve(state: state, issuer: base + "/o", port: port, environment: environment)
        return TestIdentityProvider(base: base, port: port, state: state, environment: environment, pid: pid)
    }

    /// Starts serving and waits until it answers; a minute, for Django starts slowly on a machine
    /// busy with the other suites. A server that ended before answering (its port, picked rather
    /// than given, was still or already taken) is started again, three times at most; what it
    /// printed (`serve.log`) is the failure's text.
    private static func serve(state: URL, issuer: String, port: Int, environment: [String: String]) async throws -> pid_t {
        let log = state.appendingPathComponent("serve.log").path
        for _ in 1...3 {
            let pid = try Command.start([script, "serve", state.path, issuer, "\(port)"], environment: environment, log: log)
            let answered: Bool
            do {
                answered = try await eventually("an answer from the identity provider at \(issuer)", within: .seconds(60), every: .milliseconds(100)) {
                    if Command.hasEnded(pid) { return false }
                    let probe = try await Command.run(["curl", "-sf", "-o", "/dev/null", issuer + "/.well-known/openid-configuration"], capturingOutput: false)
                    return probe.status == 0 ? true : nil
                }
            } catch {
                Command.kill(pid)
                throw ProviderFailure(what: "serve", output: "\(error); it printed: " + ((try? String(contentsOfFile: log, encoding: .utf8)) ?? ""))
            }
            if answered { return pid }
            try await Task.sleep(for: .milliseconds(500))
        }
        throw ProviderFailure(what: "serve", output: (try? String(contentsOfFile: log, encoding: .utf8)) ?? "")
    }

    /// Takes it down, keeping its users, clients, keys and tokens for `serveAgain`; its port is
    /// free when this returns.
    package func takeDown() {
        pid.withLock { Command.kill($0) }
    }

    /// Serves it again on the same port, after `takeDown`.
    package func serveAgain() async throws {
        let started = try await Self.serve(state: state, issuer: issuer, port: port, environment: environment)
        pid.withLock { $0 = started }
    }

    /// Signs in as `user` at the verification page, enters `code` and accepts (or denies).
    package func approve(user: String, password: String, code: String, deny: Bool = false) async throws {
        let result = try await Command.run([Self.script, "approve", base, user, password, code] + (deny ? ["deny"] : []))
        guard result.status == 0 else { throw ProviderFailure(what: "approve", output: result.output) }
    }

    /// An ID token for `user` issued to `client` by an authorization-code login with PKCE.
    package func idToken(user: String, password: String, client: String = "tc-web") async throws -> String {
        let result = try await Command.run([Self.script, "id-token", base, user, password, client])
        guard result.status == 0, let answer = try? JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any],
              let token = answer["id_token"] as? String
        else { throw ProviderFailure(what: "id-token", output: result.output) }
        return token
    }

    /// Disables `user` at the provider: their access and refresh tokens stop working.
    package func disable(_ user: String) async throws {
        let result = try await Command.run([Self.script, "disable", state.path, issuer, user])
        guard result.status == 0 else { throw ProviderFailure(what: "disable", output: result.output) }
    }

    /// Runs out the device login of `code`, as its lifetime would.
    package func expire(code: String) async throws {
        let result = try await Command.run([Self.script, "expire", state.path, issuer, code])
        guard result.status == 0 else { throw ProviderFailure(what: "expire", output: result.output) }
    }

    /// Sets `user`'s groups at the provider.
    package func setGroups(_ user: String, _ groups: [String]) async throws {
        let result = try await Command.run([Self.script, "groups", state.path, issuer, user, groups.joined(separator: ",")])
        guard result.status == 0 else { throw ProviderFailure(what: "groups", output: result.output) }
    }

    /// How many requests the provider had for `path` so far.
    package func requests(to path: String) -> Int {
        let log = (try? String(contentsOf: state.appendingPathComponent("requests.log"), encoding: .utf8)) ?? ""
        return log.split(separator: "\n").filter { $0.hasSuffix(" " + path) }.count
    }

    /// Its signing key's public half, PEM.
    package func publicKeyPEM() async throws -> String {
        try await Command.run(["openssl", "rsa", "-in", state.appendingPathComponent("key.pem").path, "-pubout"]).output
            .split(separator: "\n").filter { !$0.hasPrefix("writing") }.joined(separator: "\n") + "\n"
    }

    /// Kills it (SIGKILL: a test runner may ignore SIGTERM, and its children then inherit that).
    package func stop() {
        takeDown()
        try? FileManager.default.removeItem(at: state)
    }

    package struct ProviderFailure: Error, CustomStringConvertible {
        let what: String
        let output: String
        package var description: String { "the test identity provider's \(what) failed: \(output)" }
    }
}
