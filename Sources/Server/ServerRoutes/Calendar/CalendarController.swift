import CalendarItems
import CalendarTime
import Foundation
import HTTPTypes
import Hummingbird
import ICalendar
import ServerAPI
import ServerCalendarSync
import ServerHTTP
import ServerStore
import SystemZones

/// `/api/calendar/events`: the calling user's events, and only theirs; `/api/calendar/import` and
/// `/api/calendar/export`: the same as iCalendar.
package struct CalendarController {
    let store: BFFStore
    /// Told of every change: one of a synced calendar is sent at once.
    let wakeup: CalendarWakeup

    package init(store: BFFStore, wakeup: CalendarWakeup) {
        self.store = store
        self.wakeup = wakeup
    }

    package func addRoutes(to group: RouterGroup<BFFRequestContext>) {
        group.get("events", use: list)
        group.post("events", use: create)
        group.get("events/{id}", use: show)
        group.patch("events/{id}", use: update)
        group.delete("events/{id}", use: delete)
        group.post("import", use: importCalendar)
        group.get("export", use: export)
        group.get("reminders", use: reminders)
    }

    @Sendable func list(_ request: Request, context: BFFRequestContext) async throws -> Response {
        let query = try CalendarQuery(parsing: request)
        let page = try await store.calendarEvents(owner: try context.userID(), query: query)
        let next = page.more ? page.items.last.map { CalendarQuery.Cursor(start: $0.start, id: $0.id).text } : nil
        return try .json(Page(items: page.items, next: next))
    }

    /// `GET /api/calendar/reminders`: the reminders going off in `from`…`to` (by default the day
    /// from now; `to` alone, the day up to it), at most `CalendarLimits.reminderRangeDays` apart, by moment.
    @Sendable func reminders(_ request: Request, context: BFFRequestContext) async throws -> Response {
        var query = try CalendarQuery(parsing: request)
        // A range given by one end is a day long: from now, or up to `to`.
        let from = query.from ?? query.to.map { UTCInstant(secondsSinceEpoch: $0.secondsSinceEpoch - 86_400) }
            ?? UTCInstant(secondsSinceEpoch: Int64(Date().timeIntervalSince1970))
        let to = query.to ?? UTCInstant(secondsSinceEpoch: from.secondsSinceEpoch + 86_400)
        guard from <= to else { throw APIFailure.badRequest("must not be before 'from'", field: "to") }
        guard to.secondsSinceEpoch - from.secondsSinceEpoch <= Int64(CalendarLimits.reminderRangeDays) * 86_400 else {
            throw APIFailure.badRequest("at most \(CalendarLimits.reminderRangeDays) days after 'from'", field: "to")
        }
        (query.from, query.to) = (from, to)
        let page = try await store.calendarReminders(owner: try context.userID(), query: query)
        let next = page.more ? page.items.last.map { CalendarQuery.Cursor(start: $0.at, id: $0.id).text } : nil
        return try .json(Page(items: page.items, next: next))
    }

    @Sendable func create(_ request: Request, context: BFFRequestContext) async throws -> Response {
        let owner = try context.userID()
        let new = try CalendarValidation.validated(try await request.decodeJSON(NewCalendarEvent.self, context: context))
        let resource = try CalendarValidation.sized(EventResource.new(uid: Self.newUID(), event: new, stamp: .now, zones: SystemZones.zone))
        let event = try await store.createCalendarEvent(owner: owner, resource: resource, calendar: new.calendar)
        if event.calendar != nil { wakeup.wake() }
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

    /// A change of the event, or of a repeating one's instances as `scope` says.
    @Sendable func update(_ request: Request, context: BFFRequestContext) async throws -> Response {
        let owner = try context.userID()
        let id = try context.numericID()
        let (scope, instance) = try Self.scope(request)
        let patch = try await request.decodeJSON(CalendarEventPatch.self, context: context)
        let newUID = Self.newUID()
        let now = UTCInstant.now
        guard let event = try await store.updateCalendarEvent(id: id, owner: owner, applying: { resource in
            try Self.rewrite(resource, id: id, patch: patch, scope: scope, instance: instance, newUID: newUID, now: now)
        }) else { throw APIFailure.notFound }
        wakeup.wake()
        return try .json(event)
    }

    /// Deletes the event, or of a repeating one the instances `scope` says.
    @Sendable func delete(_ request: Request, context: BFFRequestContext) async throws -> Response {
        let (scope, instance) = try Self.scope(request)
        let found = try await store.deleteCalendarEvent(id: try context.numericID(), owner: try context.userID()) { resource in
            guard resource.repeats, scope == .this || scope == .following, let instance = Self.instance(instance, of: resource) else { return nil }
            guard resource.apiEvent(id: 0, instance: instance) != nil else { throw Self.noInstance }
            return try scope == .this ? resource.removingOne(instance).map(CalendarValidation.sized) : resource.endingBefore(instance)
        }
        guard found else { throw APIFailure.notFound }
        wakeup.wake()
        return Response(status: .noContent)
    }

    /// What a patch makes of an event: all of it changed (an event that does not repeat, or
    /// `scope=all`), one instance, or the series ended before an instance and a new one from it.
    static func rewrite(_ resource: EventResource, id: Int64, patch: CalendarEventPatch, scope: CalendarEditScope?, instance: UTCInstant?,
                        newUID: String, now: UTCInstant) throws -> BFFStore.EventRewrite {
        let instance = scope == .this || scope == .following ? Self.instance(instance, of: resource) : instance
        let series = resource.apiEvent(id: id)
        // An event that does not repeat is its one instance, whatever the query names.
        let before = try instance.flatMap { instance in
            guard resource.repeats else { return nil }
            guard let event = resource.apiEvent(id: id, instance: instance) else { throw noInstance }
            return event
        } ?? series
        if resource.repeats, scope == nil, patch.changesTimes {
            throw APIFailure.badRequest("this event repeats: say which of its instances change, with scope=this, following or all "
                                        + "(and instance=… for this and following)", field: "scope")
        }
        let after = try CalendarValidation.patched(before, with: patch)
        switch (resource.repeats ? scope ?? .all : .all, instance) {
        case (.this, let instance?):
            guard patch.recurrence == nil else {
                throw APIFailure.badRequest("one instance cannot repeat: change the recurrence with scope=all or following", field: "recurrence")
            }
            guard let changed = resource.changingOne(instance, to: after, stamp: now) else { throw noInstance }
            return .replace(try CalendarValidation.sized(changed), answerInstance: instance)
        case (.following, let instance?):
            // From the first instance on is all of them.
            if let kept = resource.endingBefore(instance) {
                guard let following = resource.following(instance, uid: newUID, to: after, before: before, stamp: now) else { throw noInstance }
                return .split(kept: try CalendarValidation.sized(kept), following: try CalendarValidation.sized(following))
            }
        default: break
        }
        guard let changed = resource.changingAll(from: before, to: after, stamp: now) else { throw noInstance }
        return .replace(try CalendarValidation.sized(changed), answerInstance: nil)
    }

    /// `scope` and `instance` from the query.
    static func scope(_ request: Request) throws -> (CalendarEditScope?, UTCInstant?) {
        let parameters = request.uri.queryParameters
        let scope = try parameters.get("scope").map { text in
            guard let scope = CalendarEditScope(rawValue: text) else { throw APIFailure.badRequest("must be this, following or all", field: "scope") }
            return scope
        }
        let instance = try parameters.get("instance").map { try CalendarValidation.dateTime($0, field: "instance") }
        return (scope, instance)
    }

    /// The instance `this` and `following` are of: the one named, else the event's first.
    static func instance(_ named: UTCInstant?, of resource: EventResource) -> UTCInstant? {
        named ?? (resource.repeats ? resource.index.start : nil)
    }

    /// An instance the event does not have is not found, as an event that does not exist.
    private static let noInstance = APIFailure(status: .notFound, body: APIError(error: "the event has no instance starting then (its instanceStart)",
                                                                                  field: "instance"))

    /// `POST /api/calendar/import`: a `text/calendar` body, each of its events added, or replacing
    /// the event with its UID, and its tasks (`VTODO`) to the todo list alike; answered with what
    /// was done and what was not, by line.
    @Sendable func importCalendar(_ request: Request, context: BFFRequestContext) async throws -> Response {
        let owner = try context.userID()
        guard request.headers[.contentType]?.lowercased().hasPrefix("text/calendar") == true else {
            throw APIFailure(status: .unsupportedMediaType, body: APIError(error: "the body must be iCalendar (Content-Type: text/calendar)"))
        }
        let body = try await request.body.collect(upTo: context.maxUploadSize)
        let text = String(decoding: body.readableBytesView, as: UTF8.self)
        let read = try await offThePool { () throws -> CalendarImport in
            do {
                return CalendarImport(try ICalendarText.read(text).filter { $0.name == "VCALENDAR" }, zones: SystemZones.zone)
            } catch let error as ICalError {
                throw APIFailure.badRequest("is not iCalendar: \(error.description)", field: nil)
            }
        }
        let outcome = try await store.importCalendarEvents(owner: owner, resources: read.events)
        let taskOutcome = try await store.importTasks(owner: owner, tasks: read.tasks)
        var result = CalendarImportResult(added: outcome.added, replaced: outcome.replaced,
                                          skipped: read.problems.map { .init(line: $0.line, error: $0.message) })
        result.tasksAdded = taskOutcome.added
        result.tasksReplaced = taskOutcome.replaced
        return try .json(result)
    }

    /// `GET /api/calendar/export`: the events reaching into `from`…`to` as one iCalendar
    /// calendar, 100 a page; `Link: <…>; rel="next"` names the next.
    @Sendable func export(_ request: Request, context: BFFRequestContext) async throws -> Response {
        let query = try CalendarQuery(parsing: request, pageSize: 100, readsCursor: false)
        let after = try request.pageCursor(Request.idCursor)
        let page = try await store.calendarResources(owner: try context.userID(), from: query.from, to: query.to, after: after, limit: query.limit)
        var zones: [String: ICalComponent] = [:]
        var events: [ICalComponent] = []
        for (_, resource) in page.items {
            for zone in resource.timeZones { if let id = zone["TZID"]?.value { zones[id] = zones[id] ?? zone } }
            events += resource.calendar.components.filter { $0.name != "VTIMEZONE" }
        }
        return Self.calendarPage(zones: zones, components: events, path: APIPath.calendarExport,
                                 next: page.more ? page.items.last?.id : nil,
                                 query: [("from", query.from?.iso), ("to", query.to?.iso), ("limit", String(query.limit))])
    }

    /// A page of an export: one `VCALENDAR` of `components` with the zones they use, and, when
    /// more follow, `Link: <path?…&cursor=ID>; rel="next"`.
    static func calendarPage(zones: [String: ICalComponent], components: [ICalComponent], path: String, next: Int64?,
                             query: [(String, String?)]) -> Response {
        let calendar = ICalComponent(name: "VCALENDAR", properties: [
            ICalProperty(name: "VERSION", value: "2.0"), ICalProperty(name: "PRODID", value: EventResource.productID),
        ], components: zones.keys.sorted().compactMap { zones[$0] } + components)
        var response = Response(status: .ok, headers: [.contentType: "text/calendar; charset=utf-8"],
                                body: .init(byteBuffer: ByteBuffer(string: ICalendarText.write([calendar]))))
        if let next {
            var link = URLComponents()
            link.path = path
            link.queryItems = (query + [("cursor", String(next))]).compactMap { name, value in value.map { URLQueryItem(name: name, value: $0) } }
            response.headers[Self.link] = "<\(link.string ?? path)>; rel=\"next\""
        }
        return response
    }

    private static let link = HTTPField.Name("Link")!

    /// A UID no other event has: RFC 7986 section 5.3's advice, a random UUID.
    static func newUID() -> String { UUID().uuidString.lowercased() }
}
