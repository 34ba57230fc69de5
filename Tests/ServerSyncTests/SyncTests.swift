import AppModel
import BFFTesting
import CalendarTime
import CanvasCore
import Foundation
import GRDB
import HTTPClient
import ServerAPI
@testable import ServerSync
import Synchronization
import Testing
import TestSupport

@Suite("Sync engine against a real BFF and a real cache file", .serialized)
struct SyncTests {
    @Test("a new todo shows at once with a local id, then is synced to the server's id")
    func createOnline() async throws {
        try await withTemporaryDirectory { directory in
            try await LiveBFF.withServer(users: ["ann"]) { server in
                let subject = try SyncUnderTest(cacheFile: directory.appendingPathComponent("cache.sqlite"))
                subject.sync.connect(try await client(of: server, as: "ann"))
                subject.sync.send(.todo(.create(NewTodo(title: "Buy milk", due: "2026-11-23"))))

                let created = try await subject.recorder.first(TodoItemCreated.self)
                #expect(LocalID.isLocal(created.item.id))
                #expect(created.item.title == "Buy milk" && created.item.due == "2026-11-23")
                let synced = try await subject.recorder.first(TodoItemSynced.self)
                #expect(synced.localID == created.item.id && synced.item.id > 0 && synced.item.title == "Buy milk")
                try await subject.recorder.waitForStatus(of: .todo) { $0.connection == .online && $0.pendingWrites == 0 }

                let onServer = try await client(of: server, as: "ann").get(APIPath.todoItems, as: Page<TodoItem>.self)
                #expect(onServer.items.map(\.title) == ["Buy milk"])
                await subject.sync.stop()
            }
        }
    }

    @Test("writes made while the server is down wait in the outbox and reach it exactly once, in order")
    func offlineOutbox() async throws {
        try await withTemporaryDirectory { directory in
            let bff = try LiveBFF()
            defer { bff.remove() }
            try await bff.addUsers(["ann"])
            var server = try await bff.start()
            let port = server.port
            let login = try await client(of: server, as: "ann")
            await server.stop()

            let subject = try SyncUnderTest(cacheFile: directory.appendingPathComponent("cache.sqlite"))
            subject.sync.connect(HTTPClient(endpoint: .loopback(port: port), token: login.token))
            try await subject.recorder.waitForStatus(of: .todo) { $0.connection == .offline }
            subject.sync.send(.todo(.create(NewTodo(title: "Written offline"))))
            let created = try await subject.recorder.first(TodoItemCreated.self)
            subject.sync.send(.todo(.update(id: created.item.id, TodoPatch(done: true))))
            let completed = try await subject.recorder.first(TodoItemCompleted.self)
            #expect(completed.item.id == created.item.id && completed.item.done)
            subject.sync.send(.chat(.post(channel: "general", text: "hello from offline")))
            try await subject.recorder.waitForStatus(of: .todo) { $0.connection == .offline && $0.pendingWrites == 2 }
            try await subject.recorder.waitForStatus(of: .chat) { $0.pendingWrites == 1 }

            server = try await bff.start(port: port)
            try await subject.recorder.waitForStatus(of: .todo) { $0.connection == .online && $0.pendingWrites == 0 }
            try await subject.recorder.waitForStatus(of: .chat) { $0.pendingWrites == 0 }
            let synced = try await subject.recorder.first(TodoItemSynced.self)
            #expect(synced.localID == created.item.id)

            let reader = try await client(of: server, as: "ann")
            let items = try await reader.get(APIPath.todoItems, as: Page<TodoItem>.self).items
            #expect(items.map(\.title) == ["Written offline"])
            #expect(items.first?.done == true)
            let messages = try await reader.get(APIPath.chatMessages(channel: "general"), as: Page<ChatMessage>.self).items
            #expect(messages.map(\.text) == ["hello from offline"])
            #expect(messages.first?.author == "ann")
            await subject.sync.stop()
            await server.stop()
        }
    }

    @Test("the cache answers at once on the next start, before and without any server")
    func cachedStart() async throws {
        try await withTemporaryDirectory { directory in
            let file = directory.appendingPathComponent("cache.sqlite")
            try await LiveBFF.withServer(users: ["ann"]) { server in
                let first = try SyncUnderTest(cacheFile: file)
                first.sync.connect(try await client(of: server, as: "ann"))
                first.sync.send(.todo(.create(NewTodo(title: "Kept"))))
                _ = try await first.recorder.first(TodoItemSynced.self)
                await first.sync.stop()
            }
            let second = try SyncUnderTest(cacheFile: file)
            second.sync.send(.todo(.load))
            let loaded = try await second.recorder.first(TodoItemsLoaded.self)
            #expect(loaded.origin == .cache)
            #expect(loaded.items.map(\.title) == ["Kept"])
            #expect(loaded.items.allSatisfy { !LocalID.isLocal($0.id) })
            await second.sync.stop()
        }
    }

