import ArgumentParser
import CommandSupport
#if canImport(Glibc)
import Glibc
#endif

/// `termcanvas-bff`: the micro-app server, its users and its database schema. `termcanvas serve` and `termcanvas user`
/// run this executable, so the dashboard's own binary carries none of the server's libraries.
@main
struct TermCanvasBFF: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: invokedAs,
        abstract: "The TermCanvas micro-app server (what `termcanvas serve` and `termcanvas user` run).",
        version: BuildVersion.text,
        subcommands: [ServeCommand.self, UserCommand.self, MigrateCommand.self, SeedCommand.self, HealthCommand.self]
    )

    /// The command the user typed, for usage lines and help: `termcanvas` when `termcanvas serve`
    /// (or `user`, `migrate`) ran this executable, which it says in `TERMCANVAS_INVOKED_AS`.
    static var invokedAs: String {
        getenv("TERMCANVAS_INVOKED_AS").map { String(cString: $0) } == "termcanvas" ? "termcanvas" : "termcanvas-bff"
    }
}
