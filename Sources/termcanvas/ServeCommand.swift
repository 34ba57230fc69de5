import ArgumentParser
import BFF
import Foundation
import Hummingbird
import Logging

/// `termcanvas serve`: the micro-app backends as a standalone server for a team.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the micro-app backend server (stops gracefully on SIGINT or SIGTERM)."
    )

    @Option(help: "Address to listen on.") var host = "127.0.0.1"
    @Option(help: "Port to listen on.") var port = 7450
    @Option(help: ArgumentHelp("The micro-apps to host, comma-separated.", valueName: "todo,calendar,chat"))
    var apps = MicroApp.allCases.map(\.rawValue).joined(separator: ",")
    @Option(help: ArgumentHelp(
        "Requests per second each user may make (bursts of twice that; 4× per address); 0 turns rate limits off.",
        valueName: "N"))
    var rateLimit = RateLimits().perUserPerSecond
    @Option(help: ArgumentHelp("Where the server keeps its database and signing secret.", valueName: "DIR"))
    var dataDir: String?

    func validate() throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port must be 0 to 65535, got \(port)") }
        guard rateLimit >= 0 else { throw ValidationError("--rate-limit must be 0 (off) or more, got \(rateLimit)") }
        do { _ = try MicroApp.parseList(apps) } catch { throw ValidationError("\(error)") }
    }

    func run() async throws {
        let paths = Paths(environment: ProcessInfo.processInfo.environment)
        let logger = LogSetup.bootstrapFile(at: paths.stateDirectory.appendingPathComponent("bff.log"), label: "termcanvas.bff")
        let configuration = BFFConfiguration(
            host: host, port: port, apps: try MicroApp.parseList(apps),
            dataDirectory: dataDir.map { URL(fileURLWithPath: $0) } ?? paths.bffDirectory,
            rateLimits: rateLimit == 0 ? .off : RateLimits(perUserPerSecond: rateLimit),
            onServerRunning: { port in
                FileHandle.standardError.write(Data("termcanvas: serving on http://\(host):\(port)\n".utf8))
            }
        )
        let app = try await buildApplication(configuration, logger: logger)
        try await app.runService()
    }
}
