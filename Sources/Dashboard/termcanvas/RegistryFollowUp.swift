import AppInstalls
import AppModel
import AppPackages
import AppPanes
import BFFAccess
import CanvasCore
import CanvasFiles
import CanvasUI
import CommandSupport
import FoundationEssentials
import HTTPClient
import Logging
import MicroAppHost
import ServerAPI
import Synchronization
import Widgets

/// The clients of the registries a dashboard reaches: its own server's (once connected) and those
/// of the other servers the user is logged in to, whose single sign-on tokens it renews too.
struct RegistryClients: Sendable {
    let connected: Registry
    let backend: BackendRelay
    let others: OtherRegistries

    /// The client of `registry`; nil while the dashboard's server is not connected, or for a
    /// server the user is no longer logged in to or whose sign-in has ended.
    func client(for registry: Registry) async -> HTTPClient? {
        if registry.key == connected.key { return backend.current }
        guard registry.key != Registry.local else { return nil }
        return await others.client(for: registry.key)
    }

    /// The other registries followed: every server logged in to but the connected one.
    var followed: [Registry] {
        others.connector.paths.credentials.servers().filter { $0 != connected.key }.map(Registry.init(key:))
    }
}

/// The clients of the other servers a dashboard follows, one each, made on first use. A single
/// sign-on's token is renewed first if it is due, then kept renewed as the dashboard's own is
/// (`SessionKeeper`), so a registry followed does not drop out of the catalog when its token's
/// fifteen minutes are up. A sign-in the server ended is said once, and tried again only once
/// the user logged in anew; a server that cannot be reached is asked again at the next read.
actor OtherRegistries {
    let connector: BFFConnector
    private let mailbox: Mailbox
    private var clients: [String: Task<Renewed, Never>] = [:]
    private let keepers = Mutex<[SessionKeeper]>([])
    /// The token of each server whose sign-in ended, as the credential store had it then.
    private var ended: [String: String] = [:]

    init(connector: BFFConnector, mailbox: Mailbox) {
        self.connector = connector
        self.mailbox = mailbox
    }

    func client(for server: String) async -> HTTPClient? {
        if let made = clients[server], case .made(let client, _) = await made.value { return client }
        guard let credential = (try? connector.remoteTarget(server))?.credential, ended[server] != credential.token else { return nil }
        let (connector, mailbox) = (connector, mailbox)
        // Kept while it runs, so that a second caller waits for it rather than renew the same token.
        let making = Task<Renewed, Never> {
            var current = credential
            let client = BFFTarget.remote(credential).client(logger: connector.logger)
            guard SessionRenewal.isDue(credential) else { return .made(client, current) }
            do {
                current = try await SessionRenewal.renew(credential, client: client, store: connector.paths.credentials)
                client.token = current.token
                return .made(client, current)
            } catch let error as HTTPClientError where !error.isTransient {
                mailbox.post(.notice(.error(SessionRenewal.ended(credential, error))))
                return .ended
            } catch {
                connector.logger.info("a followed registry's sign-in not renewed; asked again at the next read",
                                      metadata: ["server": "\(server)", "error": "\(error)"])
                return .notNow
            }
        }
        clients[server] = making
        let renewed = await making.value
        guard case .made(let client, let current) = renewed else {
            clients[server] = nil
            if case .ended = renewed { ended[server] = credential.token }
            return nil
        }
        if current.renewal != nil {
            let keeper = SessionKeeper()
            keeper.start(current, client: client, store: connector.paths.credentials, mailbox: mailbox, logger: connector.logger)
            keepers.withLock { $0.append(keeper) }
        }
        return client
    }

    private enum Renewed: Sendable {
        case made(HTTPClient, Credential)
        /// The server could not be reached: asked again at the next read.
        case notNow
        /// The server refused the renewal: the user must log in again.
        case ended
    }

    /// Ends the renewals: the dashboard is stopping.
    nonisolated func cancel() {
        keepers.withLock { $0.forEach { $0.cancel() } }
    }
}

