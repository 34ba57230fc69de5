import ArgumentParser
import BFF
import CommandSupport
import Foundation

/// `termcanvas-bff migrate`: brings the database's schema up to date, then exits.
struct MigrateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Bring the server's database schema up to date and exit.",
        discussion: """
            Instances on PostgreSQL refuse to start on a newer schema and wait on an older one until this has run \
            (or one starts with `serve --migrate`). A SQLite database is migrated by the server that opens it.
            """
    )

    @OptionGroup var database: DatabaseOptions

    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        let location = try database.resolvedLocation(environment)
        let logger = LogSetup.bootstrapFile(at: Paths(environment: environment).bffLogFile, label: "termcanvas.bff")
        try await BFFStores.with(location, migrate: true, logger: logger) { _ in }
        print("\(location): schema up to date")
    }
}
