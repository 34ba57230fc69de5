import CalendarTime
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import ICalendar
import NIOCore
import ServerAPI
import TestSupport
import Testing

/// Events as iCalendar through the API, on both engines: real calendars' instances against python
/// `icalendar` with dateutil, a weekly event in a zone changed one instance, the following or all
/// at a time, imports that try to spend the server or reach another user's calendar.
@Suite("BFF repeating events, import and export")
struct RepeatingEventsTests {
    @Test(arguments: ["team.ics", "personal.ics", "office.ics"])
    func aYearOfARealCalendarInTheAPIAgreesWithIcalendarAndDateutil(_ file: String) async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addUsers("ann")
        let url = CalendarOracle.fixtures.appendingPathComponent(file)
        let text = try String(contentsOf: url, encoding: .utf8)
        let (from, to) = ("2026-11-01T00:00:00Z", "2027-11-01T00:00:00Z")
        let ours = try await harness.withServer { client in
            let token = try await client.token(for: "ann")
            let imported = try await client.importCalendar(text, token: token)
            #expect(imported.skipped == [])
            return try await client.instances(from: from, to: to, token: token)
                .filter { $0.start.iso >= from && $0.start.iso < to }
                .map { [try #require($0.uid), $0.start.iso] }
        }
        // The API holds events; the file's tasks are the todo list's.
        let events = Set(try ICalendarText.read(text)[0].components(named: "VEVENT").compactMap { $0["UID"]?.value })
        let theirs = try await CalendarOracle.instances(of: url, home: "UTC", from: from, to: to).filter { events.contains($0[0]) }
        #expect(ours.count > 2)
        #expect(ours.sorted { ($0[1], $0[0]) < ($1[1], $1[0]) } == theirs,
                "first apart: \(zip(ours, theirs).first { $0 != $1 }.map { "\($0) against \($1)" } ?? "counts \(ours.count) and \(theirs.count)")")
    }

