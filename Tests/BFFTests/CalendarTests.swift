import BFF
import Foundation
import HummingbirdTesting
import MicroAppAPI
import Testing

@Suite("BFF calendar API")
struct CalendarTests {
    @Test("create (offsets stored in UTC), read, patch, delete an event")
    func crud() async throws {
        let harness = try BFFHarness()
        defer { harness.remove() }
        try harness.addUsers("ann")
        try await harness.withServer { client in
            let token = try await client.token(for: "ann")
            let new = NewCalendarEvent(title: "stand-up", start: "2026-11-23T09:30:00.250+01:00", end: "2026-11-23T09:45:00+01:00")
            let created = try await client.send(.post, APIPath.calendarEvents, token: token, json: new)
            #expect(created.status == .created)
            let event = try created.decode(CalendarEvent.self)
            #expect(event == CalendarEvent(id: event.id, title: "stand-up", start: "2026-11-23T08:30:00Z", end: "2026-11-23T08:45:00Z"))
            #expect(created.headers[.location] == APIPath.calendarEvent(event.id))
            #expect(try await client.send(.get, APIPath.calendarEvent(event.id), token: token).decode(CalendarEvent.self) == event)

            // A date-time west of UTC that crosses midnight into the next UTC day.
            let moved = try await client.send(.patch, APIPath.calendarEvent(event.id), token: token,
                                              json: CalendarEventPatch(end: "2026-11-23T20:00:00-05:00"))
            #expect(try moved.decode(CalendarEvent.self).end == "2026-11-24T01:00:00Z")

            #expect(try await client.send(.delete, APIPath.calendarEvent(event.id), token: token).status == .noContent)
            #expect(try await client.send(.get, APIPath.calendarEvent(event.id), token: token).status == .notFound)
            #expect(try await client.send(.get, APIPath.calendarEvents + "/x", token: token).status == .notFound)
        }
    }

