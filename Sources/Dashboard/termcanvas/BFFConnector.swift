import AppModel
import BFFAccess
import CanvasCore
import CommandSupport
import FoundationEssentials
import Logging

/// Decides which BFF the dashboard uses and gets it ready: the remote one of `--bff URL` (whose
/// token `termcanvas login` stored), or this user's local server, started if none runs.
struct BFFConnector {
    let paths: Paths
    let environment: [String: String]
    let logger: Logger

    /// The credential of `--bff URL`, checked before the terminal changes mode so a missing login
    /// is a plain message on a normal screen.
    func remoteTarget(_ option: String?) throws -> BFFTarget? {
        guard let option else { return nil }
        let server = try ServerURL(option)
        guard let credential = try paths.credentials.credential(for: server) else {
            throw BFFAccessError.notLoggedIn(server: server.origin)
        }
        return .remote(credential)
    }

    /// Finds or starts the local server in the background (never on the main actor: starting one
    /// takes a moment, and the first frame does not wait for it).
    func connectLocal() -> Task<BFFTarget, any Error> {
        let launcher = LocalBFFLauncher(
            directory: RuntimeDirectory(environment: environment),
            command: [Paths.serverExecutable.path, "serve", "--local"],
            logFile: paths.bffLogFile.path
        )
        let logger = logger
        return Task.detached {
            do {
                let connection = try await launcher.connect()
                logger.info("local BFF ready", metadata: ["socket": "\(connection.socketPath)"])
                return .local(connection)
            } catch {
                logger.error("local BFF unavailable", metadata: ["error": "\(error)"])
                throw error
            }
        }
    }
}

/// Starts the local BFF again when the dashboard loses it (it was killed, or exited idle while
/// this dashboard was asleep): once per offline spell, so a server that cannot start is not
/// started in a loop. The live stream reconnects by itself once the new server listens.
@MainActor
final class LocalServerWatchdog {
    private let connector: BFFConnector
    private var subscription: Subscription?
    private var restarting = false

    init(connector: BFFConnector, bus: EventBus) {
        self.connector = connector
        subscription = bus.subscribe(to: SyncStatusChanged.self) { [weak self] changed, _ in
            guard changed.app == .todo else { return }
            self?.connectionChanged(to: changed.status.connection)
        }
    }

    private func connectionChanged(to connection: SyncStatus.Connection) {
        guard connection == .offline else {
            restarting = false
            return
        }
        guard !restarting else { return }
        restarting = true
        connector.logger.info("local BFF lost; starting it again")
        _ = connector.connectLocal()
    }

    func cancel() {
        subscription?.cancel()
    }
}
