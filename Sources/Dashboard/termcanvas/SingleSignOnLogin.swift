import BFFAccess
import CanvasUI
import CommandSupport
import FoundationEssentials
import HTTPClient
import QRCodes
import ServerAPI

/// `termcanvas login URL --sso`: a device login (RFC 8628) through the team server, which starts
/// it at its identity provider and keeps the device code. This shows where to go and the code (and
/// the address as a QR code, for a phone), then asks the server at the interval it gives until
/// the user approved, declined, or the code expired, each said in its own words.
///
/// The server's and the provider's words reach the terminal only through `TerminalText.safe`.
struct DeviceLoginFlow {
    let server: ServerURL
    let client: HTTPClient
    /// Where the instructions go (standard output).
    let say: @Sendable (String) -> Void
    /// Whether to draw the QR code (standard output is a terminal).
    let drawsCode: Bool

    func run() async throws -> SingleSignOnLogin {
        let info: SingleSignOnInfo
        do {
            info = try await client.get(APIPath.authSSO)
        } catch .status(404, _, _) {
            throw CommandError(TerminalText.safe("\(server) does not sign in through an identity provider: log in with --user NAME"))
        } catch {
            throw Self.failure(error, server: server)
        }
        let device: DeviceLogin
        do {
            device = try await client.post(APIPath.authSSODevice, body: [String: String]())
        } catch {
            throw Self.failure(error, server: server)
        }
        say(instructions(device, provider: info.issuer))
        var interval = max(1, device.interval)
        let deadline = ContinuousClock.now + .seconds(device.expiresIn)
        let poll = MachineName.naming(try HTTPClient.jsonRequest(.post, APIPath.authSSO, body: SingleSignOnRequest(login: device.login)))
        while ContinuousClock.now < deadline {
            try await Task.sleep(for: .seconds(interval))
            let response: HTTPClient.Response
            do {
                response = try await client.send(poll)
            } catch where error.isTransient {
                // The server or its provider away for a moment: the login stands; ask again.
                continue
            } catch {
                throw Self.failure(error, server: server)
            }
            guard response.status == 202 else {
                do { return try HTTPClient.decode(SingleSignOnLogin.self, from: response) } catch { throw Self.failure(error, server: server) }
            }
            if let wait = try? HTTPClient.decode(DeviceLoginWait.self, from: response), wait.interval > 0 { interval = min(wait.interval, 60) }
        }
        throw Self.expired(server)
    }

    private func instructions(_ device: DeviceLogin, provider: String) -> String {
        let address = TerminalText.safe(device.verificationURIComplete ?? device.verificationURI)
        var lines = [
            TerminalText.safe("To log in to \(server), open this address in a browser\(drawsCode ? " (or scan the code below with a phone)" : ""):"),
            "",
            "    " + TerminalText.safe(device.verificationURI),
            "",
            "and enter the code  " + TerminalText.safe(device.userCode),
            "",
        ]
        if drawsCode, let code = QRCode(text: device.verificationURIComplete ?? device.verificationURI) {
            lines += QRText.lines(code) + [""]
        } else if device.verificationURIComplete != nil {
            lines += ["(or open \(address), which holds the code)", ""]
        }
        let minutes = max(1, device.expiresIn / 60)
        lines.append(TerminalText.safe("Waiting for you to approve the sign-in at \(provider)… (the code expires in \(minutes) minute\(minutes == 1 ? "" : "s"); Ctrl-C gives up)"))
        return lines.joined(separator: "\n")
    }

    private static func expired(_ server: ServerURL) -> CommandError {
        CommandError(TerminalText.safe("the code expired before the sign-in was approved: run `termcanvas login \(server) --sso` again"))
    }

    /// What went wrong, for a person, the server's reason quoted where it gave one.
    static func failure(_ error: HTTPClientError, server: ServerURL) -> CommandError {
        let reason: String? = if case .status(_, _, let apiError?) = error { apiError.error } else { nil }
        switch error {
        case .status(403, _, _):
            return CommandError(TerminalText.safe("the sign-in was declined at the identity provider: nothing was changed; run `termcanvas login \(server) --sso` to try again"))
        case .status(410, _, _):
            return expired(server)
        case .status(401, _, _), .status(409, _, _):
            return CommandError(TerminalText.safe("\(server) refused the sign-in: \(reason ?? "no reason given")"))
        case .status(502, _, _):
            return CommandError(TerminalText.safe("\(server) could not ask its identity provider: \(reason ?? "it did not answer"); try again later, or tell the server's operator"))
        case .status(429, _, _):
            return CommandError(TerminalText.safe("\(server) has too many sign-ins under way: \(reason ?? "wait a minute"); try again in a minute"))
        case _ where error.isTransient:
            return CommandError(TerminalText.safe("could not reach \(server) (\(error)); check the address, and that the server runs there"))
        default:
            return CommandError(TerminalText.safe("could not log in to \(server): \(reason ?? "\(error)")"))
        }
    }
}
