import ArgumentParser
import BFFAccess
import CommandSupport
import Foundation
import HTTPClient
import ServerAPI

/// `termcanvas login URL --user NAME`: gets a token from a team's server and keeps it (mode 0600)
/// for `termcanvas --bff URL`.
///
/// What it prints may hold the server's words (its error text): every message goes through
/// `TerminalText.safe` first, so the server cannot reach the terminal with escape sequences.
struct LoginCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "login",
        abstract: "Log in to a micro-app server and keep its token for `termcanvas --bff URL`.",
        discussion: "The password is asked for on the terminal, or read from standard input when it is not a terminal."
    )

    @Argument(help: ArgumentHelp("The server, e.g. http://team.example:7450.", valueName: "URL"))
    var url: String
    @Option(help: "Your user name on that server.") var user: String
    @Option(help: ArgumentHelp("Trust the certificates in this PEM file for an https server (its own CA or self-signed certificate).",
                               valueName: "FILE"))
    var caFile: String?
    @Flag(help: "Allow a plain http:// server on another machine: the password and the token cross the network readable.")
    var insecure = false

    func validate() throws {
        let server: ServerURL
        do { server = try ServerURL(url) } catch { throw ValidationError("\(error)") }
        guard !server.isInsecure || insecure else {
            throw ValidationError("""
                \(server) is plain HTTP to another machine: your password and a 30-day token would cross the network \
                readable. Use https:// (the server's `serve --tls-cert FILE --tls-key FILE`), or --insecure if you accept that.
                """)
        }
        if let caFile, !FileManager.default.isReadableFile(atPath: caFile) {
            throw ValidationError("--ca-file \(caFile): no such readable file")
        }
    }

    func run() async throws {
        let server = try ServerURL(url)
        let password = try PasswordInput.read(prompt: TerminalText.safe("Password for \(user) at \(server): "))
        let trusted = caFile.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
        let client = HTTPClient(endpoint: .init(baseURL: server.origin, trustedCertificates: trusted))
        let response: TokenResponse
        do {
            response = try await client.post(APIPath.authToken, body: TokenRequest(username: user, password: password))
        } catch .status(code: 401, _, let apiError) {
            // The server's reason when it gave one, e.g. "wrong username or password".
            let reason = apiError.map(\.error) ?? "wrong user name or password"
            throw CommandError(TerminalText.safe("\(server) refused the login: \(reason); check the name and password (an admin sets them: `termcanvas user add`)"))
        } catch where error.isTransient {
            throw CommandError(TerminalText.safe("could not reach \(server) (\(error)); check the address, and that the server runs there"))
        } catch {
            throw CommandError(TerminalText.safe("could not log in to \(server): \(error)"))
        }
        let paths = Paths(environment: ProcessInfo.processInfo.environment)
        try paths.credentials.save(Credential(server: server, user: user, token: response.token, trustedCertificates: trusted))
        FileHandle.standardError.write(Data((TerminalText.safe("termcanvas: logged in to \(server) as \(user)") + "\n").utf8))
    }
}
