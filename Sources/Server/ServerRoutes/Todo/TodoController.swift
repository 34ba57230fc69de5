import CalendarItems
import CalendarTime
import Hummingbird
import ICalendar
import ServerAPI
import ServerCalendarSync
import ServerHTTP
import ServerStore

/// `/api/todo/items`: the calling user's todo items, and only theirs. A change of an item of a
/// task list synced with a CalDAV server wakes the sync (`wakeup`).
package struct TodoController {
    let store: BFFStore
    /// The list's pages as last served, dropped as changes commit.
    let pages: TodoPageCache
    let wakeup: CalendarWakeup

    package init(store: BFFStore, wakeup: CalendarWakeup) {
        self.store = store
        self.wakeup = wakeup
        pages = TodoPageCache(observing: store)
    }

    package func addRoutes(to group: RouterGroup<BFFRequestContext>) {
        group.get("items", use: list)
        group.post("items", use: create)
        group.get("items/{id}", use: show)
        group.patch("items/{id}", use: update)
        group.delete("items/{id}", use: delete)
        group.get("export", use: export)
    }

    /// `GET /api/todo/export`: the list as iCalendar tasks (`VTODO`), 100 a page, each as it was
    /// imported with the list's changes written over it; `Link: <…>; rel="next"` names the next.
    @Sendable func export(_ request: Request, context: BFFRequestContext) async throws -> Response {
        let limit = try request.pageLimit(maximum: TodoLimits.maxPageSize, default: TodoLimits.maxPageSize)
        let page = try await store.todoTasks(owner: try context.userID(), after: try request.pageCursor(Request.idCursor), limit: limit)
        var zones: [String: ICalComponent] = [:]
        let now = UTCInstant.now
        let tasks = page.items.map { item, stored in
            let exported = TaskResource.exported(item, stored: stored, stamp: now)
            for zone in exported.timeZones { if let id = zone["TZID"]?.value { zones[id] = zones[id] ?? zone } }
            return exported.task
        }
        return CalendarController.calendarPage(zones: zones, components: tasks, path: APIPath.todoExport,
                                               next: page.more ? page.items.last?.item.id : nil, query: [("limit", String(limit))])
    }

    @Sendable func list(_ request: Request, context: BFFRequestContext) async throws -> Response {
        let owner = try context.userID()
        let key = TodoPageCache.Key(owner: owner, query: try TodoQuery(parsing: request))
        if let cached = pages.page(for: key) { return .json(bytes: cached) }
        let generation = pages.generation(of: owner)
        let page = try await store.todos(owner: owner, query: key.query)
        let next = page.more ? page.items.last.map { String($0.id) } : nil
        let bytes = ByteBuffer.json(Page(items: page.items, next: next))
        pages.store(bytes, for: key, readAt: generation)
        return .json(bytes: bytes)
    }

    @Sendable func create(_ request: Request, context: BFFRequestContext) async throws -> Response {
        let owner = try context.userID()
        let new = try await request.decodeJSON(NewTodo.self, context: context)
        let valid = try TodoValidation.validated(new)
        let item = try await store.createTodo(owner: owner, title: valid.title, notes: valid.notes, due: valid.due, priority: valid.priority,
                                              list: new.list, uid: CalendarController.newUID())
        if item.list != nil { wakeup.wake() }
        var response = try Response.json(item, status: .created)
        response.headers[.location] = APIPath.todoItem(item.id)
        return response
    }

    @Sendable func show(_ request: Request, context: BFFRequestContext) async throws -> Response {
        guard let item = try await store.todo(id: try context.numericID(), owner: try context.userID()) else { throw APIFailure.notFound }
        return try .json(item)
    }

    @Sendable func update(_ request: Request, context: BFFRequestContext) async throws -> Response {
        let owner = try context.userID()
        let id = try context.numericID()
        let patch = try await request.decodeJSON(TodoPatch.self, context: context)
        guard let item = try await store.updateTodo(id: id, owner: owner, applying: try TodoValidation.validated(patch)) else {
            throw APIFailure.notFound
        }
        if item.list != nil { wakeup.wake() }
        return try .json(item)
    }

    @Sendable func delete(_ request: Request, context: BFFRequestContext) async throws -> Response {
        guard try await store.deleteTodo(id: try context.numericID(), owner: try context.userID()) else { throw APIFailure.notFound }
        // The refresher looks for what is due: a deletion of a synced list's item is.
        wakeup.wake()
        return Response(status: .noContent)
    }
}
