import AppInstalls
import AppModel
import AppPackages
import ArgumentParser
import CanvasFiles
import CanvasUI
import CommandSupport
import FoundationEssentials
import HTTPClient
import MicroAppHost
import ServerAPI

extension AppsCommand {
    struct Install: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "install",
            abstract: "Install a micro-app package from a registry: shows its page, asks, checks its digest, installs and grants it.",
            discussion: """
                Without --bff every registry you follow is asked (your own server and each you are logged in to); a package \
                in two of them is named REGISTRY/ID. The download must have the digest its page shows, and its app.yaml must \
                ask for exactly the permissions the page lists, or nothing is installed.
                """)

        @Argument(help: ArgumentHelp("The package: ID, ID@VERSION, REGISTRY/ID or REGISTRY/ID@VERSION.", valueName: "package"))
        var package: String
        @Flag(help: "Install without asking (for scripts); the page is still printed.") var yes = false
        @Flag(help: "Replace an app of the same id installed otherwise (apps add, or another registry).") var replace = false
        @Flag(help: "Take its newest version even when that is a pre-release (1.2.0-rc.1); ID@VERSION names one.") var pre = false
        @OptionGroup var server: ServerOption

        func run() async throws {
            let name = try PackageName(package)
            let paths = AppsCommand.paths
            let page = try await Self.find(name, pre: pre, in: try Registries.followed(server, naming: name.registry))
            let installed = AppsCommand.folders(paths).scan().apps.filter { $0.id == page.id }
            // A shipped app's id is reserved: a package of it replaces it only when asked by registry and with --replace.
            if installed.contains(where: \.isShipped) {
                guard name.registry != nil || server.bff != nil, replace else {
                    throw CommandError("\(page.id) is an app shipped with TermCanvas; \(TerminalText.safe(page.registry.name))'s package of that id "
                                       + "is someone else's. To run theirs in its place: termcanvas apps install "
                                       + "\(TerminalText.safe(page.registry.name))/\(page.id) --replace")
                }
                print(TerminalText.safe("Careful: this package takes the id of the shipped \(page.id); every \(page.id) pane will run it instead."))
            }
            if let mine = installed.first(where: { !$0.isShipped }), !replace {
                let from = mine.origin.map { "from \($0.registryName), version \($0.version)" } ?? "with apps add"
                throw CommandError("\(page.id) is already installed (\(TerminalText.safe(from))); apps update \(page.id) takes a newer version, --replace replaces it")
            }
            for line in page.lines { print(line) }
            // The key kept when it was installed from this registry before (replaced with --replace).
            let pinned = installed.compactMap(\.origin).first { $0.registry == page.registry.key }?.publisherKey.flatMap(PublicKey.init(base64:))
            let key = try PublisherCheck.vet(try page.trust(pinned: pinned), pinned: pinned, page: page, unattended: yes)
            if !yes {
                guard Confirmation.ask("Enter installs it and lets it do the above; Esc or n does not.") else {
                    // A script's run without --yes is no answer of a person: said as a failure, naming the flag.
                    guard Confirmation.isInteractive else {
                        throw CommandError("\(page.id) was not installed: no yes came (standard input is not a terminal); "
                                           + "`termcanvas apps install \(TerminalText.safe(package)) --yes` installs it without asking")
                    }
                    return print("\nNot installed.")
                }
                print("")
            }
            let app = try await PackageInstaller(paths: paths).install(page, from: try await page.registry.client(), grant: true, publisherKey: key)
            print(TerminalText.safe("Installed \(app.id) \(app.manifest.version) from \(page.registry.name) in \(app.folder.path); "
                                    + "running dashboards offer it in their catalog (arrange mode, a)"))
        }

        /// The package's page in the one registry that has it.
        static func find(_ name: PackageName, pre: Bool = false, in registries: [Registry]) async throws -> PackagePage {
            var found: [PackagePage] = []
            var unreachable: [String] = []
            let answers = RegistryAnswers(AppsCommand.paths, logger: ServerOption.logger)
            for registry in registries {
                do {
                    if let page = try await PackagePage.fetch(name.id, version: name.version, pre: pre, from: registry,
                                                              client: try await registry.client(), answers: answers) { found.append(page) }
                } catch where registries.count > 1 {
                    // One registry of several: what it says is told, the others still asked.
                    unreachable.append(PackageInstaller.words(error))
                }
            }
            guard found.count <= 1 else {
                throw CommandError("\(name.id) is in \(found.count) registries: name one, as "
                                   + found.map { "\($0.registry.name)/\(name.id)" }.joined(separator: " or "))
            }
            guard let page = found.first else {
                let asked = registries.map(\.name).joined(separator: ", ")
                throw CommandError("no package \(name.id) in \(asked)" + (unreachable.isEmpty ? "" : " (" + unreachable.joined(separator: "; ") + ")")
                                   + ": termcanvas apps search finds what there is")
            }
            // A registry that did not answer may have it too: the one that did is not taken in its place unnamed.
            guard unreachable.isEmpty else {
                throw CommandError("\(unreachable.joined(separator: "; ")); so \(name.id) was not looked for everywhere. "
                                   + "To take it from \(TerminalText.safe(page.registry.name)), which has it: termcanvas apps install "
                                   + "\(TerminalText.safe(page.registry.name))/\(name.id)")
            }
            return page
        }
    }

    struct Update: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "update",
            abstract: "Take newer versions of installed packages, each from the registry it came from.",
            discussion: """
                A version that asks for nothing more is taken as it is (its grant carries over). One that asks for more shows \
                what it adds and asks first. A version the registry withdrew stays installed, marked withdrawn.
                """)

        @Argument(help: "The app's id; without it, every installed package.") var id: String?
        @Flag(help: "Take versions that ask for more without asking (for scripts); what they add is still printed.") var yes = false
        @Flag(help: "Only list what would change.") var check = false
        @Flag(help: "Take pre-releases (1.2.0-rc.1) too; without it, only releases are offered.") var pre = false

        func run() async throws {
            let paths = AppsCommand.paths
            let folders = AppsCommand.folders(paths)
            let installed = folders.scan().apps.filter { $0.origin != nil && (id == nil || $0.id == id) }
            if let id, installed.isEmpty {
                _ = try AppsCommand.app(id, in: paths)
                throw CommandError("\(TerminalText.safe(id)) was not installed from a registry (apps add installed it): there is nothing to update it from")
            }
            var failures = 0
            for app in installed {
                guard let origin = app.origin else { continue }
                do {
                    try await update(app, from: origin, paths: paths, folders: folders)
                } catch {
                    failures += 1
                    Console.error("termcanvas: \(app.id): \(PackageInstaller.words(error))\n")
                }
            }
            if installed.isEmpty { print("No packages are installed: termcanvas apps install ID installs one") }
            if failures > 0 { throw ExitCode.failure }
        }

        private func update(_ app: InstalledApp, from origin: PackageOrigin, paths: Paths, folders: AppFolders) async throws {
            let registry = Registry(key: origin.registry)
            let label = TerminalText.safe("\(app.id) \(origin.version)")
            let client = try await registry.client()
            let detail = try await RegistryAnswers(paths, logger: ServerOption.logger).detail(of: app.id, in: registry, client: client)
            let mine = detail?.versions.first { $0.version == origin.version }
            let withdrawnAt = detail == nil ? origin.withdrawnAt ?? Date().formatted(.iso8601) : mine?.withdrawnAt
            if withdrawnAt != origin.withdrawnAt, !check {
                var marked = origin
                marked.withdrawnAt = withdrawnAt
                try PackageInstaller.record(marked, of: app.id, in: folders)
            }
            guard let detail, detail.app.kind == .package,
                  let offered = PackagePage.offered(in: detail, pre: pre), let have = SemanticVersion(origin.version), offered > have else {
                let state = withdrawnAt != nil ? "withdrawn from \(registry.name); kept here, marked withdrawn" : "up to date"
                return print("\(label): \(state)")
            }
            guard let page = try PackagePage.page(of: app.id, version: offered.description, in: detail, from: registry) else { return }
            let pinned = origin.publisherKey.flatMap(PublicKey.init(base64:))
            let trust = try page.trust(pinned: pinned)
            // What the installed app.yaml asks for (checked against its page when it was installed),
            // never what the server now says the old version asked for.
            let added = page.package.permissions.added(since: PackagePermissions(app.manifest))
            print("\(label) → \(page.version) from \(registry.name)" + (withdrawnAt != nil ? " (yours was withdrawn)" : ""))
            guard !check else { return }
            let key = try PublisherCheck.vet(trust, pinned: pinned, page: page, unattended: yes)
            if !added.isEmpty {
                print("  it asks for more than \(origin.version) did:")
                for line in added.inWords { print("    + " + TerminalText.safe(line)) }
                if let warning = SandboxSupport.current.warning { print("  " + warning) }
            }
            if !added.isEmpty, !yes {
                guard Confirmation.ask("Enter takes it and lets it do that too; Esc or n keeps \(origin.version).") else {
                    return print("\nKept \(label).")
                }
                print("")
            }
            // Granted as it runs here now: a grant given where apps were contained does not carry
            // over to where they are not.
            let wasGranted = try AppsCommand.store(paths).grant(of: app.id)?.digest == SandboxSupport.current.grantDigest(of: app)
            let updated = try await PackageInstaller(paths: paths).install(page, from: client, grant: wasGranted, publisherKey: key)
            print(TerminalText.safe("Updated \(updated.id) to \(updated.manifest.version)"
                                    + (wasGranted ? "" : " (not granted: its pane asks before it runs)")))
        }
    }

    struct Publishers: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "publishers",
            abstract: "List who may publish a package besides admins; admins add and remove them.")

        @Argument(help: "The package's id (it need not be published yet).") var id: String
        @Option(help: ArgumentHelp("Let this user publish its versions.", valueName: "user")) var add: [String] = []
        @Option(help: ArgumentHelp("Take that back.", valueName: "user")) var remove: [String] = []
        @OptionGroup var server: ServerOption

        func run() async throws {
            guard ManifestRules.isAppID(id) else { throw ValidationError("the id \(ManifestRules.appIDRule)") }
            let client = try await server.client()
            for user in add {
                do { _ = try await client.send(HTTPClient.Request(.put, APIPath.registryPublisher(id, user: user))) } catch {
                    throw CommandError(explaining: error, doing: "make \(user) a publisher of \(id)")
                }
            }
            for user in remove {
                do { try await client.delete(APIPath.registryPublisher(id, user: user)) } catch {
                    throw CommandError(explaining: error, doing: "take back \(user)'s right to publish \(id)")
                }
            }
            let publishers: [PackagePublisher]
            do { publishers = try await client.get(APIPath.registryPublishers(id)) } catch {
                throw CommandError(explaining: error, doing: "list the publishers of \(id)")
            }
            for publisher in publishers {
                print([publisher.user, "added by \(publisher.grantedBy)", publisher.grantedAt].map(TerminalText.safe).joined(separator: "\t"))
            }
        }
    }

    struct Withdraw: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "withdraw",
            abstract: "Withdraw a version of a package (ID@VERSION; admins and the package's publishers), or a whole app (ID; admins).",
            discussion: "Machines that have a withdrawn version keep it; apps list and its pane say it was withdrawn.")

        @Argument(help: ArgumentHelp("ID@VERSION, or ID for the whole app; REGISTRY/… names the registry.", valueName: "app")) var app: String
        @OptionGroup var server: ServerOption

        func run() async throws {
            let name = try PackageName(app)
            let registries = name.registry == nil ? [try Registry(server)] : try Registries.followed(server, naming: name.registry)
            guard let registry = registries.first else { return }
            let client = try await registry.client()
            do {
                if let version = name.version {
                    try await client.delete(APIPath.registryVersion(name.id, version))
                } else {
                    try await client.delete(APIPath.registryApp(name.id))
                }
            } catch {
                throw CommandError(explaining: error, doing: "withdraw \(app)")
            }
        }
    }
}

extension Registries {
    /// The registries `--bff` or a qualified name (`REGISTRY/ID`) picks, else every one followed.
    static func followed(_ option: ServerOption, naming registry: String?) throws -> [Registry] {
        let all = try followed(option)
        guard let registry else { return all }
        let named = all.filter { $0.name == registry || $0.key == registry }
        guard !named.isEmpty else {
            throw CommandError("you follow no registry named \(TerminalText.safe(registry)) (you follow \(all.map(\.name).joined(separator: ", "))): termcanvas login URL follows one")
        }
        return named
    }
}
