import Hummingbird
import ServerAPI
import ServerHTTP
import ServerStore

/// `/api/auth/sessions`: the caller's sessions, listed and ended. A token of an ended session is
/// refused on every instance within a second (`RecentUsers`), and its live streams end.
package struct SessionsController {
    let store: BFFStore
    /// Told of a session ended here, so this instance refuses its tokens at once.
    let users: RecentUsers

    package init(store: BFFStore, users: RecentUsers) {
        self.store = store
        self.users = users
    }

    package func addRoutes(to group: RouterGroup<BFFRequestContext>) {
        group.get("sessions") { _, context in
            try Response.json(try await store.sessions(of: try context.userID(), current: context.session))
        }
        // All but the caller's own: `termcanvas sessions end --others`.
        group.delete("sessions") { _, context in
            let user = try context.authenticatedUser()
            let ended = try await store.endSessions(of: user, .allBut(context.session ?? ""), by: user.name)
            users.forget(user.id)
            return try Response.json(SessionsEnded(ended: ended))
        }
        group.delete("sessions/{sessionID}") { _, context in
            let user = try context.authenticatedUser()
            guard let id = context.parameters.get("sessionID"), try await store.endSessions(of: user, .one(id), by: user.name) > 0 else {
                throw APIFailure(status: .notFound, body: APIError(error: "you have no such session: termcanvas sessions lists them", field: "sessionID"))
            }
            users.forget(user.id)
            return Response(status: .noContent)
        }
    }
}
