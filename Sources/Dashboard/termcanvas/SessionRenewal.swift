import BFFAccess
import CanvasUI
import CommandSupport
import FoundationEssentials
import HTTPClient
import Logging
import ServerAPI
import Synchronization

/// A single sign-on's token is short-lived (`serve --oidc-session-lifetime`, 15 minutes by
/// default): before it expires, its renewal handle gets a new one from the server, which asks the
/// identity provider first. A user the provider no longer signs in gets no new token. Each renewal
/// is kept in the credential store, so the next command or dashboard starts from it.
enum SessionRenewal {
    /// How long before expiry a command renews a token: long enough for what it does.
    static let commandMargin: Double = 10

    /// Whether `credential` is a single sign-on's whose token expires within `commandMargin` of `now`.
    static func isDue(_ credential: Credential, now: Double = Date().timeIntervalSince1970) -> Bool {
        guard credential.renewal != nil, let expiresAt = credential.expiresAt else { return false }
        return expiresAt - now <= commandMargin
    }

    /// How long to wait before renewing a token with `remaining` seconds left: until a third of it
    /// is left, or 30 seconds, whichever is less.
    static func wait(remaining: Double) -> Double {
        max(0, remaining - min(30, remaining / 3))
    }

    /// The credential with a new token and renewal handle, saved.
    static func renew(_ credential: Credential, client: HTTPClient, store: CredentialStore) async throws -> Credential {
        let server = try ServerURL(credential.server)
        let login: SingleSignOnLogin = try await client.post(APIPath.authSSO, body: SingleSignOnRequest(renewal: credential.renewal))
        let renewed = Credential(server: server, user: login.user, token: login.token, trustedCertificates: credential.trustedCertificates,
                                 renewal: login.renewal, expiresAt: Date().timeIntervalSince1970 + Double(login.expiresIn))
        try store.save(renewed)
        return renewed
    }

    /// `credential`, renewed first when due (a command's start).
    static func fresh(_ credential: Credential, store: CredentialStore, logger: Logger) async throws -> Credential {
        guard isDue(credential) else { return credential }
        let client = HTTPClient(endpoint: .init(baseURL: credential.server, trustedCertificates: credential.trustedCertificates), logger: logger)
        do {
            return try await renew(credential, client: client, store: store)
        } catch let error as HTTPClientError {
            throw CommandError(ended(credential, error))
        }
    }

    /// What to tell the user when a renewal failed.
    static func ended(_ credential: Credential, _ error: HTTPClientError) -> String {
        switch error {
        case .status(401, _, let apiError), .status(409, _, let apiError):
            TerminalText.safe("your sign-in at \(credential.server) has ended (\(apiError?.error ?? "the server said no")); "
                + "log in again with `termcanvas login \(credential.server) --sso`")
        default:
            TerminalText.safe("could not renew your sign-in at \(credential.server) (\(error)); it is tried again")
        }
    }
}

/// The dashboard's renewals: one task that sleeps until the token is due, renews it (or takes the
/// token a command renewed meanwhile), and hands the new token to the client every part of the
/// dashboard shares. When the server says no, the user is told once, on screen; a server that
/// cannot be reached is tried again every 30 seconds.
final class SessionKeeper: Sendable {
    private let task = Mutex<Task<Void, Never>?>(nil)

    func start(_ credential: Credential, client: HTTPClient, store: CredentialStore, mailbox: Mailbox, logger: Logger) {
        let renewing = Task.detached {
            var current = credential
            while !Task.isCancelled {
                let wait = SessionRenewal.wait(remaining: (current.expiresAt ?? 0) - Date().timeIntervalSince1970)
                do { try await Task.sleep(for: .seconds(wait)) } catch { return }
                // A command may have renewed it meanwhile: its handle is then the one that works.
                if let stored = try? store.credential(for: ServerURL(current.server)), stored.renewal != nil,
                   (stored.expiresAt ?? 0) > (current.expiresAt ?? 0) {
                    current = stored
                    client.token = stored.token
                    continue
                }
                do {
                    current = try await SessionRenewal.renew(current, client: client, store: store)
                    client.token = current.token
                    logger.info("single sign-on renewed", metadata: ["server": "\(current.server)"])
                } catch let error as HTTPClientError where !error.isTransient {
                    logger.warning("single sign-on ended", metadata: ["server": "\(current.server)", "error": "\(error)"])
                    mailbox.post(.notice(.error(SessionRenewal.ended(current, error))))
                    return
                } catch {
                    logger.info("single sign-on renewal failed; trying again", metadata: ["error": "\(error)"])
                    do { try await Task.sleep(for: .seconds(30)) } catch { return }
                }
            }
        }
        task.withLock { $0 = renewing }
    }

    func cancel() {
        task.withLock { $0?.cancel() }
    }
}
