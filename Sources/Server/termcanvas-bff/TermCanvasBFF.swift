import ArgumentParser

/// `termcanvas-bff`: the micro-app server, its users and its database schema. `termcanvas serve` and `termcanvas user`
/// run this executable, so the dashboard's own binary carries none of the server's libraries.
@main
struct TermCanvasBFF: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "termcanvas-bff",
        abstract: "The TermCanvas micro-app server (what `termcanvas serve` and `termcanvas user` run).",
        version: "0.1.0",
        subcommands: [ServeCommand.self, UserCommand.self, MigrateCommand.self, SeedCommand.self]
    )
}
