import ArgumentParser
import CanvasCore
import CanvasUI
import Foundation
import Logging
import NcursesTerminal

/// Runs the dashboard in the terminal.
struct Dashboard: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "run", abstract: "Run the dashboard (the default).")

    @OptionGroup var options: CanvasOptions

    func run() async throws {
        let paths = Paths(environment: ProcessInfo.processInfo.environment)
        let logger = try LogSetup.bootstrapFile(at: paths.logFile, label: "termcanvas")
        logger.info("starting", metadata: ["version": "\(TermCanvas.configuration.version)"])
        try await Self.runDashboard(options: options, logger: logger)
        logger.info("stopped")
    }

    @MainActor
    private static func runDashboard(options: CanvasOptions, logger: Logger) async throws {
        let noColor = !(ProcessInfo.processInfo.environment["NO_COLOR"] ?? "").isEmpty
        let terminal = try NcursesTerminal(options: .init(colors: !noColor))
        defer { terminal.stop() }
        let host = try Composition.makeHost(options: options, size: terminal.size, logger: logger, noColor: noColor)
        await AppLoop.run(host, on: terminal)
        host.shutdown()
    }
}