    @Test("every field rule answers 400 naming its field", arguments: [
        (#"{"title": " ", "start": "2026-11-23T09:00:00Z", "end": "2026-11-23T10:00:00Z"}"#, "title"),
        (#"{"title": "a", "start": "2026-11-23 09:00", "end": "2026-11-23T10:00:00Z"}"#, "start"),
        (#"{"title": "a", "start": "2026-11-23T09:00:00", "end": "2026-11-23T10:00:00Z"}"#, "start"),
        (#"{"title": "a", "start": "2026-02-30T09:00:00Z", "end": "2026-03-01T10:00:00Z"}"#, "start"),
        (#"{"title": "a", "start": "2026-11-23T24:00:00Z", "end": "2026-11-24T10:00:00Z"}"#, "start"),
        (#"{"title": "a", "start": "1969-12-31T23:00:00Z", "end": "1970-01-01T10:00:00Z"}"#, "start"),
        (#"{"title": "a", "start": "2026-11-23T09:00:00Z", "end": "2026-11-23T08:59:59Z"}"#, "end"),
        (#"{"title": "a", "start": "2026-01-01T00:00:00Z", "end": "2027-01-03T00:00:00Z"}"#, "end"),
        (#"{"title": "a", "start": "2026-11-23T09:00:00Z", "end": "2026-11-23T10:00:00Z", "allDay": true}"#, "start"),
        (#"{"title": "a", "start": "2026-11-23T00:00:00Z", "end": "2026-11-23T00:00:00Z", "allDay": true}"#, "end"),
        (#"{"title": "a", "start": "2026-11-23T09:00:00Z"}"#, "end"),
    ])
    func validation(body: String, field: String) async throws {
        let harness = try BFFHarness()
        defer { harness.remove() }
        try harness.addUsers("ann")
        try await harness.withServer { client in
            let token = try await client.token(for: "ann")
            let response = try await client.send(.post, APIPath.calendarEvents, token: token, rawBody: body)
            #expect(response.status == .badRequest)
            #expect(response.apiError?.field == field, "\(String(buffer: response.body))")
        }
    }

    @Test("a patch is validated with the event it changes")
    func patchIsValidatedAsAWhole() async throws {
        let harness = try BFFHarness()
        defer { harness.remove() }
        try harness.addUsers("ann")
        try await harness.withServer { client in
            let token = try await client.token(for: "ann")
            let event = try await client.send(.post, APIPath.calendarEvents, token: token, json: NewCalendarEvent(
                title: "a", start: "2026-11-23T09:00:00Z", end: "2026-11-23T10:00:00Z")).decode(CalendarEvent.self)
            let late = try await client.send(.patch, APIPath.calendarEvent(event.id), token: token,
                                             json: CalendarEventPatch(start: "2026-11-23T11:00:00Z"))
            #expect(late.status == .badRequest && late.apiError?.field == "end")
            let allDay = try await client.send(.patch, APIPath.calendarEvent(event.id), token: token, json: CalendarEventPatch(allDay: true))
            #expect(allDay.status == .badRequest && allDay.apiError?.field == "start")
            #expect(try await client.send(.get, APIPath.calendarEvent(event.id), token: token).decode(CalendarEvent.self) == event)
        }
    }

    @Test("a range lists the events overlapping it, by start, page by page")
    func rangeAndPages() async throws {
        let harness = try BFFHarness()
        defer { harness.remove() }
        try harness.addUsers("ann")
        try await harness.withServer { client in
            let token = try await client.token(for: "ann")
            func create(_ title: String, _ start: String, _ end: String, allDay: Bool = false) async throws -> CalendarEvent {
                try await client.send(.post, APIPath.calendarEvents, token: token,
                                      json: NewCalendarEvent(title: title, start: start, end: end, allDay: allDay)).decode(CalendarEvent.self)
            }
            let spanning = try await create("spanning", "2026-11-21T22:00:00Z", "2026-11-22T01:00:00Z")
            _ = try await create("day before", "2026-11-21T00:00:00Z", "2026-11-22T00:00:00Z", allDay: true)
            let allDay = try await create("all day", "2026-11-22T00:00:00Z", "2026-11-23T00:00:00Z", allDay: true)
            let late = try await create("late", "2026-11-22T23:59:59Z", "2026-11-22T23:59:59Z")
            _ = try await create("next day", "2026-11-23T00:00:00Z", "2026-11-23T01:00:00Z")

            let day = try await client.send(.get, APIPath.calendarEvents + "?from=2026-11-22&to=2026-11-22", token: token)
            #expect(try day.decode(Page<CalendarEvent>.self).items.map(\.title) == [spanning.title, allDay.title, late.title])

            var seen: [Int64] = []
            var uri = APIPath.calendarEvents + "?limit=2"
            while true {
                let page = try await client.send(.get, uri, token: token).decode(Page<CalendarEvent>.self)
                seen += page.items.map(\.id)
                guard let next = page.next else { break }
                uri = APIPath.calendarEvents + "?limit=2&cursor=" + (next.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? next)
            }
            #expect(seen.count == 5 && Set(seen).count == 5)

            for (query, field) in [("from=tomorrow", "from"), ("to=2026-13-01", "to"), ("from=2026-11-23&to=2026-11-22", "to"),
                                   ("limit=0", "limit"), ("cursor=abc", "cursor")] {
                let response = try await client.send(.get, APIPath.calendarEvents + "?" + query, token: token)
                #expect(response.status == .badRequest && response.apiError?.field == field, "\(query)")
            }
        }
    }

    @Test("a user never sees or changes another user's events: 404, not 403")
    func usersAreIsolated() async throws {
        let harness = try BFFHarness()
        defer { harness.remove() }
        try harness.addUsers("ann", "bob")
        try await harness.withServer { client in
            let ann = try await client.token(for: "ann")
            let bob = try await client.token(for: "bob")
            let event = try await client.send(.post, APIPath.calendarEvents, token: ann, json: NewCalendarEvent(
                title: "ann's", start: "2026-11-23T09:00:00Z", end: "2026-11-23T10:00:00Z")).decode(CalendarEvent.self)
            #expect(try await client.send(.get, APIPath.calendarEvent(event.id), token: bob).status == .notFound)
            #expect(try await client.send(.patch, APIPath.calendarEvent(event.id), token: bob,
                                          json: CalendarEventPatch(title: "mine")).status == .notFound)
            #expect(try await client.send(.delete, APIPath.calendarEvent(event.id), token: bob).status == .notFound)
            #expect(try await client.send(.get, APIPath.calendarEvents, token: bob).decode(Page<CalendarEvent>.self).items.isEmpty)
            #expect(try await client.send(.get, APIPath.calendarEvent(event.id), token: ann).decode(CalendarEvent.self) == event)
        }
    }

    @Test("a server without the calendar app has no calendar routes")
    func appsOption() async throws {
        let harness = try BFFHarness()
        defer { harness.remove() }
        try harness.addUsers("ann")
        try await harness.withServer(configuration: harness.configuration(apps: [.todo])) { client in
            let token = try await client.token(for: "ann")
            #expect(try await client.send(.get, APIPath.calendarEvents, token: token).status == .notFound)
            #expect(try await client.send(.get, APIPath.chatChannels, token: token).status == .notFound)
            #expect(try await client.send(.get, APIPath.todoItems, token: token).status == .ok)
        }
    }
}
