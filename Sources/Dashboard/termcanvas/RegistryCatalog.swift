import AppModel
import CanvasCore
import CanvasUI
import CommandSupport
import Foundation
import HTTPClient
import Logging
import MicroAppHost
import ServerAPI
import Widgets
import Synchronization

extension WidgetCatalog {
    /// The catalog as a BFF's registry describes it: the micro-apps it hosts that this dashboard
    /// has a widget for, with the registry's name, version and description, in this catalog's
    /// order; then the widgets that need no server (the Event Log, the apps installed here); then
    /// the registry's remote apps that are not down. Every kind stays mountable.
    func matching(registry apps: [MicroAppInfo],
                  remote: (offered: [WidgetDescriptor], all: [WidgetDescriptor]) = ([], [])) -> WidgetCatalog {
        // The server's own apps: a package of an id installed here is not one of them.
        let builtIn = apps.filter { ($0.kind ?? .builtin) == .builtin }
        let byID = Dictionary(builtIn.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let served = all.compactMap { widget in
            byID[widget.kind.rawValue].map { app in
                WidgetDescriptor(kind: widget.kind, name: app.name, summary: app.description, version: app.version,
                                 commands: widget.commands, make: widget.make)
            }
        }
        let serverless = all.filter { ServerApp(rawValue: $0.kind.rawValue) == nil }
        return WidgetCatalog(served + serverless + remote.offered, alsoMounting: all + remote.all)
    }
}

/// The catalog the server's registry makes, each time the sync engine reads it (`RegistryLoaded`):
/// the standard catalog, the apps installed since the start, the registry's remote apps, and its
/// packages this user has not installed, offered.
struct RegistryCatalog: CatalogSource {
    let standard: WidgetCatalog
    let runtime: MicroAppRuntime
    let packages: PackageOffers
    /// The apps in the user's own folder at the start: a package of one of these ids is not offered.
    let installedByUser: Set<String>

    func catalog(after event: any BusEvent, keeping added: [WidgetDescriptor]) -> WidgetCatalog? {
        let apps: [MicroAppInfo]
        if let loaded = event as? RegistryLoaded {
            apps = loaded.apps
            packages.remember(apps)
        } else if let suggested = event as? SuggestionsLoaded, let last = packages.suggest(suggested.suggestions) {
            apps = last
        } else {
            return nil
        }
        let installed = installedByUser.union(added.map(\.kind.rawValue))
        return standard.adding(added).matching(registry: apps, remote: WidgetCatalog.remote(apps, runtime: runtime))
            .offering(packages.offers.filter { !installed.contains($0.kind.rawValue) })
    }
}

/// The connected server's registry as last read, and what it suggests: what the catalog offers
/// and what choosing one installs.
final class PackageOffers: Sendable {
    let registry: Registry
    private struct Known {
        var apps: [MicroAppInfo]?
        var pages: [PackagePage] = []
        /// Why each suggested package is, by id.
        var reasons: [String: String] = [:]
    }

    private let known = Mutex(Known())

    init(registry: Registry) {
        self.registry = registry
    }

    /// Keeps the registry's apps, and its packages' pages.
    func remember(_ apps: [MicroAppInfo]) {
        let pages = apps.compactMap { PackagePage($0, in: registry) }
        known.withLock {
            $0.apps = apps
            $0.pages = pages
        }
    }

    /// Keeps what the server suggests; returns the registry's apps as last read, nil before.
    func suggest(_ suggestions: [AppSuggestion]) -> [MicroAppInfo]? {
        known.withLock { known in
            known.reasons = Dictionary(suggestions.map { ($0.app.id, $0.reason) }, uniquingKeysWith: { first, _ in first })
            return known.apps
        }
    }

    /// The packages as the catalog offers them, with what each asks for; the suggested say why.
    var offers: [CatalogOffer] {
        let (pages, reasons) = known.withLock { ($0.pages, $0.reasons) }
        return pages.map { page in
            let asks = page.package.permissions.inWords
            let summary = "from \(registry.name), " + (asks.isEmpty ? "asks for nothing" : "asks to " + asks.joined(separator: "; "))
                + (page.app.description.isEmpty ? "" : " · " + page.app.description)
            return CatalogOffer(kind: AppKind(rawValue: page.id), name: page.app.name, summary: summary, version: page.version,
                                suggested: reasons[page.id])
        }
    }

    func page(_ kind: AppKind) -> PackagePage? { known.withLock { $0.pages.first { $0.id == kind.rawValue } } }
}

/// Reads what the server suggests after each read of its registry, away from the main actor, and
/// hands it to the canvas (`SuggestionsLoaded`); a failure leaves the catalog without suggestions.
struct SuggestionsReader {
    let backend: BackendRelay
    let mailbox: Mailbox
    let logger: Logger

    func read() {
        guard let client = backend.current else { return }
        let (mailbox, logger) = (mailbox, logger)
        Task.detached {
            do {
                let suggestions: [AppSuggestion] = try await client.get(APIPath.registrySuggestions)
                mailbox.post(.publish([SuggestionsLoaded(suggestions: Array(suggestions.prefix(AppSuggestion.maximum)))]))
            } catch {
                logger.info("no suggestions", metadata: ["error": "\(error)"])
            }
        }
    }
}

/// Installs what the catalog offers, away from the main actor: downloaded from the connected
/// server, checked as `apps install` checks it, not granted (its pane asks, listing what it asks
/// for), then handed to the host (`appInstalled`).
struct CatalogInstaller {
    let offers: PackageOffers
    let paths: Paths
    let backend: BackendRelay
    let runtime: MicroAppRuntime
    let mailbox: Mailbox
    let logger: Logger

    @MainActor
    func install(_ kind: AppKind) {
        guard let page = offers.page(kind), let client = backend.current else {
            return mailbox.post(.notice(.error("Can't install \(kind.rawValue): the server is not connected; try again in a moment")))
        }
        let (paths, runtime, mailbox, logger) = (paths, runtime, mailbox, logger)
        Task.detached {
            do {
                let app = try await PackageInstaller(paths: paths).install(page, from: client, grant: false)
                logger.info("package installed from the catalog", metadata: ["app": "\(app.id)", "version": "\(app.manifest.version)"])
                let descriptor = await MainActor.run { MicroAppWidget.descriptor(for: app, connect: { runtime.connection(for: $0) }) }
                mailbox.post(.appInstalled(descriptor))
            } catch {
                logger.warning("package not installed", metadata: ["app": "\(page.id)", "error": "\(error)"])
                mailbox.post(.notice(.error("Can't install \(page.app.name): \(error)")))
            }
        }
    }
}
