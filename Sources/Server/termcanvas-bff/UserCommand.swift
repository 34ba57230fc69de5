import ArgumentParser
import BFF
import CommandSupport
import Foundation
import ServerAPI
import ServerStore

/// `termcanvas user …`: the accounts of the micro-app server.
struct UserCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "user",
        abstract: "Add, list and delete the users of the micro-app server, say who is an admin, and see and end their sessions.",
        subcommands: [Add.self, List.self, Delete.self, Admin.self, Sessions.self]
    )

    /// No user of that name: no mistake of usage, so said without the usage line.
    static func noSuchUser(_ name: String) -> CommandError {
        CommandError("no user is named '\(name)': `\(TermCanvasBFF.invokedAs) user list` lists them")
    }

    struct Location: ParsableArguments {
        @OptionGroup var database: DatabaseOptions

        /// Runs `body` with the server's store.
        func withStore<T: Sendable>(_ body: (BFFStore) async throws -> T) async throws -> T {
            let environment = ProcessInfo.processInfo.environment
            let logger = LogSetup.bootstrapFile(at: Paths(environment: environment).bffLogFile, label: "termcanvas.bff")
            return try await BFFStores.with(try database.resolvedLocation(environment), logger: logger, body)
        }
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add a user; the password is asked for, or read from standard input when it is not a terminal.")
        @Argument var name: String
        @Flag(help: "The user may publish and withdraw micro-apps in the registry.") var admin = false
        @OptionGroup var location: Location

        func run() async throws {
            let password = try PasswordInput.new(prompt: "Password for \(name): ")
            try await location.withStore { store in _ = try await store.addUser(name: name, password: password, isAdmin: admin) }
            print(admin
                ? "Added \(name), an admin: they may publish micro-apps and read the audit log."
                : "Added \(name). `\(TermCanvasBFF.invokedAs) user admin \(name)` lets them publish micro-apps and read the audit log.")
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the users: each one's name, how they sign in, and `admin` for admins.",
            discussion: "One user a line, tab-separated; a header line first when the output is a terminal, none for a script.")
        @OptionGroup var location: Location

        func run() async throws {
            let users = try await location.withStore({ store in try await store.userAccounts() })
            if isatty(STDOUT_FILENO) == 1 { print(users.isEmpty ? "No users yet: `\(TermCanvasBFF.invokedAs) user add NAME` adds one." : "NAME\tSIGN-IN\tADMIN") }
            for (user, signIn) in users {
                let how = switch signIn {
                case .password: "password"
                case .singleSignOn(let issuer): "single sign-on (\(issuer))"
                case .tokenOnly: "token only"
                }
                print(([user.name, how] + (user.isAdmin ? ["admin"] : [])).joined(separator: "\t"))
            }
        }
    }

    struct Admin: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Make a user an admin (who may publish micro-apps and read the audit log), or with --revoke no longer one.",
            discussion: "With `serve --oidc-admin-group`, the provider's group decides at each sign-in instead.")
        @Argument var name: String
        @Flag(help: "Take the user's admin rights away.") var revoke = false
        @OptionGroup var location: Location

        func run() async throws {
            guard try await location.withStore({ store in try await store.setAdmin(name: name, !revoke) }) else {
                throw UserCommand.noSuchUser(name)
            }
            print(revoke ? "\(name) is no longer an admin." : "\(name) is an admin: they may publish micro-apps and read the audit log.")
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Delete a user and their data.")
        @Argument var name: String
        @OptionGroup var location: Location

        func run() async throws {
            guard try await location.withStore({ store in try await store.deleteUser(name: name) }) else { throw UserCommand.noSuchUser(name) }
            print("Deleted \(name) and their data.")
        }
    }

    struct Sessions: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List a user's sessions (each sign-in: how, from where, which machine, when); with --end, end them all.",
            discussion: "Their tokens are refused within a second on every instance of the server; the user signs in again.")
        @Argument var name: String
        @Flag(help: "End every session of the user.") var end = false
        @OptionGroup var location: Location

        func run() async throws {
            let (sessions, ended) = try await location.withStore { store -> ([SessionInfo], Int?) in
                guard let user = try await store.user(named: name) else { throw UserCommand.noSuchUser(name) }
                let sessions = try await store.sessions(of: user.id, current: nil)
                return (sessions, end ? try await store.endSessions(of: user, .all, by: AuditActor.serverOperator) : nil)
            }
            if let ended {
                print("Ended \(ended) session\(ended == 1 ? "" : "s") of \(name): their tokens are refused from now on.")
            } else {
                for line in SessionInfo.table(sessions) { print(line) }
            }
        }
    }
}
