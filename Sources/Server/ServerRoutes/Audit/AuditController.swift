import Hummingbird
import ServerAPI
import ServerHTTP
import ServerStore

/// `GET /api/audit`: who shared, unshared, created or deleted which canvas, and who published or
/// withdrew which app, newest first; for admins only.
package struct AuditController {
    let store: BFFStore

    package init(store: BFFStore) {
        self.store = store
    }

    package func addRoutes(to group: RouterGroup<BFFRequestContext>) {
        group.get("audit", use: list)
    }

    @Sendable func list(_ request: Request, context: BFFRequestContext) async throws -> Response {
        let user = try context.authenticatedUser()
        guard user.isAdmin else {
            throw APIFailure(status: .forbidden, body: APIError(error: "only an admin may read the audit log (termcanvas user add NAME --admin)"))
        }
        let limit = try request.pageLimit(maximum: AuditLimits.maxPageSize, default: AuditLimits.defaultPageSize)
        let before = try request.pageCursor(Request.idCursor)
        let page = try await store.auditEntries(before: before, limit: limit)
        return try .json(Page(items: page.items, next: page.more ? page.items.last.map { String($0.id) } : nil))
    }
}
