import CanvasUI
import AppInstalls
import ArgumentParser
import BFFAccess
import CommandSupport
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import HTTPClient
import ServerAPI

/// `termcanvas login URL --user NAME` or `--sso`: gets a token from a team's server and keeps it
/// (mode 0600) for `termcanvas --bff URL`.
///
/// What it prints may hold the server's words (its error text): every message goes through
/// `TerminalText.safe` first, so the server cannot reach the terminal with escape sequences.
struct LoginCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "login",
        abstract: "Log in to a micro-app server and keep its token for `termcanvas --bff URL`.",
        discussion: """
            With --user the password is asked for on the terminal, or read from standard input when it is not a terminal. \
            With --sso you sign in at the server's identity provider in a browser (on this machine or a phone): the command \
            shows the address and a code to enter there, and waits.
            """
    )

    @Argument(help: ArgumentHelp("The server, e.g. http://team.example:7450.", valueName: "URL"))
    var url: String
    @Option(help: "Your user name on that server.") var user: String?
    @Flag(help: "Sign in through the server's identity provider (single sign-on) instead of a password.")
    var sso = false
    @Option(help: ArgumentHelp("Trust the certificates in this PEM file for an https server (its own CA or self-signed certificate).",
                               valueName: "FILE"))
    var caFile: String?
    @Flag(help: "Allow a plain http:// server on another machine: the password and the token cross the network readable.")
    var insecure = false

    func validate() throws {
        guard (user != nil) != sso else {
            throw ValidationError(sso ? "--sso signs in without a name: leave out --user" : "say how to log in: --user NAME (a password) or --sso")
        }
        let server: ServerURL
        do { server = try ServerURL(url) } catch { throw ValidationError("\(error)") }
        guard !server.isInsecure || insecure else {
            throw ValidationError("""
                \(server) is plain HTTP to another machine: \(sso ? "the server's tokens" : "your password and a 30-day token") would cross the \
                network readable. Use https:// (the server's `serve --tls-cert FILE --tls-key FILE`), or --insecure if you accept that.
                """)
        }
        if let caFile, !FileManager.default.isReadableFile(atPath: caFile) {
            throw ValidationError("--ca-file \(caFile): no such readable file")
        }
    }

    func run() async throws {
        let server = try ServerURL(url)
        let trusted = caFile.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
        let client = HTTPClient(endpoint: .init(baseURL: server.origin, trustedCertificates: trusted))
        let credential = if sso {
            try await singleSignOn(server: server, client: client, trusted: trusted)
        } else {
            try await password(server: server, client: client, trusted: trusted)
        }
        let paths = Paths(environment: ProcessInfo.processInfo.environment)
        try paths.credentials.save(credential)
        // Logging in is trusting the server anew: its registry's key is pinned again at its next answer.
        RegistryAnswers(paths, logger: ServerOption.logger).forget(server.origin)
        Self.say("termcanvas: logged in to \(server) as \(credential.user)")
    }

    private func password(server: ServerURL, client: HTTPClient, trusted: String?) async throws -> Credential {
        let user = user ?? ""
        let password = try PasswordInput.read(prompt: TerminalText.safe("Password for \(user) at \(server): "))
        let response: TokenResponse
        do {
            let request = MachineName.naming(try HTTPClient.jsonRequest(.post, APIPath.authToken, body: TokenRequest(username: user, password: password)))
            response = try HTTPClient.decode(TokenResponse.self, from: try await client.send(request))
        } catch .status(code: 401, _, let apiError) {
            // The server's reason when it gave one, e.g. "wrong username or password".
            let reason = apiError.map(\.error) ?? "wrong user name or password"
            throw CommandError(TerminalText.safe("\(server) refused the login: \(reason); check the name and password (an admin sets them: `termcanvas user add`)"))
        } catch .status(code: 403, _, let apiError?) {
            throw CommandError(TerminalText.safe("\(server) refused the login: \(apiError.error)"))
        } catch where error.isTransient {
            throw CommandError(TerminalText.safe("could not reach \(server) (\(error)); check the address, and that the server runs there"))
        } catch {
            throw CommandError(TerminalText.safe("could not log in to \(server): \(error)"))
        }
        return Credential(server: server, user: user, token: response.token, trustedCertificates: trusted)
    }

    private func singleSignOn(server: ServerURL, client: HTTPClient, trusted: String?) async throws -> Credential {
        let flow = DeviceLoginFlow(server: server, client: client, say: Self.say, drawsCode: isatty(STDOUT_FILENO) == 1)
        let login = try await flow.run()
        if let taken = login.nameTaken {
            Self.say(TerminalText.safe("termcanvas: \(taken) was taken on \(server), so you are \(login.user) there"))
        }
        return Credential(server: server, user: login.user, token: login.token, trustedCertificates: trusted, renewal: login.renewal,
                          expiresAt: Date().timeIntervalSince1970 + Double(login.expiresIn))
    }

    /// What the login tells the person at the terminal (standard output: the flow's conversation
    /// and its result; failures go to standard error).
    static func say(_ text: String) {
        Console.output((text + "\n"))
    }
}

/// `termcanvas logout URL`: forgets the token kept for a server, and ends its session there, so
/// neither the token nor a single sign-on's renewal works again.
struct LogoutCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "logout", abstract: "Forget the token kept for a server (`termcanvas login`).")

    @Argument(help: ArgumentHelp("The server, e.g. http://team.example:7450.", valueName: "URL"))
    var url: String

    func validate() throws {
        do { _ = try ServerURL(url) } catch { throw ValidationError("\(error)") }
    }

    func run() async throws {
        let server = try ServerURL(url)
        let store = Paths(environment: ProcessInfo.processInfo.environment).credentials
        guard let credential = try store.credential(for: server) else {
            throw CommandError(TerminalText.safe("not logged in to \(server): nothing to forget"))
        }
        // Its session ends at the server: by its token, or (a token expired) by its renewal.
        let client = HTTPClient(endpoint: .init(baseURL: server.origin, trustedCertificates: credential.trustedCertificates), token: credential.token)
        var ended = (try? await Self.endSession(client)) != nil
        if !ended, let renewal = credential.renewal {
            ended = (try? await client.post(APIPath.authSSOLogout, json: SingleSignOnLogout(renewal: renewal))) != nil
        }
        _ = store.remove(for: server)
        LoginCommand.say(TerminalText.safe(ended
            ? "termcanvas: logged out of \(server)"
            : "termcanvas: logged out of \(server) here; the server could not be told, so its sign-in lasts until its token expires"))
    }
}

extension LogoutCommand {
    /// Ends the session of `client`'s token.
    static func endSession(_ client: HTTPClient) async throws {
        let sessions: [SessionInfo] = try await client.get(APIPath.authSessions)
        guard let mine = sessions.first(where: \.current) else { return }
        try await client.delete(APIPath.authSession(mine.id))
    }
}