    @Test("a weekly event in a zone: this one moves alone, the following become an event of their own, all move together")
    func editsOfARepeatingEvent() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addUsers("ann")
        try await harness.withServer { client in
            let token = try await client.token(for: "ann")
            let standUp = try await client.send(.post, APIPath.calendarEvents, token: token, json: NewCalendarEvent(
                title: "stand-up", start: "2026-11-02T09:00:00+01:00", end: "2026-11-02T09:15:00+01:00",
                recurrence: "FREQ=WEEKLY;BYDAY=MO;COUNT=10", timeZone: "Europe/Paris", location: "room 4")).decode(CalendarEvent.self)
            #expect(standUp.recurrence == "FREQ=WEEKLY;BYDAY=MO;COUNT=10")
            #expect(standUp.timeZone == "Europe/Paris")
            #expect(standUp.location == "room 4")
            let window = ("2026-10-01T00:00:00Z", "2027-03-01T00:00:00Z")
            var listed = try await client.instances(from: window.0, to: window.1, token: token)
            #expect(listed.map(\.start.iso) == ["2026-11-02", "2026-11-09", "2026-11-16", "2026-11-23", "2026-11-30", "2026-12-07", "2026-12-14",
                                                "2026-12-21", "2026-12-28", "2027-01-04"].map { $0 + "T08:00:00Z" })
            #expect(listed.allSatisfy { $0.id == standUp.id && $0.instanceStart == $0.start && $0.title == "stand-up" })

            // A change of its times must say which instances.
            let unscoped = try await client.send(.patch, APIPath.calendarEvent(standUp.id), token: token, json: CalendarEventPatch(start: "2026-11-02T10:00:00+01:00"))
            #expect(unscoped.status == .badRequest)
            #expect(unscoped.apiError?.field == "scope")

            // This one: 16 November an hour later, called otherwise.
            let moved = try await client.send(.patch, APIPath.calendarEvent(standUp.id) + "?scope=this&instance=2026-11-16T08:00:00Z", token: token,
                                              json: CalendarEventPatch(title: "stand-up (late)", start: "2026-11-16T10:00:00+01:00",
                                                                       end: "2026-11-16T10:15:00+01:00")).decode(CalendarEvent.self)
            #expect(moved.start.iso == "2026-11-16T09:00:00Z")
            #expect(moved.instanceStart?.iso == "2026-11-16T08:00:00Z")
            #expect(moved.title == "stand-up (late)")
            // This one, taken out.
            let removed = try await client.send(.delete, APIPath.calendarEvent(standUp.id) + "?scope=this&instance=2026-11-23T08:00:00Z", token: token)
            #expect(removed.status == .noContent)
            listed = try await client.instances(from: window.0, to: window.1, token: token)
            #expect(listed.count == 9)
            #expect(listed.first { $0.instanceStart?.iso == "2026-11-16T08:00:00Z" }?.start.iso == "2026-11-16T09:00:00Z")
            #expect(!listed.contains { $0.start.iso == "2026-11-23T08:00:00Z" })
            #expect(listed.filter { $0.title == "stand-up" }.count == 8)

            // No such instance.
            let none = try await client.send(.patch, APIPath.calendarEvent(standUp.id) + "?scope=this&instance=2026-11-17T08:00:00Z", token: token,
                                             json: CalendarEventPatch(title: "x"))
            #expect(none.status == .notFound && none.apiError?.field == "instance")

            // This and the following: from 14 December, half an hour later, an event of their own.
            let following = try await client.send(.patch, APIPath.calendarEvent(standUp.id) + "?scope=following&instance=2026-12-14T08:00:00Z",
                                                  token: token, json: CalendarEventPatch(start: "2026-12-14T09:30:00+01:00", end: "2026-12-14T09:45:00+01:00"))
                .decode(CalendarEvent.self)
            #expect(following.id != standUp.id)
            #expect(following.start.iso == "2026-12-14T08:30:00Z")
            listed = try await client.instances(from: window.0, to: window.1, token: token)
            #expect(listed.filter { $0.id == standUp.id }.map(\.start.iso) == ["2026-11-02T08:00:00Z", "2026-11-09T08:00:00Z", "2026-11-16T09:00:00Z",
                                                                                "2026-11-30T08:00:00Z", "2026-12-07T08:00:00Z"])
            #expect(listed.filter { $0.id == following.id }.map(\.start.iso) == ["2026-12-14T08:30:00Z", "2026-12-21T08:30:00Z", "2026-12-28T08:30:00Z",
                                                                                  "2027-01-04T08:30:00Z"])

            // All of the first: a quarter of an hour earlier, named from its second instance.
            let all = try await client.send(.patch, APIPath.calendarEvent(standUp.id) + "?scope=all&instance=2026-11-09T08:00:00Z", token: token,
                                            json: CalendarEventPatch(title: "early stand-up", start: "2026-11-09T08:45:00+01:00",
                                                                     end: "2026-11-09T09:00:00+01:00"))
            #expect(all.status == .ok)
            listed = try await client.instances(from: window.0, to: window.1, token: token)
            #expect(listed.filter { $0.id == standUp.id }.map(\.start.iso) == ["2026-11-02T07:45:00Z", "2026-11-09T07:45:00Z", "2026-11-16T09:00:00Z",
                                                                                "2026-11-30T07:45:00Z", "2026-12-07T07:45:00Z"])
            #expect(listed.first { $0.id == standUp.id }?.title == "early stand-up")

            // The following of the second event's first instance: all of it.
            let gone = try await client.send(.delete, APIPath.calendarEvent(following.id) + "?scope=following&instance=2026-12-14T08:30:00Z", token: token)
            #expect(gone.status == .noContent)
            #expect(try await client.send(.get, APIPath.calendarEvent(following.id), token: token).status == .notFound)
        }
    }

    @Test("a weekly 09:00 in Paris stays 09:00 there across the change to summer time")
    func aZoneKeepsTheClock() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addUsers("ann")
        try await harness.withServer { client in
            let token = try await client.token(for: "ann")
            _ = try await client.send(.post, APIPath.calendarEvents, token: token, json: NewCalendarEvent(
                title: "yoga", start: "2027-03-15T09:00:00+01:00", end: "2027-03-15T10:00:00+01:00", recurrence: "FREQ=WEEKLY", timeZone: "Europe/Paris"))
            let starts = try await client.instances(from: "2027-03-01", to: "2027-04-10", token: token).map(\.start.iso)
            #expect(starts == ["2027-03-15T08:00:00Z", "2027-03-22T08:00:00Z", "2027-03-29T07:00:00Z", "2027-04-05T07:00:00Z"])
            let unknown = try await client.send(.post, APIPath.calendarEvents, token: token, json: NewCalendarEvent(
                title: "x", start: "2027-03-15T09:00:00Z", end: "2027-03-15T10:00:00Z", timeZone: "../../etc/passwd"))
            #expect(unknown.apiError?.field == "timeZone")
            let badRule = try await client.send(.post, APIPath.calendarEvents, token: token, json: NewCalendarEvent(
                title: "x", start: "2027-03-15T09:00:00Z", end: "2027-03-15T10:00:00Z", recurrence: "FREQ=FORTNIGHTLY"))
            #expect(badRule.apiError?.field == "recurrence")
        }
    }

    @Test("an import round-trips through export with what the dashboard does not show; another user's events are out of its reach")
    func importAndExport() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addUsers("ann", "bob")
        try await harness.withServer { client in
            let ann = try await client.token(for: "ann")
            let bob = try await client.token(for: "bob")
            let text = try String(contentsOf: CalendarOracle.fixtures.appendingPathComponent("team.ics"), encoding: .utf8)
            let first = try await client.importCalendar(text, token: ann)
            #expect(first.added > 0 && first.replaced == 0)
            let again = try await client.importCalendar(text, token: ann)
            #expect(again.added == 0 && again.replaced == first.added)
            // Bob's import of the same UIDs is his own; Ann's events stay as they were.
            let bobs = try await client.importCalendar(text.replacingOccurrences(of: "SUMMARY:Stand-up\r\n", with: "SUMMARY:Bob's\r\n")
                .replacingOccurrences(of: "SUMMARY:Stand-up\n", with: "SUMMARY:Bob's\n"), token: bob)
            #expect(bobs.added == first.added)
            #expect(try await client.instances(from: "2026-11-01", to: "2027-11-01", token: ann).allSatisfy { $0.title != "Bob's" })

            let exported = try await client.send(.get, APIPath.calendarExport, token: ann)
            #expect(exported.headers[.contentType]?.hasPrefix("text/calendar") == true)
            let calendar = try #require(try ICalendarText.read(String(buffer: exported.body)).first)
            let original = try #require(try ICalendarText.read(text).first)
            // Every event as it came, its properties the dashboard does not show included (DTSTAMP aside, which the export keeps too).
            for event in original.components(named: "VEVENT") {
                let uid = try #require(event["UID"]?.value)
                let back = try #require(calendar.components(named: "VEVENT").first {
                    $0["UID"]?.value == uid && $0["RECURRENCE-ID"]?.value == event["RECURRENCE-ID"]?.value
                })
                #expect(Set(back.properties.map { ICalendarText.contentLine($0) }) == Set(event.properties.map { ICalendarText.contentLine($0) }), "\(uid)")
            }
            #expect(calendar.components(named: "VTIMEZONE").count == original.components(named: "VTIMEZONE").count)
        }
    }

    @Test("a hostile import: mistakes named by line, the rest imported; rules that would spend the server are bounded")
    func hostileImport() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addUsers("ann", "bob", "cat")
        try await harness.withServer { client in
            let token = try await client.token(for: "ann")
            func event(_ uid: String, _ lines: String) -> String {
                "BEGIN:VEVENT\r\nUID:\(uid)\r\nDTSTAMP:20261101T000000Z\r\nSUMMARY:\(uid)\r\n\(lines)END:VEVENT\r\n"
            }
            var body = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//hostile//EN\r\n"
            body += event("no-start", "")
            body += event("bad-rule", "DTSTART:20261101T090000Z\r\nRRULE:FREQ=SOMETIMES\r\n")
            body += "BEGIN:VEVENT\r\nSUMMARY:no uid\r\nDTSTART:20261101T090000Z\r\nEND:VEVENT\r\n"
            // Every second (on for a day each), forever; never again after its start.
            for number in 0..<3 { body += event("every-second-\(number)", "DTSTART:20261101T000000Z\r\nDURATION:P1D\r\nRRULE:FREQ=SECONDLY\r\n") }
            body += event("never", "DTSTART:20261101T000000Z\r\nRRULE:FREQ=SECONDLY;BYMONTH=2;BYMONTHDAY=30\r\n")
            body += "END:VCALENDAR\r\n"
            let imported = try await client.importCalendar(body, token: token)
            #expect(imported.added == 4)
            #expect(imported.skipped.map(\.line) == [4, 14, 16])
            #expect(imported.skipped.map(\.error).allSatisfy { !$0.isEmpty })
            // A page of a year is worked out from where it starts, not for the whole year.
            let clock = ContinuousClock()
            let started = clock.now
            let year = try await client.send(.get, APIPath.calendarEvents + "?from=2026-11-01&to=2027-11-01", token: token)
            #expect(try year.decode(Page<CalendarEvent>.self).items.count == CalendarLimits.maxPageSize)
            #expect(clock.now - started < .seconds(5))
            // Every instance of ten minutes, page by page, once.
            var instances: [String] = []
            var cursor: String?
            repeat {
                let page = try await client.send(.get, APIPath.calendarEvents + "?from=2026-11-01T00:00:00Z&to=2026-11-01T00:09:59Z"
                                                 + (cursor.map { "&cursor=\($0)" } ?? ""), token: token).decode(Page<CalendarEvent>.self)
                instances += page.items.map { "\($0.id) \($0.start.iso)" }
                cursor = page.next
            } while cursor != nil && instances.count < 10_000
            #expect(instances.count == 3 * 600 + 1)  // and the start of the rule that never happens, its only instance
            #expect(Set(instances).count == instances.count)

            // A rule with a count is walked from its start, to count: a day near the end of 100 000
            // minutes (the most a count may be) is a walk of most of them. Twenty of them are more work
            // than a request may do, 400 naming `to`, in bounded time; their first day is not.
            let cat = try await client.token(for: "cat")
            var costly = "BEGIN:VCALENDAR\r\n"
            for number in 0..<20 { costly += event("minutes-\(number)", "DTSTART:20260101T000000Z\r\nRRULE:FREQ=MINUTELY;COUNT=100000\r\n") }
            #expect(try await client.importCalendar(costly + "END:VCALENDAR\r\n", token: cat).added == 20)
            #expect(try await client.send(.get, APIPath.calendarEvents + "?from=2026-01-01&to=2026-01-02", token: cat).status == .ok)
            let before = clock.now
            let busy = try await client.send(.get, APIPath.calendarEvents + "?from=2026-03-10&to=2026-03-11", token: cat)
            #expect(busy.status == .badRequest)
            #expect(busy.apiError?.field == "to")
            // The work is bounded by count (`CalendarLimits.workPerRequest`); the time only says so
            // loosely, as a debug build in a parallel run on two cores takes some 5 s for it, where
            // unbounded work would take minutes.
            #expect(clock.now - before < .seconds(20))
            // A zone it does not know is UTC's.
            let bob = try await client.token(for: "bob")
            let nowhere = try await client.importCalendar("BEGIN:VCALENDAR\r\n" + event("nowhere", "DTSTART;TZID=Nowhere/Else:20261101T090000\r\n"
                                                              + "RRULE:FREQ=DAILY;COUNT=3\r\n") + "END:VCALENDAR\r\n", token: bob)
            #expect(nowhere.added == 1)
            #expect(try await client.instances(from: "2026-11-01", to: "2026-11-05", token: bob).map(\.start.iso)
                == ["2026-11-01T09:00:00Z", "2026-11-02T09:00:00Z", "2026-11-03T09:00:00Z"])

            // Not iCalendar at all, or not said to be.
            let garbage = try await client.execute(uri: APIPath.calendarImport, method: .post, headers: [.contentType: "text/calendar",
                                                                                                         .authorization: "Bearer \(token)"],
                                                   body: ByteBuffer(string: "BEGIN:VCALENDAR\r\nEND:VEVENT\r\n"))
            #expect(garbage.status == .badRequest)
            #expect(garbage.apiError?.error.contains("line 2") == true)
            let json = try await client.send(.post, APIPath.calendarImport, token: token, rawBody: "{}")
            #expect(json.status == .unsupportedMediaType)
        }
    }
}

