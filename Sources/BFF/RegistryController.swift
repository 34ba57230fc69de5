import Hummingbird
import MicroAppAPI

/// `GET /api/registry/apps`: the micro-apps this server hosts, for the dashboard's widget catalog.
struct RegistryController {
    let apps: Set<MicroApp>

    func addRoutes(to group: RouterGroup<BFFRequestContext>) {
        let page = Page(items: apps.sorted().map(\.info))
        group.get("apps") { _, _ in try Response.json(page) }
    }
}
