import AppInstalls
import AppModel
import AppPanes
import ArgumentParser
import CanvasFiles
import CanvasUI
import CommandSupport
import FoundationEssentials
import LayoutStore
import MicroAppGenerator
import MicroAppHost
import PrivateFiles

/// `termcanvas apps …`: the micro-apps installed on this machine and what they may do. Each
/// command says what it did; errors go to stderr with a non-zero exit status.
struct AppsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "apps",
        abstract: "List, add, remove, grant, revoke micro-apps and read their logs; publish, search, install and update from registries.",
        discussion: """
            A micro-app on this machine runs in a sandbox of its own: it gets what its app.yaml asks for and you grant, and \
            nothing else of your files, network or processes (docs/security.md says what each wall holds). A remote app runs \
            on its own server and gets the keys you type in its pane. Grant only what you would give its author.
            """,
        subcommands: [List.self, Add.self, New.self, AppsTry.self, Remove.self, Grant.self, Revoke.self, Log.self, Publish.self, Keys.self, Search.self,
                      Install.self, AppData.self, Update.self, Suggest.self, Withdraw.self, Publishers.self]
    )

    static var paths: Paths { Paths(environment: ProcessInfo.processInfo.environment) }

    static func folders(_ paths: Paths) -> AppFolders {
        AppFolders.standard(configDirectory: paths.configDirectory, executable: Paths.executable)
    }

    static func store(_ paths: Paths) throws -> LayoutStore {
        try LayoutStore.open(at: paths.layoutDatabase).store
    }

    /// The installed app of `id`, or an error that says what is installed.
    static func app(_ id: String, in paths: Paths) throws -> InstalledApp {
        let found = folders(paths).scan()
        guard let app = found.apps.first(where: { $0.id == id }) else {
            let known = found.apps.map(\.id).joined(separator: ", ")
            throw CommandError("no micro-app '\(TerminalText.safe(id))' is installed" + (known.isEmpty ? "" : " (installed: \(known))"))
        }
        return app
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List the installed micro-apps and whether they may run.")

        func run() async throws {
            let paths = AppsCommand.paths
            let found = AppsCommand.folders(paths).scan()
            let store = try AppsCommand.store(paths)
            for app in found.apps {
                let allowed = switch try store.grant(of: app.id)?.digest {
                case nil: "not granted"
                case SandboxSupport.current.grantDigest(of: app): "granted"
                case app.digest: "granted in a sandbox this system lacks"
                default: "manifest changed since granted"
                }
                let kind = app.manifest.sample.map { "sample every \(Int($0.everySeconds)) s" } ?? "protocol \(app.manifest.protocolVersion?.description ?? "?")"
                // A generated app shows as such, and last the description it was made from.
                let prompt = try? String(contentsOf: app.folder.appendingPathComponent(GeneratedApp.promptFile), encoding: .utf8)
                let source = if app.isShipped { "shipped" } else if let origin = app.origin {
                    "from \(origin.registryName)" + (origin.withdrawnAt == nil ? "" : ", withdrawn")
                } else {
                    prompt == nil ? "user" : "generated"
                }
                let fields = [app.id, app.manifest.version, app.manifest.name, kind, source, allowed, AppsCommand.containment(app),
                              app.folder.path] + (prompt.map { [$0] } ?? [])
                print(fields.map(TerminalText.safe).joined(separator: "\t"))
            }
            if SandboxSupport.current.warning != nil, !found.apps.isEmpty {
                Console.error("termcanvas: apps are \(SandboxSupport.current.summary)\n")
            }
            for problem in found.problems { Console.error("termcanvas: \(TerminalText.safe(problem))\n") }
            if !found.problems.isEmpty { throw ExitCode.failure }
        }
    }

    /// What an app runs in: "sandboxed" with what it may touch beyond its own folders and the
    /// limits it is held to, or why not.
    fileprivate static func containment(_ app: InstalledApp) -> String {
        guard SandboxSupport.current.isEnforced else { return "not sandboxed" }
        let access = app.manifest.machine.inWords + (app.isRemote ? [] : [app.manifest.limits.inWords])
        return (SandboxSupport.current.warning == nil ? "sandboxed" : "partly sandboxed")
            + (access.isEmpty ? "" : ": " + access.joined(separator: "; "))
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: "Install the micro-app in PATH (a folder with an app.yaml) for this user.")

        @Argument(help: "The app's folder, or its app.yaml.") var path: String
        @Flag(help: "Replace an installed app of the same id.") var replace = false

        func run() async throws {
            let source = try AppFolders.folder(named: path)
            let app = try AppFolders.read(source, isShipped: false)
            guard app.manifest.entry == nil else {
                throw CommandError("\(app.id) is a remote app (its manifest has entry:): `termcanvas apps publish \(TerminalText.safe(source.path))` publishes it to a server")
            }
            let paths = AppsCommand.paths
            let target = paths.appsDirectory.appendingPathComponent(app.id)
            let replacing = FileManager.default.fileExists(atPath: target.path)
            if replacing, !replace { throw CommandError("\(app.id) is already installed in \(target.path); --replace replaces it") }
            // A copy of a shipped app wins over it, but only from the next start unless --replace
            // says so: a running pomodoro keeps its count.
            let shipped = InstalledApps(paths: paths).apps.contains { $0.id == app.id && $0.isShipped }
            _ = try AppSwap.install(app.id, in: paths.appsDirectory) { try Self.copy(source, to: $0) }
            // Installed by hand: no longer the package it may have been.
            try PackageInstaller.record(nil, of: app.id, in: AppsCommand.folders(paths))
            let name = TerminalText.safe("\(app.id) \(app.manifest.version)")
            if let hint = app.manifest.memoryHint { Console.error((TerminalText.safe("termcanvas: careful: \(hint)") + "\n")) }
            if shipped, !replace {
                return print("Installed \(name) in \(TerminalText.safe(target.path)); it takes the place of the shipped \(app.id) " +
                             "when a dashboard starts (running ones keep theirs; --replace restarts them with it now)")
            }
            // Running dashboards take it now; a running copy of it restarts with its saved state.
            RunningDashboards.tellAppsChanged(paths: paths)
            print(replacing || shipped
                  ? "Installed \(name) again; its panes in running dashboards restart with their saved state"
                  : "Installed \(name) in \(TerminalText.safe(target.path)); running dashboards offer it in their catalog (arrange mode, a)")
        }

        /// Copies a folder, each directory 0700 and each file readable only by its owner
        /// (executables stay executable).
        static func copy(_ source: URL, to target: URL) throws {
            try PrivatePath.makeDirectory(target)
            for name in try FileManager.default.contentsOfDirectory(atPath: source.path) {
                let from = source.appendingPathComponent(name)
                let to = target.appendingPathComponent(name)
                let attributes = try FileManager.default.attributesOfItem(atPath: from.path)
                switch attributes[.type] as? FileAttributeType {
                case .typeDirectory?:
                    try copy(from, to: to)
                case .typeRegular?:
                    try FileManager.default.copyItem(at: from, to: to)
                    // Asked of the file, not read from its attributes: their mode's type is not `Int`
                    // here, which once made every copy 0600 and an app's `./run` no program.
                    let mode = FileManager.default.isExecutableFile(atPath: from.path) ? 0o700 : 0o600
                    try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: to.path)
                default:
                    throw CommandError("\(TerminalText.safe(from.path)): only plain files and folders are copied")
                }
            }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "remove", abstract: "Uninstall a micro-app this user added, and forget its grant.")

        @Argument(help: "The app's id.") var id: String

        func run() async throws {
            let paths = AppsCommand.paths
            let app = try AppsCommand.app(id, in: paths)
            guard !app.isShipped else {
                throw CommandError("\(app.id) is shipped with TermCanvas and cannot be removed; `termcanvas apps revoke \(app.id)` stops it running")
            }
            try FileManager.default.removeItem(at: app.folder)
            try PackageInstaller.record(nil, of: app.id, in: AppsCommand.folders(paths))
            try AppsCommand.store(paths).revokeGrant(of: app.id)
            print(TerminalText.safe("Removed \(app.id) and its grant."))
        }
    }

    struct Grant: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "grant",
            abstract: "Let a micro-app run with what its manifest asks for (until the manifest changes).")

        @Argument(help: "The app's id.") var id: String

        func run() async throws {
            let paths = AppsCommand.paths
            let app = try AppsCommand.app(id, in: paths)
            try AppsCommand.store(paths).grant(app: app.id, digest: SandboxSupport.current.grantDigest(of: app))
            print(TerminalText.safe("Granted \(app.id) \(app.manifest.version) what its app.yaml asks for, until that changes; "
                                    + "`termcanvas apps revoke \(app.id)` takes it back."))
        }
    }

    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "revoke", abstract: "Take back a micro-app's grant: it asks again before it runs.")

        @Argument(help: "The app's id.") var id: String

        func run() async throws {
            let paths = AppsCommand.paths
            guard try AppsCommand.store(paths).revokeGrant(of: id) else {
                throw CommandError("\(TerminalText.safe(id)) has no grant")
            }
            print(TerminalText.safe("Took back \(id)'s grant: it asks again before it runs."))
        }
    }

    struct Log: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "log", abstract: "Print a micro-app's log: its standard error and what it logged.")

        @Argument(help: "The app's id.") var id: String

        func run() async throws {
            let paths = AppsCommand.paths
            let app = try AppsCommand.app(id, in: paths)
            guard let text = MicroAppRuntime.readLog(of: app.id, in: paths.appLogDirectory) else {
                throw CommandError("\(app.id) has no log yet")
            }
            for line in text.split(separator: "\n") { print(TerminalText.safe(String(line))) }
        }
    }
}