extension TestClientProtocol {
    /// Imports `text` as `text/calendar`.
    func importCalendar(_ text: String, token: String) async throws -> CalendarImportResult {
        let response = try await execute(uri: APIPath.calendarImport, method: .post,
                                         headers: [.contentType: "text/calendar", .authorization: "Bearer \(token)"], body: ByteBuffer(string: text))
        guard response.status == .ok else { throw HarnessError.status(response.status.code, String(buffer: response.body)) }
        return try response.decode(CalendarImportResult.self)
    }

    /// Every instance overlapping `from`…`to`, page by page.
    func instances(from: String, to: String, token: String) async throws -> [CalendarEvent] {
        try await everyPage(of: APIPath.calendarEvents + "?from=\(from)&to=\(to)", token: token)
    }

    /// Every item of a list, following its pages' cursors; `path` holds a query already.
    func everyPage<Item: Codable & Sendable>(of path: String, token: String) async throws -> [Item] {
        var items: [Item] = []
        var cursor: String?
        repeat {
            let response = try await send(.get, path + (cursor.map { "&cursor=\($0)" } ?? ""), token: token)
            guard response.status == .ok else { throw HarnessError.status(response.status.code, String(buffer: response.body)) }
            let page = try response.decode(Page<Item>.self)
            items += page.items
            cursor = page.next
        } while cursor != nil
        return items
    }
}

