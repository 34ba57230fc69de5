import AppInstalls
import AppModel
import CanvasCore
import CanvasUI
import CommandSupport
import FoundationEssentials
import HTTPClient
import Logging
import MicroAppHost
import ServerAPI
import Synchronization
import Widgets

package extension WidgetCatalog {
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

/// The catalog the server's registry makes, each time the sync engine reads it (`RegistryLoaded`)
/// and what follows that read (`SuggestionsLoaded`, `PackagesElsewhere`): the standard catalog, the
/// apps installed since the start, the registry's remote apps, and the packages of the registries
/// the user follows that they have not installed, offered.
package struct RegistryCatalog: CatalogSource {
    package let standard: WidgetCatalog
    package let runtime: MicroAppRuntime
    package let packages: PackageOffers
    /// The apps in the user's own folder at the start: a package of one of these ids is not offered.
    package let installedByUser: Set<String>

    package init(standard: WidgetCatalog, runtime: MicroAppRuntime, packages: PackageOffers, installedByUser: Set<String>) {
        self.standard = standard
        self.runtime = runtime
        self.packages = packages
        self.installedByUser = installedByUser
    }

    package func catalog(after event: any BusEvent, keeping added: [WidgetDescriptor]) -> WidgetCatalog? {
        let apps: [MicroAppInfo]
        if let loaded = event as? RegistryLoaded {
            apps = loaded.apps
            packages.remember(apps)
        } else if let suggested = event as? SuggestionsLoaded, let last = packages.suggest(suggested.suggestions) {
            apps = last
        } else if let elsewhere = event as? PackagesElsewhere, let last = packages.elsewhere(elsewhere) {
            apps = last
        } else {
            return nil
        }
        let installed = installedByUser.union(added.map(\.kind.rawValue))
        return standard.adding(added).matching(registry: apps, remote: WidgetCatalog.remote(apps, runtime: runtime))
            .offering(packages.offers.filter { !installed.contains($0.kind.rawValue) })
    }
}

/// The connected server's registry as last read, what it suggests, and the packages of the other
/// registries the user follows: what the catalog offers, and what choosing one installs.
package final class PackageOffers: Sendable {
    package let registry: Registry
    private struct Known {
        var apps: [MicroAppInfo]?
        var pages: [PackagePage] = []
        var elsewhere: [PackagePage] = []
        /// Why each suggested package is, by id.
        var reasons: [String: String] = [:]
    }

    private let known = Mutex(Known())

    package init(registry: Registry) {
        self.registry = registry
    }

    /// Keeps the registry's apps, and its packages' pages.
    package func remember(_ apps: [MicroAppInfo]) {
        let pages = apps.compactMap { PackagePage($0, in: registry) }
        known.withLock {
            $0.apps = apps
            $0.pages = pages
        }
    }

    /// Keeps what the server suggests; returns the registry's apps as last read, nil before.
    package func suggest(_ suggestions: [AppSuggestion]) -> [MicroAppInfo]? {
        known.withLock { known in
            known.reasons = Dictionary(suggestions.map { ($0.app.id, $0.reason) }, uniquingKeysWith: { first, _ in first })
            return known.apps
        }
    }

    /// Keeps the other registries' packages; returns the registry's apps as last read, nil before.
    package func elsewhere(_ loaded: PackagesElsewhere) -> [MicroAppInfo]? {
        let pages = loaded.registries.sorted { $0.key < $1.key }.flatMap { key, apps in
            apps.compactMap { PackagePage($0, in: Registry(key: key)) }
        }
        return known.withLock { known in
            known.elsewhere = pages
            return known.apps
        }
    }

    /// The packages as the catalog offers them, with what each asks for and where it comes from;
    /// the suggested say why; an id two registries offer is shown `REGISTRY/ID`.
    package var offers: [CatalogOffer] {
        let (pages, reasons) = known.withLock { ($0.pages + $0.elsewhere, $0.reasons) }
        let shown = Registries.names(pages.map { ($0.registry, $0.id) })
        return zip(pages, shown).map { page, shownID in
            let asks = page.package.permissions.inWords
            let summary = "from \(page.registry.name), " + (asks.isEmpty ? "asks for nothing" : "asks to " + asks.joined(separator: "; "))
                + (page.app.description.isEmpty ? "" : " · " + page.app.description)
            return CatalogOffer(kind: AppKind(rawValue: page.id), name: page.app.name, summary: summary, version: page.version,
                                suggested: page.registry.key == registry.key ? reasons[page.id] : nil,
                                registry: shownID == page.id ? nil : page.registry.name)
        }
    }

    /// The page of what `offer` offers.
    package func page(_ offer: CatalogOffer) -> PackagePage? {
        known.withLock { known in
            (known.pages + known.elsewhere).first { page in
                page.id == offer.kind.rawValue && (offer.registry == nil || offer.registry == page.registry.name)
            }
        }
    }
}
