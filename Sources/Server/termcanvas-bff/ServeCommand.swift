import ArgumentParser
import BFF
import BFFAccess
import CanvasCore
import CommandSupport
import Foundation
import Hummingbird
import Logging
import PrivateFiles
import ServerHTTP
import ServerProxy
import ServerStore
import ServiceLifecycle

/// `termcanvas serve`: the micro-app backends as a standalone server for a team, or (`--local`)
/// as this user's embedded server that dashboards start on demand.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the micro-app backend server (stops gracefully on SIGINT or SIGTERM).",
        discussion: """
            With --local it is this user's embedded server, the one `termcanvas` starts by itself: \
            it listens on a unix socket in $XDG_RUNTIME_DIR/termcanvas/ (or /tmp/termcanvas-UID/), \
            writes the local user's token beside it (mode 0600), runs at most once per user, and \
            exits after --idle-exit seconds without requests or connected dashboards.
            """
    )

    @Option(help: "Address to listen on.") var host = "127.0.0.1"
    @Option(help: "Port to listen on.") var port = 7450
    @Option(help: ArgumentHelp("The micro-apps to host, comma-separated.", valueName: "todo,calendar,chat"))
    var apps = ServerApp.allCases.map(\.rawValue).joined(separator: ",")
    @Option(help: ArgumentHelp(
        "Requests per second each user may make (bursts of twice that; 4× per address); 0 turns rate limits off.",
        valueName: "N"))
    var rateLimit = RateLimits().perUserPerSecond
    @Option(help: ArgumentHelp(
        "Kibibytes of request bodies each user may send in writes per second (bursts of four times that), so one user's writes cannot hold up everyone's.",
        valueName: "KIB"))
    var writeLimit = RateLimits().writeBytesPerUserPerSecond >> 10
    @Option(help: ArgumentHelp(
        "How many instances share the database behind a load balancer that spreads requests evenly: each enforces its share of every rate limit.",
        valueName: "N"))
    var instances = 1
    @Option(help: ArgumentHelp(
        "The address of a reverse proxy in front of the server, or a network of them (10.89.0.0/16; repeatable): its X-Forwarded-For names the client for per-address limits, and its connections count against --connections only.",
        valueName: "ADDRESS|NETWORK"))
    var trustedProxy: [String] = []
    @OptionGroup var database: DatabaseOptions
    @OptionGroup(title: "Single sign-on") var singleSignOn: SingleSignOnOptions
    @Option(help: ArgumentHelp("With PostgreSQL: the most database connections this instance opens.", valueName: "N"))
    var databaseConnections = 20
    @Flag(help: "With PostgreSQL: bring an older schema up to date at start, instead of waiting for `termcanvas-bff migrate`.")
    var migrate = false
    @Option(help: ArgumentHelp(
        "A file holding the secret tokens are signed with (32 characters or more), the same for every instance. "
            + "Default: one kept beside a SQLite database, or in the PostgreSQL database.",
        valueName: "FILE"))
    var jwtSecretFile: String?
    @Option(help: ArgumentHelp("Serve HTTPS with this certificate (PEM, the chain after it); needs --tls-key.", valueName: "FILE"))
    var tlsCert: String?
    @Option(help: ArgumentHelp("The private key (PEM) of --tls-cert.", valueName: "FILE"))
    var tlsKey: String?
    @Option(help: ArgumentHelp("Live event streams one user may hold open.", valueName: "N"))
    var streamsPerUser = LiveEventHub.StreamLimits().perUser
    @Option(help: ArgumentHelp("Live event streams open at once, all users together.", valueName: "N"))
    var streams = LiveEventHub.StreamLimits().total
    @Option(help: ArgumentHelp("Connections one address may hold open.", valueName: "N"))
    var connectionsPerAddress = ConnectionLimits().perAddress
    @Option(help: ArgumentHelp("Connections open at once (keep it below the open-file limit).", valueName: "N"))
    var connections = ConnectionLimits().total
    @Option(help: ArgumentHelp("Seconds between health checks of each remote micro-app's entry.", valueName: "SECONDS"))
    var healthInterval = 10
    @Option(help: ArgumentHelp(
        "A network remote apps' entries may be in besides the public internet (repeatable): a private range, or loopback when "
            + "the server does not listen on loopback itself. Link-local, multicast and unspecified addresses are never allowed.",
        valueName: "CIDR"))
    var allowEntryNetwork: [String] = []
    @Flag(help: "Allow remote apps' entries over plain http:// on addresses that are not loopback (their traffic crosses the network in clear).")
    var allowHTTPEntries = false
    @Option(help: ArgumentHelp("On SIGTERM, seconds to finish requests under way before they are cut off.", valueName: "SECONDS"))
    var drainTimeout = 10
    @Option(help: ArgumentHelp(
        "Where the log goes: a file, or - for standard error (journald, a container's log). Default: bff.log in $XDG_STATE_HOME/termcanvas.",
        valueName: "FILE|-"))
    var logFile: String?
    @Flag(help: "Run as this user's embedded local server on a unix socket (instead of --host/--port).")
    var local = false
    @Option(help: ArgumentHelp("With --local: exit after this many idle seconds; 0 never exits.", valueName: "SECONDS"))
    var idleExit = 900

    func validate() throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port must be 0 to 65535, got \(port)") }
        guard rateLimit >= 0 else { throw ValidationError("--rate-limit must be 0 (off) or more, got \(rateLimit)") }
        guard (64...(1 << 20)).contains(writeLimit) else {
            throw ValidationError("--write-limit must be 64 to 1048576 KiB a second (the largest request is 64 KiB), got \(writeLimit)")
        }
        guard healthInterval >= 1 else { throw ValidationError("--health-interval must be 1 or more, got \(healthInterval)") }
        guard idleExit >= 0 else { throw ValidationError("--idle-exit must be 0 (never) or more, got \(idleExit)") }
        do { _ = try ServerApp.parseList(apps) } catch { throw ValidationError("\(error)") }
        for (name, value) in [("--streams-per-user", streamsPerUser), ("--streams", streams),
                              ("--connections-per-address", connectionsPerAddress), ("--connections", connections)] {
            guard value >= 1 else { throw ValidationError("\(name) must be 1 or more, got \(value)") }
        }
        guard (tlsCert == nil) == (tlsKey == nil) else { throw ValidationError("--tls-cert and --tls-key go together") }
        guard !local || tlsCert == nil else { throw ValidationError("--local serves on a private unix socket; it takes no --tls-cert") }
        guard !local || singleSignOn.oidcIssuer == nil else { throw ValidationError("--local is this user's own server; it takes no --oidc-issuer") }
        guard drainTimeout >= 1 else { throw ValidationError("--drain-timeout must be 1 or more, got \(drainTimeout)") }
        guard instances >= 1 else { throw ValidationError("--instances must be 1 or more, got \(instances)") }
        for proxy in trustedProxy where IPNetwork(proxy) == nil {
            throw ValidationError("--trusted-proxy takes an address such as 10.0.0.5 or a network such as 10.89.0.0/16, got \(proxy)")
        }
        for network in allowEntryNetwork where IPNetwork(network) == nil {
            throw ValidationError("--allow-entry-network takes a network such as 10.0.0.0/8 or fd00::/8, got \(network)")
        }
        guard databaseConnections >= 2 else { throw ValidationError("--database-connections must be 2 or more, got \(databaseConnections)") }
    }

    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        let paths = Paths(environment: environment)
        let logger = switch logFile {
        case "-": LogSetup.bootstrapStandardError(label: "termcanvas.bff")
        // A folder the user named keeps its mode.
        case let file?: LogSetup.bootstrapFile(at: URL(fileURLWithPath: file), label: "termcanvas.bff", folder: .keep)
        case nil: LogSetup.bootstrapFile(at: paths.bffLogFile, label: "termcanvas.bff")
        }
        // A cap above the open-file limit would never be reached: descriptors run out first, and
        // then every new connection, /health included, waits.
        let fit = OpenFileLimit.connectionsThatFit()
        let connections = min(self.connections, fit)
        if connections < self.connections {
            let warning = "--connections lowered from \(self.connections) to \(connections) to fit the open-file limit"
            logger.warning("\(warning)")
            FileHandle.standardError.write(Data("termcanvas: \(warning)\n".utf8))
        }
        let location = try database.location(environment)
        if local, case .postgres = location { throw ValidationError("--local keeps its data in SQLite; it takes no postgres:// database") }
        var configuration = BFFConfiguration(
            host: host, port: port, apps: try ServerApp.parseList(apps),
            dataDirectory: database.dataDirectory(environment),
            database: location, databaseConnections: databaseConnections, migrateDatabase: migrate,
            jwtSecret: try jwtSecretFile.map { try PrivateSecret.read($0, option: "--jwt-secret-file", minimumLength: 32) },
            rateLimits: rateLimit == 0 ? .off : RateLimits(perUserPerSecond: rateLimit, writeBytesPerUserPerSecond: writeLimit << 10, instances: instances),
            limits: ServerLimits(connections: ConnectionLimits(total: connections, perAddress: connectionsPerAddress),
                                 streams: LiveEventHub.StreamLimits(perUser: streamsPerUser, total: streams)),
            trustedProxies: TrustedProxies(trustedProxy) ?? .none,
            tls: tlsCert.map { TLSFiles(certificate: $0, privateKey: tlsKey ?? "") },
            singleSignOn: try singleSignOn.settings(),
            healthInterval: .seconds(healthInterval),
            allowedEntryNetworks: allowEntryNetwork.compactMap(IPNetwork.init),
            allowsHTTPEntries: allowHTTPEntries,
            onServerRunning: { [host, scheme = tlsCert == nil ? "http" : "https"] port in
                FileHandle.standardError.write(Data("termcanvas: serving on \(scheme)://\(host):\(port)\n".utf8))
            },
            onWaitingForSchema: { message in FileHandle.standardError.write(Data("termcanvas: \(message)\n".utf8)) }
        )
        if let location { logger.info("database", metadata: ["location": "\(location)"]) }
        guard local else {
            // SIGTERM drains: no new connections, live streams told to reconnect (elsewhere),
            // requests under way finished; what is left after --drain-timeout is cancelled.
            var group = ServiceGroupConfiguration(services: [.init(service: try await buildApplication(configuration, logger: logger))],
                                                  gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
            group.maximumGracefulShutdownDuration = .seconds(drainTimeout)
            group.maximumCancellationDuration = .seconds(2)
            try await ServiceGroup(configuration: group).run()
            return
        }
        let directory = RuntimeDirectory(environment: environment)
        try directory.prepare()
        guard let lock = try InstanceLock.acquire(directory.lock) else {
            FileHandle.standardError.write(Data("termcanvas: a local server already runs (\(directory.socket.path))\n".utf8))
            return
        }
        // Under the lock, whatever is at the socket path is left over from a server that died.
        unlink(directory.socket.path)
        defer { unlink(directory.socket.path) }
        configuration.unixSocketPath = directory.socket.path
        configuration.localAccount = LocalAccount(userName: LocalAccount.defaultUserName) { token in
            try PrivateFile.write(token, to: directory.token)
        }
        configuration.onServerRunning = { _ in
            FileHandle.standardError.write(Data("termcanvas: local server on \(directory.socket.path)\n".utf8))
        }
        logger.info("local server starting", metadata: ["socket": "\(directory.socket.path)", "idleExit": "\(idleExit)"])
        let app = try await buildApplication(configuration, logger: logger)
        var services = [ServiceGroupConfiguration.ServiceConfiguration(service: app)]
        if idleExit > 0 {
            services.append(.init(
                service: IdleExitService(activity: configuration.activity, timeout: .seconds(idleExit)),
                successTerminationBehavior: .gracefullyShutdownGroup
            ))
        }
        try await ServiceGroup(configuration: .init(
            services: services, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger
        )).run()
        logger.info("local server stopped")
        withExtendedLifetime(lock) {}
    }
}