/// What the dashboard reads after each read of its server's registry, away from the main actor,
/// each handed to the canvas when it arrives (a failure leaves the catalog as it was): the server's
/// suggestions (`SuggestionsLoaded`), the packages of the other registries followed
/// (`PackagesElsewhere`), and whether a package installed from this server was withdrawn there
/// since (its record marked, its panes restarted to say so in their titles).
struct RegistryFollowUp {
    let clients: RegistryClients
    let paths: Paths
    let runtime: MicroAppRuntime
    let mailbox: Mailbox
    let logger: Logger
    /// The most installed packages checked for a withdrawal after one read.
    static let packagesChecked = 64

    /// After a read of the registry that listed `apps`.
    func read(listing apps: [MicroAppInfo]) {
        guard let client = clients.backend.current else { return }
        let current = Dictionary(apps.map { ($0.id, $0.version) }, uniquingKeysWith: { first, _ in first })
        // Suggestions are of packages: a registry that lists none has none to make.
        let suggests = apps.contains { $0.kind == .package }
        let (clients, paths, runtime, mailbox, logger) = (clients, paths, runtime, mailbox, logger)
        Task.detached {
            if suggests { await Self.readSuggestions(from: client, mailbox: mailbox, logger: logger) }
            var elsewhere: [String: [MicroAppInfo]] = [:]
            for registry in clients.followed {
                guard let other = await clients.client(for: registry) else { continue }
                do {
                    let page: Page<MicroAppInfo> = try await other.get(APIPath.registryApps, query: [(name: "kind", value: "package"),
                                                                                                      (name: "limit", value: "200")])
                    elsewhere[registry.key] = page.items
                } catch {
                    logger.info("a registry followed did not answer", metadata: ["registry": "\(registry.key)", "error": "\(error)"])
                }
            }
            if !elsewhere.isEmpty { mailbox.post(.publish([PackagesElsewhere(registries: elsewhere)])) }
            let withdrawn = await Self.newlyWithdrawn(from: clients.connected, current: current, client: client, paths: paths, logger: logger)
            guard !withdrawn.isEmpty else { return }
            let descriptors = await MainActor.run { withdrawn.map { MicroAppWidget.descriptor(for: $0, connect: { runtime.connection(for: $0) }) } }
            mailbox.post(.appsReinstalled(descriptors))
        }
    }

    private static func readSuggestions(from client: HTTPClient, mailbox: Mailbox, logger: Logger) async {
        do {
            let suggestions: [AppSuggestion] = try await client.get(APIPath.registrySuggestions)
            mailbox.post(.publish([SuggestionsLoaded(suggestions: Array(suggestions.prefix(AppSuggestion.maximum)))]))
        } catch {
            logger.info("no suggestions", metadata: ["error": "\(error)"])
        }
    }

    /// The packages installed from `registry` whose version it has withdrawn since, their records
    /// marked so. Only those whose version is not the one it lists as current (by id) are asked
    /// about: a version still current is not withdrawn.
    private static func newlyWithdrawn(from registry: Registry, current: [String: String], client: HTTPClient, paths: Paths,
                                       logger: Logger) async -> [InstalledApp] {
        let folders = AppsCommand.folders(paths)
        // Only the apps with an origin recorded are read: no manifest is parsed when none came from a registry.
        let recorded = (try? FileManager.default.contentsOfDirectory(atPath: folders.user.appendingPathComponent(AppFolders.originsName).path)) ?? []
        let installed = recorded.filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.compactMap { id -> InstalledApp? in
            guard let origin = folders.origin(of: id), origin.registry == registry.key, origin.withdrawnAt == nil, current[id] != origin.version
            else { return nil }
            return try? AppFolders.read(folders.user.appendingPathComponent(id), isShipped: false, origin: origin)
        }
        var marked: [InstalledApp] = []
        for app in installed.prefix(packagesChecked) {
            guard var origin = app.origin else { continue }
            do {
                let detail: MicroAppDetail = try await client.get(APIPath.registryApp(app.id))
                guard let at = detail.versions.first(where: { $0.version == origin.version })?.withdrawnAt else { continue }
                origin.withdrawnAt = at
            } catch .status(404, _, _) {
                origin.withdrawnAt = Date().formatted(.iso8601)
            } catch {
                continue
            }
            do {
                try PackageInstaller.record(origin, of: app.id, in: folders)
                marked.append(try AppFolders.read(app.folder, isShipped: false, origin: origin))
                logger.info("an installed package was withdrawn at its registry", metadata: ["app": "\(app.id)", "version": "\(origin.version)"])
            } catch {
                logger.warning("could not mark a withdrawn package", metadata: ["app": "\(app.id)", "error": "\(error)"])
            }
        }
        return marked
    }
}

