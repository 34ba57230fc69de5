import AppModel
import CalendarTime
import CanvasCore
import Foundation
import HTTPClient
import ServerAPI
@testable import ServerSync
import Testing

/// The sync engine's decisions, fed inputs and judged by the effects they return: no cache, no
/// server, no clock but the instants given.
@Suite("SyncMachine: inputs in, effects out")
struct SyncMachineTests {
    let start = Date(timeIntervalSince1970: 1_800_000_000)

    @Test("a write made offline shows with its app's unsent count in one batch, and is not sent")
    func offlineWrite() {
        var machine = SyncMachine()
        _ = machine.handle(.opened(CacheSummary()), now: start)
        #expect(machine.handle(.command(.todo(.create(NewTodo(title: "milk")))), now: start).labels == ["enqueue(todo)"])
        let effects = machine.handle(.enqueued([TodoItemCreated(item: TodoItem(id: -1, title: "milk"))], pending: [.todo: 1]), now: start)
        #expect(effects.labels == ["publish(todo.item.created, sync.status.changed)"])
        #expect(effects.statuses.first { $0.app == .todo }?.status.pendingWrites == 1)
    }

    @Test("connecting reads where the stream resumes, listens from there, and once online sends the outbox and reloads everything")
    func connectAndRefresh() {
        var machine = SyncMachine()
        _ = machine.handle(.opened(CacheSummary()), now: start)
        _ = machine.handle(.command(.calendar(.load(DayRange(first: "2026-11-01", last: "2026-11-30")))), now: start)
        _ = machine.handle(.command(.chat(.open(channel: "general"))), now: start)
        #expect(machine.handle(.connect(user: "ann"), now: start).labels == ["readStreamPosition"])
        #expect(machine.handle(.streamPosition(lastEventID: nil, completeSince: nil), now: start).labels == ["listen(nil)"])
        let effects = machine.handle(.stream(.connected), now: start)
        #expect(effects.statuses.allSatisfy { $0.status.connection == .online } && effects.statuses.count == 3)
        #expect(effects.labels.filter { !$0.hasPrefix("log") && !$0.hasPrefix("publish") }
                == ["readOutboxHead", "fetchReminders(1800000000…1800086400)"])
        // The reload starts once the outbox has sent what it holds.
        #expect(machine.handle(.outboxHead(nil), now: start).labels == [
            "setComplete(nil)", "fetch(registry)", "fetch(todos)", "fetch(channels)",
            "fetch(newestMessages(general))", "fetch(events(2026-11-01…2026-11-30))",
        ])
        // A second connect (the stream came back) sends the outbox but does not reload again.
        _ = machine.handle(.stream(.disconnected(.unreachable("gone"))), now: start)
        #expect(machine.handle(.stream(.connected), now: start).labels.filter { $0.hasPrefix("fetch") || $0.hasPrefix("read") } == ["readOutboxHead"])
    }

    @Test("the first reload waits until the outbox has sent what the user wrote offline, or paused")
    func reloadAfterOutbox() {
        for pausing in [false, true] {
            var machine = SyncMachine()
            _ = machine.handle(.opened(CacheSummary(pending: [.calendar: 1])), now: start)
            _ = machine.handle(.connect(user: "ann"), now: start)
            _ = machine.handle(.streamPosition(lastEventID: nil, completeSince: nil), now: start)
            _ = machine.handle(.stream(.connected), now: start)
            let write = entry(1, .createEvent(localID: -1, NewCalendarEvent(title: "standup", start: "2026-11-23T09:30:00Z",
                                                                             end: "2026-11-23T10:00:00Z")))
            #expect(machine.handle(.outboxHead(write), now: start).labels == ["send(1)"])
            if pausing {
                #expect(machine.handle(.sendAnswered(write, .failure(.timeout)), now: start).labels.contains("fetch(todos)"))
            } else {
                let record = ServerRecord.event(CalendarEvent(id: 3, title: "standup", start: UTCInstant(iso: "2026-11-23T09:30:00Z")!,
                                                              end: UTCInstant(iso: "2026-11-23T10:00:00Z")!, allDay: false))
                #expect(machine.handle(.sendAnswered(write, .success(record)), now: start).labels == ["complete(1)"])
                #expect(machine.handle(.completed(write, [], pending: [:]), now: start).labels.filter { $0.hasPrefix("fetch") } == [])
                #expect(machine.handle(.outboxHead(nil), now: start).labels.contains("fetch(todos)"))
            }
        }
    }

    @Test("a reload marks the cache complete as of its start once every part is stored; not when a part failed, the cache could not store one, or a live event it could not apply came meanwhile")
    func refreshRound() {
        enum Trouble: CaseIterable { case none, fetchFailed, storeFailed, garbageLiveEvent }
        for trouble in Trouble.allCases {
            let days = DayRange(first: "2026-11-01", last: "2026-11-30")
            var machine = connected(loading: days)
            let later = start.addingTimeInterval(5)
            var effects: [SyncMachine.Effect] = []
            effects += machine.handle(.fetched(.todos, .success(.todos([]))), now: later)
            effects += machine.handle(.stored(.todos), now: later)
            if trouble == .garbageLiveEvent {
                effects += machine.handle(.stream(.event(LiveEvent(id: 9, name: "todo.item.created", data: "{"))), now: later)
            }
            effects += machine.handle(.fetched(.channels, .success(.channels([]))), now: later)
            effects += machine.handle(.stored(.channels), now: later)
            switch trouble {
            case .fetchFailed:
                effects += machine.handle(.fetched(.events(days), .failure(.status(code: 500, body: [], apiError: nil))), now: later)
            case .storeFailed:
                effects += machine.handle(.fetched(.events(days), .success(.events(days, []))), now: later)
                effects += machine.handle(.cacheFailed(.store(.events(days, []), keeping: []), "disk I/O error"), now: later)
            case .none, .garbageLiveEvent:
                effects += machine.handle(.fetched(.events(days), .success(.events(days, []))), now: later)
                effects += machine.handle(.stored(.events(days)), now: later)
            }
            let marked = effects.labels.filter { $0.hasPrefix("setComplete") && $0 != "setComplete(nil)" }
            #expect(marked == (trouble == .none ? ["setComplete(\(start.timeIntervalSince1970))"] : []), "\(trouble)")
            #expect(machine.refresh == nil, "the round ended: \(trouble)")
            if trouble == .fetchFailed {
                #expect(effects.statuses.last { $0.app == .calendar }?.status.connection == .failing("server error 500"))
            }
        }
    }

    @Test("a cache complete within a day resumes the stream: no todo list fetched again, the calendar's months are")
    func resumeCompleteCache() {
        var machine = SyncMachine()
        _ = machine.handle(.opened(CacheSummary()), now: start)
        _ = machine.handle(.command(.calendar(.load(DayRange(first: "2026-11-01", last: "2026-11-30")))), now: start)
        _ = machine.handle(.connect(user: "ann"), now: start)
        #expect(machine.handle(.streamPosition(lastEventID: 41, completeSince: start.addingTimeInterval(-3600)), now: start).labels
            == ["listen(41)"])
        let effects = machine.handle(.stream(.connected), now: start) + machine.handle(.outboxHead(nil), now: start)
        #expect(effects.labels.filter { $0.hasPrefix("fetch(") } == ["fetch(registry)", "fetch(events(2026-11-01…2026-11-30))"])
        #expect(effects.labels.contains("setLastSynced(todo)") && effects.labels.contains("setLastSynced(chat)"))

        var stale = SyncMachine()
        _ = stale.handle(.connect(user: "ann"), now: start)
        _ = stale.handle(.streamPosition(lastEventID: 41, completeSince: start.addingTimeInterval(-2 * 86400)), now: start)
        _ = stale.handle(.stream(.connected), now: start)
        #expect(stale.handle(.outboxHead(nil), now: start).labels.contains("fetch(todos)"))
    }

    @Test("the outbox sends one write at a time, in order, and the next only once the cache has the answer")
    func outboxInOrder() {
        var machine = connected()
        startOutbox(&machine)
        let first = entry(1, .createTodo(localID: -1, NewTodo(title: "a")))
        let second = entry(2, .updateTodo(id: 9, TodoPatch(done: true)))  // as the cache rewrote it
        #expect(machine.handle(.outboxHead(first), now: start).labels == ["send(1)"])
        // A write made meanwhile is queued, not sent beside the first.
        _ = machine.handle(.command(.todo(.create(NewTodo(title: "b")))), now: start)
        #expect(machine.handle(.enqueued([], pending: [.todo: 3]), now: start).labels.filter { !$0.hasPrefix("publish") } == [])
        #expect(machine.handle(.sendAnswered(first, .success(.todo(TodoItem(id: 9, title: "a")))), now: start).labels == ["complete(1)"])
        let synced = TodoItemSynced(localID: -1, item: TodoItem(id: 9, title: "a"))
        let effects = machine.handle(.completed(first, [synced], pending: [.todo: 2]), now: start)
        #expect(effects.labels == ["publish(todo.item.synced, sync.status.changed)", "readOutboxHead"])
        #expect(machine.handle(.outboxHead(second), now: start).labels == ["send(2)"])
        _ = machine.handle(.sendAnswered(second, .success(.todo(TodoItem(id: 9, title: "a", done: true)))), now: start)
        _ = machine.handle(.completed(second, [], pending: [:]), now: start)
        #expect(machine.handle(.outboxHead(nil), now: start).isEmpty)
        #expect(machine.outbox == .idle)
    }

    @Test("a write the server is still running is sent again a second later, at most five times, then the outbox pauses")
    func stillRunning() {
        var machine = connected()
        startOutbox(&machine)
        let write = entry(1, .createTodo(localID: -1, NewTodo(title: "a")))
        _ = machine.handle(.outboxHead(write), now: start)
        let stillRunning = HTTPClientError.status(code: 409, body: [], apiError: APIError(error: "still running", field: "Idempotency-Key"))
        for _ in 1...5 {
            #expect(machine.handle(.sendAnswered(write, .failure(stillRunning)), now: start).labels == ["schedule(resend(1), 1.0 seconds)"])
            #expect(machine.handle(.timer(.resend(seq: 1)), now: start).labels == ["send(1)"])
        }
        let effects = machine.handle(.sendAnswered(write, .failure(stillRunning)), now: start)
        #expect(effects.labels.filter { $0.hasPrefix("schedule") || $0.hasPrefix("send") } == [])
        #expect(machine.outbox == .idle)
        // The next write starts the outbox again, from the same head.
        _ = machine.handle(.command(.todo(.create(NewTodo(title: "b")))), now: start)
        #expect(machine.handle(.enqueued([], pending: [.todo: 2]), now: start).labels.last == "readOutboxHead")
    }

    @Test("a refused write is dropped, its app reloaded and its trouble shown; a passing failure pauses and keeps it")
    func refusedAndPassingFailures() {
        var machine = connected()
        startOutbox(&machine)
        let write = entry(1, .createTodo(localID: -1, NewTodo(title: "a")))
        _ = machine.handle(.outboxHead(write), now: start)
        let refused = HTTPClientError.status(code: 422, body: [], apiError: APIError(error: "title too long", field: "title"))
        let effects = machine.handle(.sendAnswered(write, .failure(refused)), now: start)
        #expect(effects.labels.filter { !$0.hasPrefix("log") } == ["drop(1)", "fetch(todos)"])
        let dropped = machine.handle(.dropped(pending: [:]), now: start)
        #expect(dropped.statuses.first { $0.app == .todo }?.status.connection == .failing("server refused a change: server error 422: title too long"))
        #expect(dropped.labels.last == "readOutboxHead")
        // A 403 is not the token (401): what the server said is shown.
        let full = entry(2, .createTodo(localID: -2, NewTodo(title: "b")))
        _ = machine.handle(.outboxHead(full), now: start)
        let quota = HTTPClientError.status(code: 403, body: [], apiError: APIError(error: "you keep 100000 todo items, the most one user may: delete some first"))
        _ = machine.handle(.sendAnswered(full, .failure(quota)), now: start)
        #expect(machine.handle(.dropped(pending: [:]), now: start).statuses.first { $0.app == .todo }?.status.connection
            == .failing("server refused a change: you keep 100000 todo items, the most one user may: delete some first"))

        _ = machine.handle(.outboxHead(write), now: start)
        let paused = machine.handle(.sendAnswered(write, .failure(.unreachable("reset"))), now: start)
        #expect(paused.labels.filter { $0.hasPrefix("drop") || $0.hasPrefix("send") || $0.hasPrefix("read") } == [])
        #expect(!paused.statuses.isEmpty && paused.statuses.allSatisfy { $0.status.connection == .offline || $0.app == .todo })
        #expect(machine.outbox == .idle)
    }

    @Test("a change to a record deleted meanwhile (404) and a channel made first (409) are done; a change about a refused creation is not sent")
    func nothingLeftToDo() {
        var machine = connected()
        startOutbox(&machine)
        let update = entry(1, .updateTodo(id: 5, TodoPatch(done: true)))
        _ = machine.handle(.outboxHead(update), now: start)
        #expect(machine.handle(.sendAnswered(update, .failure(.status(code: 404, body: [], apiError: nil))), now: start).labels == ["complete(1)"])
        _ = machine.handle(.completed(update, [], pending: [:]), now: start)
        let channel = entry(2, .createChannel(name: "ops"))
        _ = machine.handle(.outboxHead(channel), now: start)
        #expect(machine.handle(.sendAnswered(channel, .failure(.status(code: 409, body: [], apiError: nil))), now: start).labels == ["complete(2)"])
        _ = machine.handle(.completed(channel, [], pending: [:]), now: start)
        let orphan = entry(3, .deleteTodo(id: -4))
        #expect(machine.handle(.outboxHead(orphan), now: start).labels == ["complete(3)"])
    }

    @Test("a list fetched while a live event or a completed write changes one of its records keeps the cache's newer copy")
    func touchedDuringFetch() {
        var machine = connected()
        #expect(machine.handle(.command(.todo(.load)), now: start).labels == ["answerFromCache(todos)"])
        // connected() started a fetch of the todo list; it is under way.
        let live = LiveEvent(id: 12, name: "todo.item.updated", data: #"{"id":5,"title":"x","notes":"","done":true,"due":null}"#)
        #expect(machine.handle(.stream(.event(live)), now: start).labels == ["applyLive(12)"])
        let write = entry(1, .updateTodo(id: 6, TodoPatch(done: true)))
        startOutbox(&machine)
        _ = machine.handle(.outboxHead(write), now: start)
        _ = machine.handle(.sendAnswered(write, .success(.todo(TodoItem(id: 6, title: "y", done: true)))), now: start)
        let effects = machine.handle(.fetched(.todos, .success(.todos([TodoItem(id: 5, title: "x")]))), now: start)
        guard case .store(_, let keeping)? = effects.first else {
            Issue.record("expected a store, got \(effects.labels)")
            return
        }
        #expect(keeping == [5, 6])
        // Once no todo fetch is under way, nothing is noted.
        _ = machine.handle(.stream(.event(LiveEvent(id: 13, name: "todo.item.deleted", data: #"{"id":7}"#))), now: start)
        #expect(machine.touchedDuringFetch[.todo] == nil)
    }

    @Test("a repeating event's instances are the server's to list: its live change or a write of its instances keeps none of the cache's")
    func seriesTouchNothing() {
        var machine = connected()
        let days = DayRange(first: "2026-12-01", last: "2026-12-31")
        _ = machine.handle(.command(.calendar(.load(days))), now: start)
        // The month's fetch is under way; the event's series changes, and one of its instances is written.
        let series = LiveEvent(id: 20, name: "calendar.event.updated", data: #"{"id":5,"title":"Stand-up","start":"2026-11-29T08:30:00Z","end":"2026-11-29T08:45:00Z","allDay":false,"recurrence":"FREQ=WEEKLY"}"#)
        _ = machine.handle(.stream(.event(series)), now: start)
        let write = entry(1, .updateEvent(id: 5, CalendarEventPatch(start: "2026-12-07T08:30:00Z", end: "2026-12-07T08:45:00Z"),
                                          of: CalendarInstances(.this, from: UTCInstant(iso: "2026-12-06T08:30:00Z")!)))
        startOutbox(&machine)
        _ = machine.handle(.outboxHead(write), now: start)
        _ = machine.handle(.sendAnswered(write, .success(.event(CalendarEvent(id: 5, title: "Stand-up", start: UTCInstant(iso: "2026-12-07T08:30:00Z")!,
                                                                               end: UTCInstant(iso: "2026-12-07T08:45:00Z")!)))), now: start)
        let effects = machine.handle(.fetched(.events(days), .success(.events(days, []))), now: start)
        guard case .store(_, let keeping)? = effects.first else {
            Issue.record("expected a store, got \(effects.labels)")
            return
        }
        #expect(keeping.isEmpty)
    }

    /// Issue 40, item 9: a request that found the server down left the panes saying "offline,
    /// synced 09:48" while the live stream went on delivering; what it delivers says otherwise.
    @Test("a live event after a failed request: online again, and its app synced as of then")
    func aLiveEventSaysTheServerAnswers() {
        var machine = connected()
        let lost = machine.handle(.fetched(.todos, .failure(.unreachable("no route"))), now: start)
        #expect(lost.statuses.last { $0.app == .todo }?.status.connection == .offline)
        let later = start.addingTimeInterval(60)
        let live = LiveEvent(id: 12, name: "todo.item.updated", data: #"{"id":5,"title":"x","notes":"","done":true,"due":null}"#)
        let effects = machine.handle(.stream(.event(live)), now: later)
        #expect(effects.statuses.last { $0.app == .todo }?.status.connection == .online)
        #expect(machine.statuses.lastSynced[.todo] == later)
    }

    @Test("live events: a reset reloads everything, a registry change reloads the registry, garbage makes the cache doubtful, another app's event reaches the bus")
    func liveEvents() {
        var machine = connected()
        let reset = machine.handle(.stream(.event(LiveEvent(id: 50, name: "bff.stream.reset", data: "{}"))), now: start)
        #expect(reset.labels.filter { $0.hasPrefix("set") || $0 == "fetch(todos)" } == ["setLastEventID(50)", "setComplete(nil)", "fetch(todos)"])
        // The registry's fetch of the reset is under way: the change is fetched when it answers.
        #expect(machine.handle(.stream(.event(LiveEvent(id: 51, name: "registry.app.published", data: "{}"))), now: start).labels.isEmpty)
        #expect(machine.handle(.fetched(.registry, .success(.registry([]))), now: start).labels == ["fetch(registry)", "store(registry)"])
        #expect(machine.handle(.stream(.event(LiveEvent(id: 52, name: "todo.item.created", data: #"{"id":"#))), now: start).labels
            == ["log(warning)", "setComplete(nil)"])
        let foreign = machine.handle(.stream(.event(LiveEvent(id: 53, name: "weather.forecast.updated", data: #"{"c":21}"#))), now: start)
        #expect(foreign.labels == ["publish(weather.forecast.updated)"])
    }

    @Test("a burst of registry events (500 published, replayed as the stream resumes) is one fetch and one more, not 500 at once")
    func registryBurst() {
        var machine = connected()
        _ = machine.handle(.fetched(.registry, .success(.registry([]))), now: start)
        var fetches = 0
        for id in 100..<600 {
            let labels = machine.handle(.stream(.event(LiveEvent(id: Int64(id), name: "registry.app.published", data: "{}"))), now: start).labels
            fetches += labels.filter { $0 == "fetch(registry)" }.count
        }
        #expect(fetches == 1, "one fetch while the burst comes")
        #expect(machine.handle(.fetched(.registry, .success(.registry([]))), now: start).labels.contains("fetch(registry)"), "once more, for what came meanwhile")
        #expect(!machine.handle(.fetched(.registry, .success(.registry([]))), now: start).labels.contains("fetch(registry)"), "and then no more")
    }

    @Test("a calendar read or synced again: its days reloaded; its problem said once on the message line, again only when it changes")
    func calendarProblems() {
        var machine = connected(loading: DayRange(first: "2026-11-01", last: "2026-11-30"))
        func updated(_ id: Int64, problem: String?) -> [String] {
            let problem = problem.map { #", "problem": "\#($0)""# } ?? ""
            let data = #"{"id": 4, "name": "Work", "kind": "caldav", "readOnly": false, "events": 3\#(problem)}"#
            return machine.handle(.stream(.event(LiveEvent(id: id, name: "calendar.collection.updated", data: data))), now: start).labels
        }
        let conflict = updated(60, problem: "1 event was changed here and on the server")
        #expect(conflict.contains("publish(calendar.sync.noticed)") && conflict.contains("setLastEventID(60)"))
        #expect(conflict.contains { $0.hasPrefix("fetch(events") })
        #expect(!updated(61, problem: "1 event was changed here and on the server").contains("publish(calendar.sync.noticed)"))
        #expect(!updated(62, problem: nil).contains("publish(calendar.sync.noticed)"))
        #expect(updated(63, problem: "could not connect to cloud.example.org").contains("publish(calendar.sync.noticed)"))
    }

    @Test("the first second says nothing of the server; after it, 'connecting' only if it has not answered")
    func quietStart() {
        var machine = SyncMachine()
        let opened = machine.handle(.opened(CacheSummary(pending: [.chat: 2])), now: start)
        #expect(opened.labels == ["publish(sync.status.changed, sync.status.changed, sync.status.changed)", "schedule(quietStartEnded, 1.0 seconds)"])
        #expect(opened.statuses.allSatisfy { $0.status.connection == .starting })
        let quietEnded = machine.handle(.timer(.quietStartEnded), now: start).statuses
        #expect(quietEnded.count == 3 && quietEnded.allSatisfy { $0.status.connection == .connecting })

        var answered = connected()
        #expect(answered.handle(.timer(.quietStartEnded), now: start).isEmpty)
    }

    @Test("reads ask the server only when it is there; older messages come from the cache when it fails")
    func readsAndFallbacks() {
        var offline = SyncMachine()
        let days = DayRange(first: "2026-12-01", last: "2026-12-31")
        #expect(offline.handle(.command(.calendar(.load(days))), now: start).labels == ["answerFromCache(events(2026-12-01…2026-12-31))"])
        #expect(offline.handle(.command(.chat(.older(channel: "general", before: 100))), now: start).labels == ["answerFromCache(olderMessages(general))"])

        var online = connected()
        #expect(online.handle(.command(.calendar(.load(days))), now: start).labels == ["answerFromCache(events(2026-12-01…2026-12-31))", "fetch(events(2026-12-01…2026-12-31))"])
        let older = Fetch.olderMessages(channel: "general", before: 100)
        #expect(online.handle(.command(.chat(.older(channel: "general", before: 100))), now: start).labels == ["fetch(olderMessages(general))"])
        let failed = online.handle(.fetched(older, .failure(.timeout)), now: start)
        #expect(failed.labels.first == "answerFromCache(olderMessages(general))")
    }

    @Test("a month fetched and stored while the stream runs is answered from the cache when a widget comes back to it, until the stream drops")
    func currentMonthsFromTheCache() {
        let days = DayRange(first: "2026-12-01", last: "2026-12-31")
        var machine = connected()
        #expect(machine.handle(.command(.calendar(.load(days))), now: start).labels.contains("fetch(events(2026-12-01…2026-12-31))"))
        #expect(machine.handle(.command(.calendar(.load(days))), now: start).labels.contains("fetch(events(2026-12-01…2026-12-31))"),
                "fetched, not yet stored: asked again")
        _ = machine.handle(.stored(.events(days)), now: start)
        #expect(machine.handle(.command(.calendar(.load(days))), now: start).labels == ["answerFromCache(events(2026-12-01…2026-12-31))"])
        _ = machine.handle(.stream(.disconnected(.timeout)), now: start)
        _ = machine.handle(.stream(.connected), now: start)
        #expect(machine.handle(.command(.calendar(.load(days))), now: start).labels.contains("fetch(events(2026-12-01…2026-12-31))"),
                "after the stream dropped, the month may have missed a change")
    }

    @Test("a cache that fails says so in the status of the app it was about (every app for the outbox), makes the cache doubtful and frees the outbox when the step was the outbox's")
    func cacheFailure() {
        var machine = connected()
        _ = machine.handle(.stream(.connected), now: start)
        #expect(machine.outbox == .readingHead)
        let effects = machine.handle(.cacheFailed(.readOutboxHead, "disk I/O error"), now: start)
        #expect(effects.labels.contains("setComplete(nil)"))
        let statuses = effects.statuses
        #expect(statuses.count == 3 && statuses.allSatisfy { $0.status.connection == .failing("local cache: disk I/O error") })
        #expect(machine.outbox == .idle)

        var reading = connected()
        let failed = reading.handle(.cacheFailed(.answerFromCache(.todos), "disk I/O error"), now: start)
        #expect(failed.statuses.map(\.app) == [.todo], "only the app whose read failed")
    }

    @Test("a chat message is posted under the user's name with the time given")
    func postedAs() {
        var machine = connected()
        let effects = machine.handle(.command(.chat(.post(channel: "general", text: "hi"))), now: start)
        guard case .enqueue(.postMessage(let channel, let text, let author, let sentAt))? = effects.first else {
            Issue.record("expected a post, got \(effects.labels)")
            return
        }
        #expect([channel, text, author, sentAt] == ["general", "hi", "ann", "2027-01-15T08:00:00.000Z"])
    }

    /// A machine connected as ann, online, with its first reload started and its outbox idle.
    @Test("reminders: asked for a day ahead once online; each goes off once, at its moment, by one timer; those missed while closed are said once at the start; a calendar change asks again, and a reminder already past does not go off")
    func reminders() throws {
        func at(_ offset: TimeInterval) -> UTCInstant { UTCInstant(secondsSinceEpoch: Int64(start.timeIntervalSince1970 + offset)) }
        func reminder(_ offset: TimeInterval, _ title: String) -> CalendarReminder {
            CalendarReminder(at: at(offset), id: 1, title: title, start: at(offset + 900), end: at(offset + 1800))
        }
        func due(_ effects: [SyncMachine.Effect]) -> [CalendarRemindersDue] {
            effects.flatMap { effect -> [CalendarRemindersDue] in
                if case .publish(let events) = effect { return events.compactMap { $0 as? CalendarRemindersDue } }
                return []
            }
        }
        let base = Int(start.timeIntervalSince1970)
        var machine = SyncMachine()
        // The last reminder went off an hour before this start.
        _ = machine.handle(.opened(CacheSummary(remindedUntil: start.addingTimeInterval(-3600))), now: start)
        _ = machine.handle(.connect(user: "ann"), now: start)
        _ = machine.handle(.streamPosition(lastEventID: nil, completeSince: nil), now: start)
        #expect(machine.handle(.stream(.connected), now: start).labels.contains("fetchReminders(\(base - 3600)…\(base + 86_400))"))
        // Asked again while the first is under way (a change): one request at a time.
        let change = LiveEvent(id: 3, name: "calendar.event.deleted", data: #"{"id":9}"#)
        #expect(!machine.handle(.stream(.event(change)), now: start).labels.contains { $0.hasPrefix("fetchReminders") })

        let answer = RemindersFetched(items: [reminder(-1800, "missed"), reminder(600, "soon"), reminder(7200, "later")],
                                      until: start.addingTimeInterval(86_400))
        // The answer came after a change: it is asked again rather than trusted.
        #expect(machine.handle(.remindersFetched(.success(answer)), now: start).labels == ["fetchReminders(\(base - 3600)…\(base + 86_400))"])
        var effects = machine.handle(.remindersFetched(.success(answer)), now: start)
        #expect(effects.labels == ["publish(calendar.reminders.due)", "setRemindedUntil(\(base - 1800))", "schedule(reminder(1), 600.0 seconds)"])
        #expect(due(effects).map(\.missed) == [true] && due(effects).first?.reminders.map(\.title) == ["missed"])

        // Nothing runs until the timer: the next goes off on time, the one after is waited for.
        effects = machine.handle(.timer(.reminder(generation: 1)), now: start.addingTimeInterval(600))
        #expect(effects.labels == ["publish(calendar.reminders.due)", "setRemindedUntil(\(base + 600))", "schedule(reminder(2), 6600.0 seconds)"])
        #expect(due(effects).map(\.missed) == [false] && due(effects).first?.reminders.map(\.title) == ["soon"])
        #expect(machine.handle(.timer(.reminder(generation: 1)), now: start.addingTimeInterval(700)).isEmpty)

        // A change asks from the last gone off; an alarm already past when it comes is dropped.
        let later = start.addingTimeInterval(700)
        #expect(machine.handle(.stream(.event(change)), now: later).labels.contains("fetchReminders(\(base + 600)…\(base + 700 + 86_400))"))
        let changed = RemindersFetched(items: [reminder(600, "soon"), reminder(620, "made too late"), reminder(7200, "later")],
                                       until: later.addingTimeInterval(86_400))
        #expect(machine.handle(.remindersFetched(.success(changed)), now: later).labels == ["schedule(reminder(3), 6500.0 seconds)"])
        // A failed request waits for the next connection or change.
        #expect(machine.handle(.remindersFetched(.failure(.timeout)), now: later).labels == ["log(info)"])
    }

    private func connected(loading days: DayRange? = nil) -> SyncMachine {
        var machine = SyncMachine()
        _ = machine.handle(.opened(CacheSummary()), now: start)
        if let days { _ = machine.handle(.command(.calendar(.load(days))), now: start) }
        _ = machine.handle(.connect(user: "ann"), now: start)
        _ = machine.handle(.streamPosition(lastEventID: nil, completeSince: nil), now: start)
        _ = machine.handle(.stream(.connected), now: start)
        _ = machine.handle(.outboxHead(nil), now: start)
        return machine
    }

    /// A write queued while online starts the outbox: it reads its head next.
    private func startOutbox(_ machine: inout SyncMachine) {
        #expect(machine.handle(.enqueued([], pending: [.todo: 1]), now: start).labels.last == "readOutboxHead")
    }

    private func entry(_ seq: Int64, _ write: PendingWrite) -> OutboxEntry {
        OutboxEntry(seq: seq, idempotencyKey: "key-\(seq)", write: write)
    }
}

extension [SyncMachine.Effect] {
    /// Each effect in a few words, for comparing sequences.
    var labels: [String] { map(\.label) }

    var statuses: [SyncStatusChanged] {
        flatMap { effect -> [SyncStatusChanged] in
            if case .publish(let events) = effect { return events.compactMap { $0 as? SyncStatusChanged } }
            return []
        }
    }
}

extension SyncMachine.Effect {
    var label: String {
        switch self {
        case .answerFromCache(let question): "answerFromCache(\(question.label))"
        case .enqueue(let request): "enqueue(\(request.app))"
        case .readOutboxHead: "readOutboxHead"
        case .complete(let entry, _): "complete(\(entry.seq))"
        case .drop(let entry): "drop(\(entry.seq))"
        case .applyLive(_, let id, _): "applyLive(\(id))"
        case .store(let fetched, _): "store(\(fetched.fetch.label))"
        case .readStreamPosition: "readStreamPosition"
        case .setLastEventID(let id): "setLastEventID(\(id))"
        case .setComplete(let date): "setComplete(\(date.map { "\($0.timeIntervalSince1970)" } ?? "nil"))"
        case .setLastSynced(let app, _): "setLastSynced(\(app))"
        case .setRemindedUntil(let date): "setRemindedUntil(\(Int(date.timeIntervalSince1970)))"
        case .fetchReminders(let after, let until): "fetchReminders(\(Int(after.timeIntervalSince1970))…\(Int(until.timeIntervalSince1970)))"
        case .listen(let id): "listen(\(id.map(String.init) ?? "nil"))"
        case .send(let entry): "send(\(entry.seq))"
        case .fetch(let fetch): "fetch(\(fetch.label))"
        case .publish(let events): "publish(\(events.map(\.eventName.rawValue).joined(separator: ", ")))"
        case .schedule(let timer, let delay): "schedule(\(timer.label), \(delay))"
        case .log(let level, _): "log(\(level))"
        }
    }
}

extension SyncMachine.Timer {
    var label: String {
        switch self {
        case .quietStartEnded: "quietStartEnded"
        case .resend(let seq): "resend(\(seq))"
        case .reminder(let generation): "reminder(\(generation))"
        }
    }
}

extension Fetch {
    var label: String {
        switch self {
        case .registry: "registry"
        case .todos: "todos"
        case .events(let days): "events(\(days.first)…\(days.last))"
        case .channels: "channels"
        case .newestMessages(let channel): "newestMessages(\(channel))"
        case .olderMessages(let channel, _): "olderMessages(\(channel))"
        }
    }
}
