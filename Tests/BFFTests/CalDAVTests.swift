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
        let collections = try made.decode(Page<CalendarCollection>.self).items
        #expect(collections.allSatisfy { $0.kind == "caldav" && !$0.readOnly })
        // A task list holds no events: it is synced as a task list, not as a calendar.
        let calendars = collections.filter { $0.taskList == nil }
        #expect(calendars.map(\.name) == ["Work"])
        return try #require(calendars.first)
    }

    static func tasks(_ client: some TestClientProtocol, token: String) async throws -> [TodoItem] {
        try await client.send(.get, APIPath.todoItems, token: token).decode(Page<TodoItem>.self).items
    }

    static func theirTasks(_ radicale: Radicale) async throws -> [[String]] {
        try JSONDecoder().decode([[String]].self, from: Data(try await radicale.peer(ann, "list-tasks", "todo").utf8))
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

    @Test("a task list's tasks are todo items: made, done, changed and deleted on either side, kept twice when changed on both")
    func tasksBothWays() async throws {
        let radicale = try await Radicale(users: [Self.ann])
        try await radicale.peer(Self.ann, "make-calendar", "work", "Work")
        try await radicale.peer(Self.ann, "make-calendar", "todo", "Chores", "tasks")
        try await radicale.peer(Self.ann, "put-task", "todo", "theirs-task", "Buy stamps", "20261126")
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addUsers("ann", "bob")
        try await harness.withServer { client in
            let token = try await client.token(for: "ann")
            _ = try await Self.connected(radicale, client: client, token: token)
            let lists = try await client.send(.get, APIPath.calendars, token: token).decode(Page<CalendarCollection>.self).items
            let list = try #require(lists.first { $0.taskList == true })
            #expect(list.name == "Chores")
            // Theirs, here.
            try await eventually("Buy stamps synced", within: .seconds(10)) { try await Self.tasks(client, token: token).map(\.title) == ["Buy stamps"] }
            let stamps = try #require(try await Self.tasks(client, token: token).first)
            #expect(stamps.list == list.id && stamps.uid == "theirs-task" && stamps.due?.iso == "2026-11-26" && !stamps.done)

            // A list that is none of hers is refused by name; 0 is her own list, which no server has.
            let none = try await client.send(.post, APIPath.todoItems, token: token, json: NewTodo(title: "Nowhere", list: list.id + 100))
            #expect(none.status == .badRequest && none.apiError?.field == "list")
            let own = try await client.send(.post, APIPath.todoItems, token: token, json: NewTodo(title: "Mine alone", list: 0)).decode(TodoItem.self)
            #expect(own.list == nil)
            #expect(try await client.send(.delete, APIPath.todoItem(own.id), token: token).status == .noContent)
            // Bob, naming ann's list, cannot put an item in it (nor so reach her CalDAV server).
            let bob = try await client.token(for: "bob")
            let intruding = try await client.send(.post, APIPath.todoItems, token: bob, json: NewTodo(title: "Planted", list: list.id))
            #expect(intruding.status == .badRequest && intruding.apiError?.field == "list", "\(String(buffer: intruding.body))")

            // Ours, there: a new item goes to the synced list (the default now).
            let made = try await client.send(.post, APIPath.todoItems, token: token, json: NewTodo(title: "Call the plumber", priority: 1))
                .decode(TodoItem.self)
            #expect(made.list == list.id)
            let uid = try #require(made.uid)
            try await eventually("the plumber in Radicale", within: .seconds(10)) {
                try await Self.theirTasks(radicale).contains { $0 == [uid, "Call the plumber", "NEEDS-ACTION"] }
            }

            // Done both ways; what the list does not show is kept as it came.
            _ = try await client.send(.patch, APIPath.todoItem(stamps.id), token: token, json: TodoPatch(done: true))
            try await eventually("stamps done in Radicale", within: .seconds(10)) {
                try await Self.theirTasks(radicale).contains { $0 == ["theirs-task", "Buy stamps", "COMPLETED"] }
            }
            let exported = try await client.send(.get, APIPath.todoExport, token: token)
            #expect(String(buffer: exported.body).contains("X-PEER-NOTE:kept as it came"))
            try await radicale.peer(Self.ann, "complete-task", "todo", uid)
            _ = try await client.send(.post, APIPath.calendarRefresh(list.id), token: token)
            #expect(try await Self.tasks(client, token: token).first { $0.id == made.id }?.done == true)

            // Changed on both sides: the server's kept, ours as a copy, sent too.
            try await radicale.peer(Self.ann, "rename-task", "todo", uid, "Call the plumber (urgent)")
            _ = try await client.send(.patch, APIPath.todoItem(made.id), token: token, json: TodoPatch(title: "Call the plumber today"))
            try await eventually("both versions here and there", within: .seconds(10)) {
                let here = try await Self.tasks(client, token: token).map(\.title).sorted()
                let there = try await Self.theirTasks(radicale).map { $0[1] }.sorted()
                let both = ["Buy stamps", "Call the plumber (urgent)", "Call the plumber today (changed here too)"]
                return here == both && there == both
            }

            // Deletions both ways.
            try await radicale.peer(Self.ann, "delete-task", "todo", "theirs-task")
            _ = try await client.send(.post, APIPath.calendarRefresh(list.id), token: token)
            #expect(!(try await Self.tasks(client, token: token).map(\.title).contains("Buy stamps")))
            #expect(try await client.send(.delete, APIPath.todoItem(made.id), token: token).status == .noContent)
            try await eventually("the deletion in Radicale", within: .seconds(10)) {
                try await !Self.theirTasks(radicale).contains { $0[0] == uid }
            }
            // Removing the list removes its items here, and nothing there.
            #expect(try await client.send(.delete, APIPath.calendar(list.id), token: token).status == .noContent)
            #expect(try await Self.tasks(client, token: token).isEmpty)
            #expect(try await Self.theirTasks(radicale).count == 1)
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

    @Test("a wrong password is 422 naming user, a server that is no CalDAV one 422 naming url; no password in the answer nor sent to another origin")
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
            // A server that sends the request on to another origin does not get the password sent there.
            let away = try await client.send(.post, APIPath.calendarCalDAV, token: token,
                                             json: NewCalDAVConnection(url: web.url("elsewhere/"), user: "ann", password: "pw"))
            #expect(away.status == .unprocessableContent && away.apiError?.field == "url", "\(String(buffer: away.body))")
            #expect(!web.credentialsElsewhere.isEmpty, "the redirect was followed")
            #expect(!web.credentialsElsewhere.contains("yes"), "the password stays with the origin connected to")
        }
    }
}