/// Installs what the catalog offers, away from the main actor: downloaded from its registry,
/// checked as `apps install` checks it, not granted (its pane asks, listing what it asks for),
/// then handed to the host (`appInstalled`).
struct CatalogInstaller {
    /// The ids being installed: choosing one again meanwhile says so rather than install it twice.
    private let installing = InstallsUnderWay()
    let offers: PackageOffers
    let clients: RegistryClients
    let paths: Paths
    let runtime: MicroAppRuntime
    let mailbox: Mailbox
    let logger: Logger

    @MainActor
    func install(_ offer: CatalogOffer) {
        guard let page = offers.page(offer) else {
            return mailbox.post(.notice(.error("Can't install \(offer.name): its registry is not connected; try again in a moment")))
        }
        guard installing.begin(page.id) else {
            return mailbox.post(.notice(.info("\(page.app.name) is being installed")))
        }
        let (clients, paths, runtime, mailbox, logger, installing) = (clients, paths, runtime, mailbox, logger, installing)
        Task.detached {
            defer { installing.end(page.id) }
            guard let client = await clients.client(for: page.registry) else {
                return mailbox.post(.notice(.error("Can't install \(offer.name): its registry is not connected; try again in a moment")))
            }
            // A shipped app's id is reserved: `apps install REGISTRY/ID --replace` takes it, asked by name.
            if AppsCommand.folders(paths).scan().apps.contains(where: { $0.id == page.id && $0.isShipped }) {
                return mailbox.post(.notice(.error(TerminalText.safe(
                    "Can't install \(page.id) from the catalog: it is an app shipped with TermCanvas, and \(page.registry.name)'s package of that id is "
                        + "someone else's; termcanvas apps install \(page.registry.name)/\(page.id) --replace runs theirs instead"))))
            }
            do {
                // Its page as the registry signs it, with its publisher's signature (lists carry none).
                guard let page = try await PackagePage.fetch(page.id, version: page.version, from: page.registry, client: client,
                                                             answers: RegistryAnswers(paths, logger: logger)) else {
                    throw CommandError(TerminalText.safe("\(page.registry.name) no longer has it"))
                }
                // Nothing is asked here: a signature that does not hold, or another key than the one kept, is refused.
                let pinned = AppsCommand.folders(paths).origin(of: page.id).flatMap { $0.registry == page.registry.key ? $0.publisherKey : nil }
                    .flatMap(PublicKey.init(base64:))
                let trust = try page.trust(pinned: pinned)
                if case .otherKey = trust {
                    throw CommandError(TerminalText.safe("it is signed by another key than the one you kept; termcanvas apps install "
                                                         + "\(page.registry.name)/\(page.id) --replace, in a terminal, names both and asks"))
                }
                try PublisherCheck.refuse(trust, pinned: pinned, page: page)
                let app = try await PackageInstaller(paths: paths).install(page, from: client, grant: false, publisherKey: trust.signer)
                logger.info("package installed from the catalog", metadata: ["app": "\(app.id)", "version": "\(app.manifest.version)"])
                let descriptor = await MainActor.run { MicroAppWidget.descriptor(for: app, connect: { runtime.connection(for: $0) }) }
                mailbox.post(.appInstalled(descriptor))
            } catch {
                logger.warning("package not installed", metadata: ["app": "\(page.id)", "error": "\(error)"])
                mailbox.post(.notice(.error("Can't install \(page.app.name): \(PackageInstaller.words(error))")))
            }
        }
    }
}

/// The ids of the apps being installed from the catalog.
final class InstallsUnderWay: Sendable {
    private let ids = Mutex<Set<String>>([])

    /// False when `id` is being installed already.
    func begin(_ id: String) -> Bool { ids.withLock { $0.insert(id).inserted } }

    func end(_ id: String) {
        _ = ids.withLock { $0.remove(id) }
    }
}
