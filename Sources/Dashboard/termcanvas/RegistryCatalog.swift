import AppModel
import CanvasCore
import CanvasUI
import MicroAppHost
import ServerAPI

extension WidgetCatalog {
    /// The catalog as a BFF's registry describes it: the micro-apps it hosts that this dashboard
    /// has a widget for, with the registry's name, version and description, in this catalog's
    /// order; then the widgets that need no server (the Event Log, the apps installed here); then
    /// the registry's remote apps that are not down. Every kind stays mountable.
    func matching(registry apps: [MicroAppInfo],
                  remote: (offered: [WidgetDescriptor], all: [WidgetDescriptor]) = ([], [])) -> WidgetCatalog {
        let byID = Dictionary(apps.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
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
/// the standard catalog, the apps installed since the start, and the registry's remote apps.
struct RegistryCatalog: CatalogSource {
    let standard: WidgetCatalog
    let runtime: MicroAppRuntime

    func catalog(after event: any BusEvent, keeping added: [WidgetDescriptor]) -> WidgetCatalog? {
        guard let loaded = event as? RegistryLoaded else { return nil }
        return standard.adding(added).matching(registry: loaded.apps, remote: WidgetCatalog.remote(loaded.apps, runtime: runtime))
    }
}