    @Test("a restart on a complete cache resumes the live stream instead of fetching every todo again; what changed meanwhile arrives")
    func resumeInsteadOfReload() async throws {
        try await withTemporaryDirectory { directory in
            let file = directory.appendingPathComponent("cache.sqlite")
            try await LiveBFF.withServer(users: ["ann"]) { server in
                let phone = try await client(of: server, as: "ann")
                _ = try await phone.post(APIPath.todoItems, body: NewTodo(title: "Old"), as: TodoItem.self)
                let first = try SyncUnderTest(cacheFile: file)
                first.sync.connect(try await client(of: server, as: "ann"))
                _ = try await first.recorder.first(TodoItemsLoaded.self) { $0.origin == .server }
                let observer = try SyncCache.open(at: file)
                try await eventually("the cache marked complete") { try await observer.completeSince() != nil }
                await first.sync.stop()

                let missed = try await phone.post(APIPath.todoItems, body: NewTodo(title: "While closed"), as: TodoItem.self)
                let listsBefore = try await todoListRequests(server)
                #expect(listsBefore > 0, "the first start loaded the list once")
                let second = try SyncUnderTest(cacheFile: file)
                second.sync.send(.todo(.load))
                second.sync.connect(try await client(of: server, as: "ann"))
                let arrived = try await second.recorder.first(TodoItemCreated.self, timeout: .seconds(5))
                #expect(arrived.item == missed)
                try await second.recorder.waitForStatus(of: .todo) { $0.connection == .online && $0.lastSynced != nil }
                // Commands run in order: once a load sent now is answered, a refetch queued by the
                // start would have been published, and counted by the server.
                second.sync.send(.todo(.load))
                _ = try await second.recorder.first(TodoItemsLoaded.self) { _ in second.recorder.all(TodoItemsLoaded.self).count == 2 }
                #expect(second.recorder.all(TodoItemsLoaded.self).map(\.origin) == [.cache, .cache])
                #expect(try await todoListRequests(server) == listsBefore)
                await second.sync.stop()
            }
        }
    }

    @Test("a reload after a stream reset removes what was deleted elsewhere while the dashboard was closed")
    func reloadDeletes() async throws {
        try await withTemporaryDirectory { directory in
            let file = directory.appendingPathComponent("cache.sqlite")
            let november = DayRange(first: "2026-11-01", last: "2026-11-30")
            let bff = try LiveBFF()
            defer { bff.remove() }
            try await bff.addUsers(["ann"])
            let server = try await bff.start()
            let phone = try await client(of: server, as: "ann")
            let gone = try await phone.post(APIPath.todoItems, body: NewTodo(title: "Gone"), as: TodoItem.self)
            _ = try await phone.post(APIPath.todoItems, body: NewTodo(title: "Stays"), as: TodoItem.self)
            let cancelled = try await phone.post(APIPath.calendarEvents, body: NewCalendarEvent(title: "Cancelled", start: "2026-11-23T09:00:00Z", end: "2026-11-23T10:00:00Z"), as: CalendarEvent.self)

            let first = try SyncUnderTest(cacheFile: file)
            first.sync.send(.calendar(.load(november)))
            first.sync.connect(try await client(of: server, as: "ann"))
            let loaded = try await first.recorder.first(TodoItemsLoaded.self) { $0.origin == .server }
            #expect(Set(loaded.items.map(\.title)) == ["Gone", "Stays"])
            _ = try await first.recorder.first(CalendarEventsLoaded.self) { $0.origin == .server && !$0.events.isEmpty }
            await first.sync.stop()

            // While the dashboard is closed, another client deletes, and the server stops keeping
            // the events that would have told the dashboard: its next start gets a stream reset.
            try await phone.delete(APIPath.todoItem(gone.id))
            try await phone.delete(APIPath.calendarEvent(cancelled.id))
            // As the server lets events go: the rows, and the horizon past them (everyone's).
            try await DatabaseQueue(path: bff.configuration().databaseURL.path).write { db in
                try db.execute(sql: """
                    INSERT INTO live_event_horizons (owner_id, let_go_through) VALUES (0, (SELECT MAX(id) FROM live_events))
                    ON CONFLICT (owner_id) DO UPDATE SET let_go_through = excluded.let_go_through
                    """)
                try db.execute(sql: "DELETE FROM live_events")
            }

            let second = try SyncUnderTest(cacheFile: file)
            second.sync.send(.calendar(.load(november)))
            second.sync.connect(try await client(of: server, as: "ann"))
            let reloaded = try await second.recorder.first(TodoItemsLoaded.self) { $0.origin == .server }
            #expect(reloaded.items.map(\.title) == ["Stays"])
            let calendar = try await second.recorder.first(CalendarEventsLoaded.self) { $0.origin == .server }
            #expect(calendar.events.isEmpty)
            await second.sync.stop()
            await server.stop()
        }
    }

