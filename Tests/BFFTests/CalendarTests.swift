import BFF
import CalendarTime
import Foundation
import HummingbirdTesting
import ServerAPI
import ServerStore
import Testing

@Suite("BFF calendar API")
struct CalendarTests {
    @Test("create (offsets stored in UTC), read, patch, delete an event")
    func crud() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addUsers("ann")
        try await harness.withServer { client in
            let token = try await client.token(for: "ann")
            let new = NewCalendarEvent(title: "stand-up", start: "2026-11-23T09:30:00.250+01:00", end: "2026-11-23T09:45:00+01:00")
            let created = try await client.send(.post, APIPath.calendarEvents, token: token, json: new)
            #expect(created.status == .created)
            let event = try created.decode(CalendarEvent.self)
            #expect(event == CalendarEvent(id: event.id, title: "stand-up", start: "2026-11-23T08:30:00Z", end: "2026-11-23T08:45:00Z").uid(of: event))
            #expect(event.uid?.isEmpty == false)
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
        (#"{"title": "a", "end": "2026-11-23T09:00:00Z"}"#, "start"),
        (#"{"start": "2026-11-23T09:00:00Z", "end": "2026-11-23T10:00:00Z"}"#, "title"),
        (#"{"title": "\#(String(repeating: "t", count: 201))", "start": "2026-11-23T09:00:00Z", "end": "2026-11-23T10:00:00Z"}"#, "title"),
        // Control characters in a title: ESC, a tab, a C1 CSI.
        (#"{"title": "red \u001b[31m", "start": "2026-11-23T09:00:00Z", "end": "2026-11-23T10:00:00Z"}"#, "title"),
        (#"{"title": "a\tb", "start": "2026-11-23T09:00:00Z", "end": "2026-11-23T10:00:00Z"}"#, "title"),
        (#"{"title": "a\u009bb", "start": "2026-11-23T09:00:00Z", "end": "2026-11-23T10:00:00Z"}"#, "title"),
        (#"{"title": "a", "start": "2026-11-23T09:00:00+1:00", "end": "2026-11-23T10:00:00Z"}"#, "start"),
        (#"{"title": "a", "start": "2026-11-23T09:00:00.Z", "end": "2026-11-23T10:00:00Z"}"#, "start"),
        (#"{"title": "a", "start": "2026-11-23T09:00:00Z", "end": 1700000000}"#, "end"),
        // In range as written, not in UTC: 1969-12-31T23:30:00Z and 10000-01-01T00:30:00Z.
        (#"{"title": "a", "start": "1970-01-01T00:30:00+01:00", "end": "1970-01-01T10:00:00Z"}"#, "start"),
        (#"{"title": "a", "start": "9999-12-31T22:00:00Z", "end": "9999-12-31T23:30:00-01:00"}"#, "end"),
        (#"{"title": "a", "start": "2026-11-23T00:00:00Z", "end": "2026-11-23T10:00:00Z", "allDay": true}"#, "end"),
        (#"{"title": "a", "start": "2026-11-23T09:00:00Z", "end": "2026-11-23T10:00:00Z", "allDay": "yes"}"#, "allDay"),
    ])
    func validation(body: String, field: String) async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addUsers("ann")
        try await harness.withServer { client in
            let token = try await client.token(for: "ann")
            let response = try await client.send(.post, APIPath.calendarEvents, token: token, rawBody: body)
            #expect(response.status == .badRequest)
            #expect(response.apiError?.field == field, "\(String(buffer: response.body))")
        }
    }

    @Test("the limits themselves are accepted")
    func edgesAreAccepted() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addUsers("ann")
        try await harness.withServer { client in
            let token = try await client.token(for: "ann")
            for (new, start, end): (NewCalendarEvent, UTCInstant, UTCInstant) in [
                (NewCalendarEvent(title: "instant", start: "2026-11-23T09:00:00Z", end: "2026-11-23T09:00:00Z"),
                 "2026-11-23T09:00:00Z", "2026-11-23T09:00:00Z"),
                (NewCalendarEvent(title: "366 days", start: "2028-01-01T00:00:00Z", end: "2029-01-01T00:00:00Z", allDay: true),
                 "2028-01-01T00:00:00Z", "2029-01-01T00:00:00Z"),
                (NewCalendarEvent(title: "first", start: "1970-01-01T01:00:00+01:00", end: "1970-01-01T00:00:01Z"),
                 "1970-01-01T00:00:00Z", "1970-01-01T00:00:01Z"),
                (NewCalendarEvent(title: "last", start: "9999-12-31T23:59:59.999999999Z", end: "9999-12-31T22:59:59-01:00"),
                 "9999-12-31T23:59:59Z", "9999-12-31T23:59:59Z"),
                (NewCalendarEvent(title: "midnight in UTC", start: "2026-11-23T01:00:00+01:00", end: "2026-11-23T19:00:00-05:00",
                                  allDay: true),
                 "2026-11-23T00:00:00Z", "2026-11-24T00:00:00Z"),
                (NewCalendarEvent(title: String(repeating: "t", count: CalendarLimits.titleLength.upperBound),
                                  start: "2026-11-23T09:00:00Z", end: "2026-11-23T10:00:00Z"),
                 "2026-11-23T09:00:00Z", "2026-11-23T10:00:00Z"),
            ] {
                let response = try await client.send(.post, APIPath.calendarEvents, token: token, json: new)
                #expect(response.status == .created, "\(new.title): \(String(buffer: response.body))")
                let event = try response.decode(CalendarEvent.self)
                #expect(event == CalendarEvent(id: event.id, title: new.title, start: start, end: end, allDay: new.allDay ?? false).uid(of: event))
            }
        }
    }

    @Test("a patch is validated with the event it changes")
    func patchIsValidatedAsAWhole() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addUsers("ann")
        try await harness.withServer { client in
            let token = try await client.token(for: "ann")
            let event = try await client.send(.post, APIPath.calendarEvents, token: token, json: NewCalendarEvent(
                title: "a", start: "2026-11-23T09:00:00Z", end: "2026-11-23T10:00:00Z")).decode(CalendarEvent.self)
            let late = try await client.send(.patch, APIPath.calendarEvent(event.id), token: token,
                                             json: CalendarEventPatch(start: "2026-11-23T11:00:00Z"))
            #expect(late.status == .badRequest && late.apiError?.field == "end")
            let allDay = try await client.send(.patch, APIPath.calendarEvent(event.id), token: token,
                                               json: CalendarEventPatch(start: "2026-11-23T09:30:00Z", allDay: true))
            #expect(allDay.status == .badRequest && allDay.apiError?.field == "start")
            let blank = try await client.send(.patch, APIPath.calendarEvent(event.id), token: token, json: CalendarEventPatch(title: ""))
            #expect(blank.status == .badRequest && blank.apiError?.field == "title")
            let control = try await client.send(.patch, APIPath.calendarEvent(event.id), token: token, json: CalendarEventPatch(title: "a\u{1B}[2J"))
            #expect(control.status == .badRequest && control.apiError?.field == "title")
            #expect(try await client.send(.get, APIPath.calendarEvent(event.id), token: token).decode(CalendarEvent.self) == event)

            // Together the same changes make a valid all-day event.
            let whole = try await client.send(.patch, APIPath.calendarEvent(event.id), token: token, json: CalendarEventPatch(
                title: "away", start: "2026-11-23T00:00:00Z", end: "2026-11-25T00:00:00Z", allDay: true))
            let away = CalendarEvent(id: event.id, title: "away", start: "2026-11-23T00:00:00Z", end: "2026-11-25T00:00:00Z", allDay: true).uid(of: event)
            #expect(try whole.decode(CalendarEvent.self) == away)
            #expect(try await client.send(.get, APIPath.calendarEvent(event.id), token: token).decode(CalendarEvent.self) == away)
        }
    }

    @Test("making an event all-day covers its days with the bounds the patch leaves out")
    func allDaySwitchCoversTheEventsDays() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addUsers("ann")
        try await harness.withServer { client in
            let token = try await client.token(for: "ann")
            // (start, end) → (start, end) after `{"allDay": true}`, or after it with a start.
            let cases: [(String, String, String?, String, String)] = [
                ("2026-11-23T09:00:00Z", "2026-11-23T10:00:00Z", nil, "2026-11-23T00:00:00Z", "2026-11-24T00:00:00Z"),
                ("2026-11-23T23:00:00Z", "2026-11-24T01:00:00Z", nil, "2026-11-23T00:00:00Z", "2026-11-25T00:00:00Z"),
                ("2026-11-23T22:00:00Z", "2026-11-24T00:00:00Z", nil, "2026-11-23T00:00:00Z", "2026-11-24T00:00:00Z"),
                ("2026-11-23T00:00:00Z", "2026-11-23T00:00:00Z", nil, "2026-11-23T00:00:00Z", "2026-11-24T00:00:00Z"),
                ("2026-11-23T09:00:00+05:00", "2026-11-23T10:00:00+05:00", nil, "2026-11-23T00:00:00Z", "2026-11-24T00:00:00Z"),
                ("2026-11-23T09:00:00Z", "2026-11-23T10:00:00Z", "2026-11-22T00:00:00Z", "2026-11-22T00:00:00Z", "2026-11-24T00:00:00Z"),
            ]
            for (start, end, newStart, wantedStart, wantedEnd) in cases {
                let event = try await client.send(.post, APIPath.calendarEvents, token: token, json: NewCalendarEvent(
                    title: "a", start: start, end: end)).decode(CalendarEvent.self)
                let patched = try await client.send(.patch, APIPath.calendarEvent(event.id), token: token,
                                                    json: CalendarEventPatch(start: newStart, allDay: true))
                let wanted = CalendarEvent(id: event.id, title: "a", start: try #require(UTCInstant(iso: wantedStart)),
                                           end: try #require(UTCInstant(iso: wantedEnd)), allDay: true).uid(of: event)
                #expect(try patched.decode(CalendarEvent.self) == wanted, "\(start)–\(end)")
            }
        }
    }

    @Test("a range lists the events overlapping it, by start, page by page")
    func rangeAndPages() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addUsers("ann")
        try await harness.withServer { client in
            let token = try await client.token(for: "ann")
            func create(_ title: String, _ start: String, _ end: String, allDay: Bool = false) async throws -> CalendarEvent {
                try await client.send(.post, APIPath.calendarEvents, token: token,
                                      json: NewCalendarEvent(title: title, start: start, end: end, allDay: allDay)).decode(CalendarEvent.self)
            }
            // Created out of order, two of them starting at the same moment.
            let late = try await create("late", "2026-11-22T23:59:59Z", "2026-11-22T23:59:59Z")
            let spanning = try await create("spanning", "2026-11-21T22:00:00Z", "2026-11-22T01:00:00Z")
            let dayBefore = try await create("day before", "2026-11-21T00:00:00Z", "2026-11-22T00:00:00Z", allDay: true)
            let allDay = try await create("all day", "2026-11-22T00:00:00Z", "2026-11-23T00:00:00Z", allDay: true)
            let nextDay = try await create("next day", "2026-11-23T00:00:00Z", "2026-11-23T01:00:00Z")
            let morning = try await create("morning", "2026-11-22T00:00:00Z", "2026-11-22T09:00:00Z")
            let all = [late, spanning, dayBefore, allDay, nextDay, morning]

            func list(_ query: String) async throws -> [String] {
                try await client.send(.get, APIPath.calendarEvents + "?" + query, token: token)
                    .decode(Page<CalendarEvent>.self).items.map(\.title)
            }
            // A day: the event spanning its start is in; the ones ending at its first moment or
            // starting after its last are out.
            #expect(try await list("from=2026-11-22&to=2026-11-22") == ["spanning", "all day", "morning", "late"])
            // Date-times with offsets bound the range the same way.
            #expect(try await list("from=2026-11-23T00:59:59%2B01:00&to=2026-11-23T00:00:00Z") == ["all day", "late", "next day"])
            #expect(try await list("from=2026-11-20&to=2026-11-20").isEmpty)

            for limit in [1, 2, 4, 100] {
                var seen: [Int64] = []
                var uri = APIPath.calendarEvents + "?limit=\(limit)"
                while true {
                    let page = try await client.send(.get, uri, token: token).decode(Page<CalendarEvent>.self)
                    #expect(page.items.count <= limit)
                    seen += page.items.map(\.id)
                    guard let next = page.next else { break }
                    let cursor = next.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? next
                    uri = APIPath.calendarEvents + "?limit=\(limit)&cursor=" + cursor
                }
                #expect(seen == all.sorted { ($0.start, $0.id) < ($1.start, $1.id) }.map(\.id), "limit \(limit)")
            }
            let rangePages = try await client.send(.get, APIPath.calendarEvents + "?from=2026-11-22&to=2026-11-22&limit=3", token: token)
                .decode(Page<CalendarEvent>.self)
            let rest = try await client.send(.get, APIPath.calendarEvents + "?from=2026-11-22&to=2026-11-22&limit=3&cursor="
                                             + (rangePages.next?.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""),
                                             token: token).decode(Page<CalendarEvent>.self)
            #expect((rangePages.items + rest.items).map(\.title) == ["spanning", "all day", "morning", "late"] && rest.next == nil)

            for (query, field) in [("from=tomorrow", "from"), ("to=2026-13-01", "to"), ("from=2026-11-23&to=2026-11-22", "to"),
                                   ("from=2026-11-22T10:00:00Z&to=2026-11-22T09:59:59Z", "to"), ("from=2026-11-22T10:00", "from"),
                                   ("limit=0", "limit"), ("limit=101", "limit"), ("cursor=abc", "cursor")] {
                let response = try await client.send(.get, APIPath.calendarEvents + "?" + query, token: token)
                #expect(response.status == .badRequest && response.apiError?.field == field, "\(query)")
            }
        }
    }

    @Test("a user never sees or changes another user's events: 404, not 403")
    func usersAreIsolated() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addUsers("ann", "bob")
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

            let bobs = try await client.send(.post, APIPath.calendarEvents, token: bob, json: NewCalendarEvent(
                title: "bob's", start: "2026-11-23T09:00:00Z", end: "2026-11-23T10:00:00Z")).decode(CalendarEvent.self)
            for (token, only) in [(ann, event), (bob, bobs)] {
                for query in ["", "?from=2026-11-23&to=2026-11-23"] {
                    let page = try await client.send(.get, APIPath.calendarEvents + query, token: token).decode(Page<CalendarEvent>.self)
                    #expect(page.items == [only])
                }
            }
        }
    }

    @Test("changes reach their owner's live stream, the event as data, {id} when deleted; nobody else's")
    func liveEvents() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addUsers("ann", "bob")
        try await harness.withServer { client in
            let port = try #require(client.port)
            let ann = try await client.token(for: "ann")
            let bob = try await client.token(for: "bob")
            let annStream = try SSEReader(port: port, token: ann)
            let bobStream = try SSEReader(port: port, token: bob)
            _ = try await annStream.readHead()
            _ = try await bobStream.readHead()

            let created = try await client.send(.post, APIPath.calendarEvents, token: ann, json: NewCalendarEvent(
                title: "ann's", start: "2026-11-23T09:00:00Z", end: "2026-11-23T10:00:00Z")).decode(CalendarEvent.self)
            let updated = try await client.send(.patch, APIPath.calendarEvent(created.id), token: ann,
                                                json: CalendarEventPatch(title: "moved")).decode(CalendarEvent.self)
            _ = try await client.send(.delete, APIPath.calendarEvent(created.id), token: ann)

            let events = try await annStream.events(3)
            #expect(events.map(\.name) == [EventName.calendarEventCreated, .calendarEventUpdated, .calendarEventDeleted].map(\.rawValue))
            #expect(try JSONDecoder().decode(CalendarEvent.self, from: Data(events[0].data.utf8)) == created)
            #expect(try JSONDecoder().decode(CalendarEvent.self, from: Data(events[1].data.utf8)) == updated)
            #expect(try JSONDecoder().decode(DeletedEntity.self, from: Data(events[2].data.utf8)) == DeletedEntity(id: created.id))
            #expect(try await bobStream.nextIs(.todoItemCreated) {
                _ = try await client.send(.post, APIPath.todoItems, token: bob, json: NewTodo(title: "bob's"))
            })
        }
    }

    @Test("a server without the calendar app has no calendar routes")
    func appsOption() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addUsers("ann")
        try await harness.withServer(configuration: harness.configuration(apps: [.todo])) { client in
            let token = try await client.token(for: "ann")
            #expect(try await client.send(.get, APIPath.calendarEvents, token: token).status == .notFound)
            #expect(try await client.send(.get, APIPath.chatChannels, token: token).status == .notFound)
            #expect(try await client.send(.get, APIPath.todoItems, token: token).status == .ok)
        }
    }
}

/// A cursor in the documented form is never refused: a start that is no real moment stands for
/// the first real one after it (the field's own tool, schemathesis, sends such cursors).
struct CalendarCursorTests {
    @Test(arguments: [
        ("0000-00-00T00:00:00Z~0", "0000-01-01T00:00:00Z", Int64(0)), ("2026-02-31T10:00:00Z~5", "2026-03-01T00:00:00Z", 5),
        ("2026-11-23T24:00:00Z~1", "2026-11-24T00:00:00Z", 1), ("2026-11-23T09:60:00Z~1", "2026-11-23T10:00:00Z", 1),
        ("2026-11-23T09:30:61Z~1", "2026-11-23T09:31:00Z", 1), ("2026-12-32T00:00:00Z~1", "2027-01-01T00:00:00Z", 1),
        ("2026-13-01T00:00:00Z~1", "2027-01-01T00:00:00Z", 1), ("2026-11-23T09:30:00Z~9999999999999999999", "2026-11-23T09:30:00Z", .max),
    ])
    func documentedFormsAreRead(text: String, start: String, id: Int64) throws {
        let cursor = try #require(CalendarQuery.Cursor(text))
        #expect(cursor.start.iso == start && cursor.id == id)
    }

    @Test(arguments: ["", "2026-11-23T09:30:00Z", "2026-11-23T09:30:00Z~", "2026-11-23T09:30:00Z~-1", "2026-11-23T09:30:00Z~12345678901234567890",
                      "2026-11-23 09:30:00Z~1", "2026-11-23T09:30:00+01:00~1", "x~1"])
    func otherFormsAreRefused(text: String) {
        #expect(CalendarQuery.Cursor(text) == nil)
    }
}

extension CalendarEvent {
    /// The same event with the UID the server gave `other`: a UID is made at random, the rest is checked.
    func uid(of other: CalendarEvent) -> CalendarEvent {
        var copy = self
        copy.uid = other.uid
        return copy
    }
}
