import ArgumentParser
import BFFAccess
import CommandSupport
import FoundationEssentials
import HTTPClient
import Logging

/// `--bff URL`, or this user's local server (started if none runs): the server a command talks
/// to (`apps publish` and `search`, `layout share`, `unshare` and `members`, `audit`).
struct ServerOption: ParsableArguments {
    @Option(help: ArgumentHelp("The server (after `termcanvas login`); without it, this user's local server.", valueName: "URL"))
    var bff: String?

    /// The commands' logger, writing to the dashboard's log file: the log system is set up once a
    /// process, however many servers a command asks (several registries).
    static let logger = LogSetup.bootstrapFile(at: Paths(environment: ProcessInfo.processInfo.environment).logFile,
                                                       label: "termcanvas.command")

    /// A client of the server, logging to the dashboard's log file.
    func client(configuration: HTTPClient.Configuration = .init()) async throws -> HTTPClient {
        let paths = Paths(environment: ProcessInfo.processInfo.environment)
        let logger = Self.logger
        let connector = BFFConnector(paths: paths, environment: ProcessInfo.processInfo.environment, logger: logger)
        var target = if let remote = try connector.remoteTarget(bff) { remote } else { try await connector.connectLocal().value }
        if let credential = target.credential {
            target = .remote(try await SessionRenewal.fresh(credential, store: paths.credentials, logger: logger))
        }
        return target.client(logger: logger, configuration: configuration)
    }

    /// The name this server's (and user's) shared canvases' copies are kept under here.
    func serverKey() throws -> String {
        let paths = Paths(environment: ProcessInfo.processInfo.environment)
        let connector = BFFConnector(paths: paths, environment: ProcessInfo.processInfo.environment, logger: Logger(label: "termcanvas.command"))
        return Paths.serverKey(for: try connector.remoteTarget(bff)?.credential)
    }
}