    @Test("a write's record and its app's new unsent count come in one batch, so no frame shows one without the other")
    func writeAndCountTogether() async throws {
        try await withTemporaryDirectory { directory in
            let subject = try SyncUnderTest(cacheFile: directory.appendingPathComponent("cache.sqlite"))
            subject.sync.send(.todo(.create(NewTodo(title: "Offline"))))
            _ = try await subject.recorder.first(TodoItemCreated.self)
            let batch = try #require(subject.recorder.batches.first { $0.contains { $0 is TodoItemCreated } })
            #expect(batch.contains { ($0 as? SyncStatusChanged).map { $0.app == .todo && $0.status.pendingWrites == 1 } == true })
            await subject.sync.stop()
        }
    }

    @Test("the todos read at start answer the first load, but never one that follows a change")
    func startupReadIsNeverStale() async throws {
        try await withTemporaryDirectory { directory in
            let file = directory.appendingPathComponent("cache.sqlite")
            let first = try SyncUnderTest(cacheFile: file)
            first.sync.send(.todo(.create(NewTodo(title: "Earlier"))))
            _ = try await first.recorder.first(TodoItemCreated.self)
            await first.sync.stop()

            let second = try SyncUnderTest(cacheFile: file)
            second.sync.send(.todo(.create(NewTodo(title: "Just now"))))
            second.sync.send(.todo(.load))
            let loaded = try await second.recorder.first(TodoItemsLoaded.self)
            #expect(Set(loaded.items.map(\.title)) == ["Earlier", "Just now"])
            await second.sync.stop()
        }
    }

    @Test("connecting after the queued commands makes the client only once they are answered from the cache")
    func connectAfterQueuedCommands() async throws {
        try await withTemporaryDirectory { directory in
            try await LiveBFF.withServer(users: ["ann"]) { server in
                let subject = try SyncUnderTest(cacheFile: directory.appendingPathComponent("cache.sqlite"))
                let answeredFirst = Mutex<Bool?>(nil)
                let ann = try await client(of: server, as: "ann")
                subject.sync.send(.todo(.load))
                subject.sync.send(.chat(.loadChannels))
                subject.sync.connect(afterQueuedCommands: { [recorder = subject.recorder] in
                    answeredFirst.withLock {
                        $0 = !recorder.all(TodoItemsLoaded.self).isEmpty && !recorder.all(ChatChannelsLoaded.self).isEmpty
                    }
                    return ann
                })
                try await subject.recorder.waitForStatus(of: .todo) { $0.connection == .online }
                #expect(answeredFirst.withLock { $0 } == true)
                await subject.sync.stop()
            }
        }
    }

    @Test("another client's changes arrive live, and our own writes are not published twice")
    func liveChanges() async throws {
        try await withTemporaryDirectory { directory in
            try await LiveBFF.withServer(users: ["ann", "bob"]) { server in
                let subject = try SyncUnderTest(cacheFile: directory.appendingPathComponent("cache.sqlite"))
                subject.sync.connect(try await client(of: server, as: "ann"))
                try await subject.recorder.waitForStatus(of: .todo) { $0.connection == .online }
                _ = try await subject.recorder.first(TodoItemsLoaded.self) { $0.origin == .server }

                let otherDevice = try await client(of: server, as: "ann")
                let made = try await otherDevice.post(APIPath.todoItems, body: NewTodo(title: "From the phone"), as: TodoItem.self)
                let arrived = try await subject.recorder.first(TodoItemCreated.self, timeout: .seconds(1))
                #expect(arrived.item == made)

                let bob = try await client(of: server, as: "bob")
                let said = try await bob.post(APIPath.chatMessages(channel: "general"), body: NewChatMessage(text: "hi \u{1B}[2J"), as: ChatMessage.self)
                let received = try await subject.recorder.first(ChatMessageReceived.self, timeout: .seconds(1))
                #expect(received.message == said && !received.mine)

                subject.sync.send(.chat(.post(channel: "general", text: "mine")))
                _ = try await subject.recorder.first(ChatMessageSynced.self)
                // A later message from bob: the live stream delivers in order, so the server's
                // echo of ours, were it published, is recorded before this one.
                _ = try await bob.post(APIPath.chatMessages(channel: "general"), body: NewChatMessage(text: "after"), as: ChatMessage.self)
                _ = try await subject.recorder.first(ChatMessageReceived.self, timeout: .seconds(5)) { $0.message.text == "after" }
                // The local copy (with its local id) and at most one server copy, both marked mine;
                // the widget replaces the one by the other (`ChatMessageSynced`).
                let mine = subject.recorder.all(ChatMessageReceived.self).filter { $0.message.text == "mine" }
                #expect(mine.allSatisfy { $0.mine })
                #expect(mine.filter { LocalID.isLocal($0.message.id) }.count == 1)
                #expect(mine.filter { !LocalID.isLocal($0.message.id) }.count <= 1)
                await subject.sync.stop()
            }
        }
    }

