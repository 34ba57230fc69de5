import Hummingbird
import ServerAPI
import ServerHTTP
import ServerStore

/// `/api/calendar/events`: the calling user's events, and only theirs.
package struct CalendarController {
    let store: BFFStore

    package init(store: BFFStore) {
        self.store = store
    }

    package func addRoutes(to group: RouterGroup<BFFRequestContext>) {
        group.get("events", use: list)
        group.post("events", use: create)
        group.get("events/{id}", use: show)
        group.patch("events/{id}", use: update)
        group.delete("events/{id}", use: delete)
    }

    @Sendable func list(_ request: Request, context: BFFRequestContext) async throws -> Response {
        let query = try CalendarQuery(parsing: request)
        let page = try await store.calendarEvents(owner: try context.userID(), query: query)
        let next = page.more ? page.items.last.map { CalendarQuery.Cursor(start: $0.start, id: $0.id).text } : nil
        return try .json(Page(items: page.items, next: next))
    }

    @Sendable func create(_ request: Request, context: BFFRequestContext) async throws -> Response {
        let owner = try context.userID()
        let new = try CalendarValidation.validated(try await request.decodeJSON(NewCalendarEvent.self, context: context))
        let event = try await store.createCalendarEvent(owner: owner, title: new.title, start: new.start, end: new.end, allDay: new.allDay)
        var response = try Response.json(event, status: .created)
        response.headers[.location] = APIPath.calendarEvent(event.id)
        return response
    }

    @Sendable func show(_ request: Request, context: BFFRequestContext) async throws -> Response {
        guard let event = try await store.calendarEvent(id: try context.numericID(), owner: try context.userID()) else {
            throw APIFailure.notFound
        }
        return try .json(event)
    }

    @Sendable func update(_ request: Request, context: BFFRequestContext) async throws -> Response {
        let owner = try context.userID()
        let id = try context.numericID()
        let patch = try await request.decodeJSON(CalendarEventPatch.self, context: context)
        guard let event = try await store.updateCalendarEvent(id: id, owner: owner, applying: { try CalendarValidation.patched($0, with: patch) })
        else { throw APIFailure.notFound }
        return try .json(event)
    }

    @Sendable func delete(_ request: Request, context: BFFRequestContext) async throws -> Response {
        guard try await store.deleteCalendarEvent(id: try context.numericID(), owner: try context.userID()) else { throw APIFailure.notFound }
        return Response(status: .noContent)
    }
}
