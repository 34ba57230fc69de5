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
    let sync: CalDAVSync
    let wakeup: CalendarWakeup

    package init(store: BFFStore, subscriptions: CalendarSubscriptions, sync: CalDAVSync, wakeup: CalendarWakeup) {
        self.store = store
        self.subscriptions = subscriptions
        self.sync = sync
        self.wakeup = wakeup
    }

    package func addRoutes(to group: RouterGroup<BFFRequestContext>) {
        group.get("", use: list)
        group.post("subscriptions", use: subscribe)
        group.post("caldav", use: connect)
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

    /// Finds the user's calendars on their CalDAV server and syncs them from now on (the first
    /// round at once); 422 naming `url` (or `user`, for refused credentials) when that fails.
    @Sendable func connect(_ request: Request, context: BFFRequestContext) async throws -> Response {
        let new = try await request.decodeJSON(NewCalDAVConnection.self, context: context)
        try TextValidation.check(new.user, field: "user", lines: .single, length: 1...200)
        guard !new.password.isEmpty, new.password.utf8.count <= 1_000 else {
            throw APIFailure.badRequest("must be 1 to 1000 bytes", field: "password")
        }
        for name in new.calendars ?? [] { try Self.name(name) }
        let owner = try context.userID()
        let made: [CalendarCollection]
        do {
            made = try await subscriptions.asked(by: owner) {
                try await sync.connect(owner: owner, address: new.url, user: new.user, password: new.password, names: new.calendars ?? [],
                                       makeDefault: new.makeDefault ?? true)
            }
        } catch let problem as CalDAVProblem {
            throw APIFailure(status: .unprocessableContent, body: APIError(error: problem.description, field: problem.status == 401 ? "user" : "url"))
        } catch is SubscriptionsBusy {
            throw Self.busy
        }
        wakeup.wake()
        return try .json(Page(items: made, next: nil), status: .created)
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

    /// Reads the subscription, or syncs the CalDAV calendar, now; its `problem` says if that
    /// failed (its events stay).
    @Sendable func refresh(_ request: Request, context: BFFRequestContext) async throws -> Response {
        let owner = try context.userID()
        let id = try context.numericID()
        guard let calendar = try await store.calendarCollections(owner: owner).first(where: { $0.id == id }) else { throw APIFailure.notFound }
        do {
            let done = try await subscriptions.asked(by: owner) { () async throws -> CalendarCollection? in
                if calendar.kind == CalendarCollection.calDAV {
                    return try await sync.sync(BFFStore.DueCalendar(id: id, owner: owner, kind: calendar.kind))
                }
                guard let due = try await store.subscription(id: id, owner: owner) else { return nil }
                return try await subscriptions.refresh(due)
            }
            guard let done else { throw APIFailure.notFound }
            return try .json(done)
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
