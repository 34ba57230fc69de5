import CalendarTime
import Foundation
import HummingbirdTesting
import ServerAPI
import TestSupport
import Testing

/// Two-way sync with a real CalDAV server (Radicale), its other side a calendar program using
/// python `caldav`, on both engines: calendars found from the server's root (`.well-known`), an
/// event made on either side appears on the other, changes and deletions go both ways, and an
/// event changed on both sides keeps the server's version with ours as a copy.
@Suite("BFF CalDAV sync against Radicale")
struct CalDAVTests {
    static let ann = (name: "ann", password: "radicale-ann")

    /// A server with ann, connected to `radicale`'s calendars; the calendar synced.
    static func connected(_ radicale: Radicale, client: some TestClientProtocol, token: String) async throws -> CalendarCollection {
        let made = try await client.send(.post, APIPath.calendarCalDAV, token: token,
                                         json: NewCalDAVConnection(url: radicale.url, user: ann.name, password: ann.password))
        #expect(made.status == .created, "\(String(buffer: made.body))")
        let calendars = try made.decode(Page<CalendarCollection>.self).items
        // The task list holds no events: not synced as a calendar.
        #expect(calendars.map(\.name) == ["Work"] && calendars.allSatisfy { $0.kind == "caldav" && !$0.readOnly })
        return try #require(calendars.first)
    }

    static func titles(_ client: some TestClientProtocol, token: String) async throws -> [String] {
        try await client.instances(from: "2026-11-23", to: "2026-12-01", token: token).map(\.title).sorted()
    }

    static func theirs(_ radicale: Radicale) async throws -> [[String]] {
        try JSONDecoder().decode([[String]].self, from: Data(try await radicale.peer(ann, "list", "work").utf8))
    }

    @Test("an event made on either side appears on the other; changes and deletions go both ways")
    func bothWays() async throws {
        let radicale = try await Radicale(users: [Self.ann])
        try await radicale.peer(Self.ann, "make-calendar", "work", "Work")
        try await radicale.peer(Self.ann, "make-calendar", "todo", "Chores", "tasks")
        try await radicale.peer(Self.ann, "put", "work", "theirs-1", "Planning", "20261124T100000Z", "20261124T110000Z")
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addUsers("ann", "bob")
        try await harness.withServer { client in
            let token = try await client.token(for: "ann")
            let calendar = try await Self.connected(radicale, client: client, token: token)
            // Theirs, here (the first sync runs at once).
            try await eventually("Planning synced", within: .seconds(10)) { try await Self.titles(client, token: token) == ["Planning"] }
            let planning = try #require(try await client.instances(from: "2026-11-23", to: "2026-12-01", token: token).first)
            #expect(planning.calendar == calendar.id && planning.readOnly == nil && planning.uid == "theirs-1")

            // Ours, there: a new event goes to the synced calendar (the default now).
            let new = NewCalendarEvent(title: "Review", start: "2026-11-25T09:00:00Z", end: "2026-11-25T10:00:00Z")
            let made = try await client.send(.post, APIPath.calendarEvents, token: token, json: new).decode(CalendarEvent.self)
            #expect(made.calendar == calendar.id)
            try await eventually("Review in Radicale", within: .seconds(10)) {
                try await Self.theirs(radicale).contains { $0[0] == made.uid && $0[1] == "Review" }
            }

            // Changes both ways.
            try await radicale.peer(Self.ann, "rename", "work", "theirs-1", "Planning (moved room)")
            _ = try await client.send(.post, APIPath.calendarRefresh(calendar.id), token: token)
            #expect(try await Self.titles(client, token: token) == ["Planning (moved room)", "Review"])
            #expect(try await client.instances(from: "2026-11-23", to: "2026-12-01", token: token).first { $0.uid == "theirs-1" }?.id == planning.id)
            _ = try await client.send(.patch, APIPath.calendarEvent(made.id), token: token, json: CalendarEventPatch(title: "Review (done)"))
            try await eventually("the change in Radicale", within: .seconds(10)) {
                try await Self.theirs(radicale).contains { $0[0] == made.uid && $0[1] == "Review (done)" }
            }

            // Deletions both ways.
            try await radicale.peer(Self.ann, "delete", "work", "theirs-1")
            _ = try await client.send(.post, APIPath.calendarRefresh(calendar.id), token: token)
            #expect(try await Self.titles(client, token: token) == ["Review (done)"])
            #expect(try await client.send(.delete, APIPath.calendarEvent(made.id), token: token).status == .noContent)
            try await eventually("the deletion in Radicale", within: .seconds(10)) { try await Self.theirs(radicale).isEmpty }

            // bob sees none of it.
            let bob = try await client.token(for: "bob")
            #expect(try await client.send(.get, APIPath.calendars, token: bob).decode(Page<CalendarCollection>.self).items.isEmpty)
        }
    }

    @Test("an event changed on both sides keeps the server's version, and ours as a copy that is sent too; the calendar says so")
    func changedOnBothSides() async throws {
        let radicale = try await Radicale(users: [Self.ann])
        try await radicale.peer(Self.ann, "make-calendar", "work", "Work")
        try await radicale.peer(Self.ann, "put", "work", "both", "Budget", "20261126T140000Z", "20261126T150000Z")
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addUsers("ann")
        try await harness.withServer { client in
            let token = try await client.token(for: "ann")
            let calendar = try await Self.connected(radicale, client: client, token: token)
            try await eventually("Budget synced", within: .seconds(10)) { try await Self.titles(client, token: token) == ["Budget"] }
            let budget = try #require(try await client.instances(from: "2026-11-23", to: "2026-12-01", token: token).first)
            try await radicale.peer(Self.ann, "rename", "work", "both", "Budget (theirs)")
            _ = try await client.send(.patch, APIPath.calendarEvent(budget.id), token: token, json: CalendarEventPatch(title: "Budget (ours)"))
            try await eventually("both kept here", within: .seconds(10)) {
                try await Self.titles(client, token: token) == ["Budget (ours) (changed here too)", "Budget (theirs)"]
            }
            try await eventually("both kept there", within: .seconds(10)) {
                try await Self.theirs(radicale).map { $0[1] }.sorted() == ["Budget (ours) (changed here too)", "Budget (theirs)"]
            }
            let listed = try await client.send(.get, APIPath.calendars, token: token).decode(Page<CalendarCollection>.self).items
            #expect(listed.first { $0.id == calendar.id }?.problem?.contains("changed here and on the server") == true)
        }
    }

    @Test("a wrong password is 422 naming user, a server that is no CalDAV one 422 naming url; no password in the answer")
    func refusals() async throws {
        let radicale = try await Radicale(users: [Self.ann])
        let web = try await StaticWebServer()
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addUsers("ann")
        try await harness.withServer { client in
            let token = try await client.token(for: "ann")
            let wrong = try await client.send(.post, APIPath.calendarCalDAV, token: token,
                                              json: NewCalDAVConnection(url: radicale.url, user: "ann", password: "not-her-password"))
            #expect(wrong.status == .unprocessableContent && wrong.apiError?.field == "user")
            #expect(wrong.apiError?.error.contains("refused the user name and password") == true)
            #expect(!String(buffer: wrong.body).contains("not-her-password"))
            let notDAV = try await client.send(.post, APIPath.calendarCalDAV, token: token,
                                               json: NewCalDAVConnection(url: web.url(""), user: "ann", password: "pw"))
            #expect(notDAV.status == .unprocessableContent && notDAV.apiError?.field == "url", "\(String(buffer: notDAV.body))")
        }
    }
}
