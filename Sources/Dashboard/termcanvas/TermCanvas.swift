import CanvasUI
import ArgumentParser
import CMalloc
import CommandSupport
import MainLoop
#if canImport(Glibc)
import Glibc
#endif

/// Runs the command on the main thread's own loop (`MainLoop`), which the dashboard's terminal
/// input is watched by: `termcanvas` has no asynchronous `main`, whose dispatch main would give
/// the main queue to a worker thread and every key to a hand-over between threads.
@main
enum Launch {
    @MainActor
    static func main() {
        // One heap for every thread, set before any other starts: glibc gives each thread that
        // allocates at once with another an arena of its own, which keeps what it freed. A team
        // dashboard's registry of 500 packages, read on a worker thread, peaked 5 - 6 MB higher
        // for it (41.7 -> 35.9 MB); its threads rarely allocate together, so nothing waits.
        _ = tc_use_one_heap()
        MainLoop.run { await TermCanvas.start() }
    }
}

/// `termcanvas`: the dashboard by default, plus subcommands for scripts and docs.
///
/// Every command names itself (`commandName`): a name derived from the type goes through
/// `String(describing:)`, whose casts scan the runtime's conformance tables once per command,
/// ~2 ms of every start (`perf record` of the start, issue 28).
struct TermCanvas: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "termcanvas",
        abstract: "A terminal canvas dashboard of widget panes you arrange by keyboard.",
        version: BuildVersion.text,
        subcommands: [Dashboard.self, Render.self, LayoutCommand.self, AppsCommand.self, KeysCommand.self, StatsCommand.self, AuditCommand.self, ServeCommand.self, UserCommand.self, MigrateCommand.self, LoginCommand.self, LogoutCommand.self, SessionsCommand.self, CalendarCommand.self],
        defaultSubcommand: Dashboard.self
    )

    /// When the process started, as near as its Swift code can tell: `canvasLoadTime` counts from here.
    static let started = ContinuousClock.now

    static func start() async {
        _ = started
        if let typo = CommandTypo.message(for: Array(CommandLine.arguments.dropFirst()), root: Self.self) {
            let line = Array("Error: \(typo)\n".utf8)
            _ = line.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
            Glibc.exit(ExitCode.validationFailure.rawValue)
        }
        await runReportingSafely()
    }

    /// ArgumentParser's `main`, but a failure's message goes through `TerminalText.safeLines`: a
    /// path, a file's name or a server's answer in it cannot move the cursor, set the window title
    /// or hide text.
    private static func runReportingSafely() async {
        do {
            var command = try parseAsRoot(nil)
            if var asynchronous = command as? any AsyncParsableCommand { try await asynchronous.run() } else { try command.run() }
        } catch {
            let code = exitCode(for: error), message = fullMessage(for: error)
            if !message.isEmpty {
                // Help and the version are ours, and go to standard output as ArgumentParser's do.
                if code.isSuccess { Console.output(message + "\n") } else { Console.error(TerminalText.safeLines(message) + "\n") }
            }
            Glibc.exit(code.rawValue)
        }
    }
}
