import ArgumentParser
import BFF
import CommandSupport
import Foundation

/// `termcanvas user …`: the accounts of the micro-app server.
struct UserCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "user",
        abstract: "Add, list and delete the users of the micro-app server.",
        subcommands: [Add.self, List.self, Delete.self]
    )

    struct Location: ParsableArguments {
        @Option(help: ArgumentHelp("The server's data directory (as for `serve`).", valueName: "DIR"))
        var dataDir: String?

        func store() throws -> any BFFStore {
            let directory = dataDir.map { URL(fileURLWithPath: $0) }
                ?? Paths(environment: ProcessInfo.processInfo.environment).bffDirectory
            return try SQLiteStore.open(at: BFFConfiguration(dataDirectory: directory).databaseURL)
        }
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add a user; the password is asked for, or read from standard input when it is not a terminal.")
        @Argument var name: String
        @Flag(help: "The user may publish and withdraw micro-apps in the registry.") var admin = false
        @OptionGroup var location: Location

        func run() async throws {
            let password = try PasswordInput.read(prompt: "Password for \(name): ")
            _ = try await location.store().addUser(name: name, password: password, isAdmin: admin)
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the users.")
        @OptionGroup var location: Location

        func run() async throws {
            for user in try await location.store().users() { print(user.name + (user.isAdmin ? "\tadmin" : "")) }
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Delete a user and their data.")
        @Argument var name: String
        @OptionGroup var location: Location

        func run() async throws {
            guard try await location.store().deleteUser(name: name) else { throw ValidationError("no user named '\(name)'") }
        }
    }
}