    @Test("a todo made and deleted offline never reaches the server")
    func unsentDelete() async throws {
        try await withTemporaryDirectory { directory in
            let port = try await LiveBFF.closedPort()
            let subject = try SyncUnderTest(cacheFile: directory.appendingPathComponent("cache.sqlite"))
            subject.sync.connect(HTTPClient(endpoint: .loopback(port: port)))
            subject.sync.send(.todo(.create(NewTodo(title: "Never mind"))))
            let created = try await subject.recorder.first(TodoItemCreated.self)
            subject.sync.send(.todo(.delete(id: created.item.id)))
            let deleted = try await subject.recorder.first(TodoItemDeleted.self)
            #expect(deleted.id == created.item.id)
            try await subject.recorder.waitForStatus(of: .todo) { $0.pendingWrites == 0 }
            subject.sync.send(.todo(.load))
            let loaded = try await subject.recorder.first(TodoItemsLoaded.self)
            #expect(loaded.items.isEmpty)
            await subject.sync.stop()
        }
    }

    @Test("calendar events made offline show in the loaded range with a local id")
    func calendarRange() async throws {
        try await withTemporaryDirectory { directory in
            try await LiveBFF.withServer(users: ["ann"]) { server in
                let subject = try SyncUnderTest(cacheFile: directory.appendingPathComponent("cache.sqlite"))
                let november = DayRange(first: "2026-11-01", last: "2026-11-30")
                subject.sync.send(.calendar(.create(NewCalendarEvent(title: "Standup", start: "2026-11-23T09:30:00Z", end: "2026-11-23T10:00:00Z"))))
                subject.sync.send(.calendar(.load(november)))
                let cached = try await subject.recorder.first(CalendarEventsLoaded.self)
                #expect(cached.events.map(\.title) == ["Standup"] && LocalID.isLocal(cached.events[0].id))

                subject.sync.connect(try await client(of: server, as: "ann"))
                let synced = try await subject.recorder.first(CalendarEventSynced.self)
                #expect(synced.event.title == "Standup" && synced.event.id > 0)
                let fromServer = try await subject.recorder.first(CalendarEventsLoaded.self) { $0.origin == .server }
                #expect(fromServer.events.map(\.id) == [synced.event.id])
                await subject.sync.stop()
            }
        }
    }

    @Test("a weekly event's instances reach the cache each on its own, and its change on another device brings them again")
    func repeatingEvents() async throws {
        try await withTemporaryDirectory { directory in
            try await LiveBFF.withServer(users: ["ann"]) { server in
                let file = directory.appendingPathComponent("cache.sqlite")
                let subject = try SyncUnderTest(cacheFile: file)
                let november = DayRange(first: "2026-11-01", last: "2026-11-30")
                subject.sync.send(.calendar(.load(november)))
                subject.sync.connect(try await client(of: server, as: "ann"))
                _ = try await subject.recorder.first(CalendarEventsLoaded.self) { $0.origin == .server }

                let phone = try await client(of: server, as: "ann")
                let standUp = try await phone.post(APIPath.calendarEvents, body: NewCalendarEvent(
                    title: "stand-up", start: "2026-11-02T09:00:00+01:00", end: "2026-11-02T09:15:00+01:00", recurrence: "FREQ=WEEKLY;BYDAY=MO",
                    timeZone: "Europe/Paris"), as: CalendarEvent.self)
                let weekly = try await subject.recorder.first(CalendarEventsLoaded.self) { $0.origin == .server && !$0.events.isEmpty }
                #expect(weekly.events.map(\.start.iso) == ["02", "09", "16", "23", "30"].map { "2026-11-\($0)T08:00:00Z" })
                #expect(weekly.events.allSatisfy { $0.id == standUp.id && $0.timeZone == "Europe/Paris" })

                // Another device moves every instance: the month comes again, as the server lists it.
                _ = try await phone.patch(APIPath.calendarEvent(standUp.id) + "?scope=all", body: CalendarEventPatch(
                    title: "early stand-up", start: "2026-11-02T08:45:00+01:00", end: "2026-11-02T09:00:00+01:00"), as: CalendarEvent.self)
                let moved = try await subject.recorder.first(CalendarEventsLoaded.self) { loaded in
                    loaded.origin == .server && loaded.events.first?.title == "early stand-up"
                }
                #expect(moved.events.map(\.start.iso) == ["02", "09", "16", "23", "30"].map { "2026-11-\($0)T07:45:00Z" })
                await subject.sync.stop()

                // The next start answers from the cache: every instance, each with what the server said of it.
                let again = try SyncUnderTest(cacheFile: file)
                again.sync.send(.calendar(.load(november)))
                let cached = try await again.recorder.first(CalendarEventsLoaded.self) { $0.origin == .cache }
                #expect(cached.events == moved.events)
                await again.sync.stop()
            }
        }
    }

