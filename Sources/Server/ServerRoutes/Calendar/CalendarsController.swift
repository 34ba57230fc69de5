import CalendarTime
import Hummingbird
import ServerAPI
import ServerCalendarSync
import ServerHTTP
import ServerStore

/// `/api/calendars`: the calling user's calendars besides their own, and only theirs: the list,
/// a new subscription (read once before the answer, so a wrong address is said at once), a new
/// name or colour, a reading now, and removal with the calendar's events.
package struct CalendarsController {
    let store: BFFStore
    let subscriptions: CalendarSubscriptions

    package init(store: BFFStore, subscriptions: CalendarSubscriptions) {
        self.store = store
        self.subscriptions = subscriptions
    }

    package func addRoutes(to group: RouterGroup<BFFRequestContext>) {
        group.get("", use: list)
        group.post("subscriptions", use: subscribe)
        group.patch("{id}", use: update)
        group.delete("{id}", use: delete)
        group.post("{id}/refresh", use: refresh)
    }

    @Sendable func list(_ request: Request, context: BFFRequestContext) async throws -> Response {
        try .json(Page(items: try await store.calendarCollections(owner: try context.userID()), next: nil))
    }

    @Sendable func subscribe(_ request: Request, context: BFFRequestContext) async throws -> Response {
        let new = try await request.decodeJSON(NewCalendarSubscription.self, context: context)
        if let name = new.name { try Self.name(name) }
        if let colour = new.colour { try Self.colour(colour) }
        let owner = try context.userID()
        let made: CalendarCollection
        do {
            made = try await subscriptions.asked(by: owner) {
                try await subscriptions.subscribe(owner: owner, address: new.url, name: new.name, colour: new.colour)
            }
        } catch let problem as SubscriptionProblem {
            throw APIFailure(status: .unprocessableContent, body: APIError(error: problem.description, field: "url"))
        } catch is SubscriptionsBusy {
            throw Self.busy
        }
        var response = try Response.json(made, status: .created)
        response.headers[.location] = APIPath.calendar(made.id)
        return response
    }

    @Sendable func update(_ request: Request, context: BFFRequestContext) async throws -> Response {
        let patch = try await request.decodeJSON(CalendarCollectionPatch.self, context: context)
        if let name = patch.name { try Self.name(name) }
        if let colour = patch.colour, !colour.isEmpty { try Self.colour(colour) }
        let colour: String?? = patch.colour.map { $0.isEmpty ? nil : $0 }
        guard let changed = try await store.updateCalendarCollection(id: try context.numericID(), owner: try context.userID(), name: patch.name,
                                                                     colour: colour) else { throw APIFailure.notFound }
        return try .json(changed)
    }

    @Sendable func delete(_ request: Request, context: BFFRequestContext) async throws -> Response {
        guard try await store.deleteCalendarCollection(id: try context.numericID(), owner: try context.userID()) else { throw APIFailure.notFound }
        return Response(status: .noContent)
    }

    /// Reads the subscription now; its `problem` says if that failed (its events stay).
    @Sendable func refresh(_ request: Request, context: BFFRequestContext) async throws -> Response {
        let owner = try context.userID()
        guard let due = try await store.subscription(id: try context.numericID(), owner: owner) else { throw APIFailure.notFound }
        do {
            guard let read = try await subscriptions.asked(by: owner, { try await subscriptions.refresh(due) }) else { throw APIFailure.notFound }
            return try .json(read)
        } catch is SubscriptionsBusy {
            throw Self.busy
        }
    }

    private static let busy = APIFailure(status: .tooManyRequests, body: APIError(
        error: "\(CalendarSubscriptions.readsPerUser) of your calendars are being read now: try again in a few seconds"), headers: [.retryAfter: "5"])

    private static func name(_ name: String) throws {
        try TextValidation.check(name, field: "name", lines: .single, length: CalendarCollectionLimits.nameLength)
    }

    private static func colour(_ colour: String) throws {
        guard CalendarCollectionLimits.isColour(colour) else { throw APIFailure.badRequest("must be a colour as #RRGGBB", field: "colour") }
    }
}