@Suite("BFF tasks as iCalendar")
struct TasksAsICalendarTests {
    @Test("a task imported goes to the todo list with its priority; the list's change is written over it on export, the rest kept")
    func tasksRoundTrip() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addUsers("ann")
        try await harness.withServer { client in
            let token = try await client.token(for: "ann")
            let text = try String(contentsOf: CalendarOracle.fixtures.appendingPathComponent("personal.ics"), encoding: .utf8)
            let task = try #require(try ICalendarText.read(text)[0].components(named: "VTODO").first)
            let imported = try await client.importCalendar(text, token: token)
            #expect(imported.tasksAdded == 1 && imported.tasksReplaced == 0)
            let items = try await client.send(.get, APIPath.todoItems, token: token).decode(Page<TodoItem>.self).items
            let item = try #require(items.first { $0.uid == task["UID"]?.value })
            #expect(item.title == task["SUMMARY"].map { ICalText.unescape($0.value) })
            #expect(item.priority == task["PRIORITY"].flatMap { Int($0.value) })
            #expect(try await client.importCalendar(text, token: token).tasksReplaced == 1)

            _ = try await client.send(.patch, APIPath.todoItem(item.id), token: token, json: TodoPatch(done: true))
            let exported = try await client.send(.get, APIPath.todoExport, token: token)
            let back = try #require(try ICalendarText.read(String(buffer: exported.body)).first?.components(named: "VTODO").first { $0["UID"]?.value == item.uid })
            #expect(back["STATUS"]?.value == "COMPLETED")
            #expect(back["COMPLETED"] != nil)
            // What the list does not show, as it came.
            for property in task.properties where !["STATUS", "COMPLETED", "PERCENT-COMPLETE"].contains(property.name) {
                #expect(back.all(property.name).map { ICalendarText.contentLine($0) }.contains(ICalendarText.contentLine(property)), "\(property.name)")
            }
        }
    }

    @Test("a priority is given, changed and taken away through the API (1 to 9, 0 for none; else 400 naming priority), and exported as PRIORITY")
    func priorities() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addUsers("ann")
        try await harness.withServer { client in
            let token = try await client.token(for: "ann")
            let created = try await client.send(.post, APIPath.todoItems, token: token, json: NewTodo(title: "Tax return", priority: 2))
            #expect(created.status == .created)
            let item = try created.decode(TodoItem.self)
            #expect(item.priority == 2)
            for wrong in [10, -1] {
                let refused = try await client.send(.post, APIPath.todoItems, token: token, json: NewTodo(title: "x", priority: wrong))
                #expect(refused.status == .badRequest && refused.apiError?.field == "priority")
                let patched = try await client.send(.patch, APIPath.todoItem(item.id), token: token, json: TodoPatch(priority: wrong))
                #expect(patched.status == .badRequest && patched.apiError?.field == "priority")
            }
            let lowered = try await client.send(.patch, APIPath.todoItem(item.id), token: token, json: TodoPatch(priority: 9)).decode(TodoItem.self)
            #expect(lowered.priority == 9 && lowered.title == "Tax return")
            let exported = try await client.send(.get, APIPath.todoExport, token: token)
            let task = try #require(try ICalendarText.read(String(buffer: exported.body)).first?.components(named: "VTODO").first)
            #expect(task["PRIORITY"]?.value == "9")
            let cleared = try await client.send(.patch, APIPath.todoItem(item.id), token: token, json: TodoPatch(priority: 0)).decode(TodoItem.self)
            #expect(cleared.priority == nil)
            #expect(try await client.send(.get, APIPath.todoItem(item.id), token: token).decode(TodoItem.self).priority == nil)
        }
    }
}