    @Test("one instance moved or deleted in the dashboard changes at once in the cache, and on the server that instance alone")
    func oneInstance() async throws {
        try await withTemporaryDirectory { directory in
            try await LiveBFF.withServer(users: ["ann"]) { server in
                let subject = try SyncUnderTest(cacheFile: directory.appendingPathComponent("cache.sqlite"))
                let november = DayRange(first: "2026-11-01", last: "2026-11-30")
                subject.sync.send(.calendar(.load(november)))
                subject.sync.connect(try await client(of: server, as: "ann"))
                _ = try await subject.recorder.first(CalendarEventsLoaded.self) { $0.origin == .server }
                let phone = try await client(of: server, as: "ann")
                let standUp = try await phone.post(APIPath.calendarEvents, body: NewCalendarEvent(
                    title: "stand-up", start: "2026-11-02T09:00:00Z", end: "2026-11-02T09:15:00Z", recurrence: "FREQ=WEEKLY"), as: CalendarEvent.self)
                _ = try await subject.recorder.first(CalendarEventsLoaded.self) { $0.origin == .server && !$0.events.isEmpty }

                let sixteenth = try #require(UTCInstant(iso: "2026-11-16T09:00:00Z"))
                subject.sync.send(.calendar(.update(id: standUp.id, CalendarEventPatch(start: "2026-11-17T09:00:00Z", end: "2026-11-17T09:15:00Z"),
                                                    of: CalendarInstances(.this, from: sixteenth))))
                let moved = try await subject.recorder.first(CalendarEventUpdated.self)
                #expect(moved.event.start.iso == "2026-11-17T09:00:00Z" && moved.event.instanceStart == sixteenth, "shown at once, as that instance")
                subject.sync.send(.calendar(.delete(id: standUp.id, of: CalendarInstances(.this, from: try #require(UTCInstant(iso: "2026-11-23T09:00:00Z"))))))
                let deleted = try await subject.recorder.first(CalendarEventDeleted.self)
                #expect(deleted.instances?.scope == .this)
                try await subject.recorder.waitForStatus(of: .calendar) { $0.connection == .online && $0.pendingWrites == 0 }

                let listed = try await phone.get(APIPath.calendarEvents + "?from=2026-11-01T00:00:00Z&to=2026-12-01T00:00:00Z", as: Page<CalendarEvent>.self)
                #expect(listed.items.map(\.start.iso) == ["2026-11-02T09:00:00Z", "2026-11-09T09:00:00Z", "2026-11-17T09:00:00Z", "2026-11-30T09:00:00Z"])
                #expect(listed.items.allSatisfy { $0.id == standUp.id })
                await subject.sync.stop()
            }
        }
    }
}

/// How many todo lists the server has answered, from its `/metrics`.
func todoListRequests(_ server: RunningBFF) async throws -> Int {
    let metrics = try await HTTPClient(endpoint: server.endpoint).send(HTTPClient.Request(.get, "/metrics"))
    return String(decoding: metrics.body, as: UTF8.self).split(separator: "\n")
        .filter { $0.hasPrefix("bff_http_requests_total{") && $0.contains(#"route="/api/todo/items""#) && $0.contains(#"method="GET""#) }
        .compactMap { $0.split(separator: " ").last.flatMap { Double($0) } }
        .reduce(0) { $0 + Int($1) }
}
