import AppModel
import CanvasCore
import FoundationEssentials
import HTTPClient
import Logging
import ServerAPI

/// Everything the sync engine decides, as a value: inputs (a widget's command, the live stream,
/// the answers of the cache and the server, timers) go in, effects (cache work, requests, events
/// for the canvas, timers) come out. `ServerSync` only runs the effects and hands back what
/// they answered; the tests feed inputs and read effects, with no network and no sleeps.
///
/// Effects on the cache run in the order they are returned, and what they answer is handled
/// before the next input: so an id this machine marks as changed during a fetch is marked before
/// that fetch's list can be stored, whichever arrives first. Requests run beside everything else.
struct SyncMachine {
    enum Input: Sendable {
        /// The cache opened, with what it kept of the last run.
        case opened(CacheSummary)
        /// No cache could be opened, not even in memory: why.
        case cacheUnusable(String)
        case command(AppCommand)
        /// A client for the server is there; `user` is the name the server knows us by.
        case connect(user: String?)
        case timer(Timer)
        // Answers of the cache.
        /// The cache could not run this effect: why.
        case cacheFailed(Effect, String)
        case enqueued([any BusEvent], pending: [ServerApp: Int])
        case outboxHead(OutboxEntry?)
        case completed(OutboxEntry, [any BusEvent], pending: [ServerApp: Int])
        case dropped(pending: [ServerApp: Int])
        case applied([any BusEvent])
        case stored(Fetch)
        /// Where the live stream resumes: the last event the cache applied, and since when the
        /// cache is known complete.
        case streamPosition(lastEventID: Int64?, completeSince: Date?)
        // Answers of the server.
        case stream(LiveUpdate)
        case sendAnswered(OutboxEntry, Result<ServerRecord?, HTTPClientError>)
        case fetched(Fetch, Result<Fetched, HTTPClientError>)
        case remindersFetched(Result<RemindersFetched, HTTPClientError>)
    }

    enum Effect: Sendable {
        // The cache, in order; the comment says what answers (the `set…` notes answer nothing).
        /// Reads and publishes what a widget asked for, from the cache; `cacheFailed` when it cannot.
        case answerFromCache(Fetch)
        /// Applies a user's write and queues it; `enqueued`.
        case enqueue(WriteRequest)
        case readOutboxHead
        /// The server has the write; `completed`.
        case complete(OutboxEntry, ServerRecord?)
        /// The server will never take the write; `dropped`.
        case drop(OutboxEntry)
        /// A change another client (or we) made, from the live stream; `applied`.
        case applyLive(LiveChange, eventID: Int64, author: String?)
        /// Stores what a fetch brought, but for the records in `keeping`, and publishes it; `stored`.
        case store(Fetched, keeping: Set<Int64>)
        case readStreamPosition
        case setLastEventID(Int64)
        /// Marks the cache complete since a moment, or (nil) doubtful.
        case setComplete(since: Date?)
        case setLastSynced(ServerApp, Date)
        /// Keeps up to when reminders went off.
        case setRemindedUntil(Date)
        // The server, beside everything else.
        /// (Re)starts the live stream after the event with this id.
        case listen(after: Int64?)
        case send(OutboxEntry)
        case fetch(Fetch)
        /// Reads the reminders going off after the first moment and by the second (every page,
        /// within reason); `remindersFetched`.
        case fetchReminders(after: Date, until: Date)
        // The rest.
        case publish([any BusEvent])
        case schedule(Timer, after: Duration)
        case log(Logger.Level, String)
    }

    /// What a reload round or the cache's doubt is about to be told: the cache is not known
    /// complete any more, and a round under way must not mark it so (the next start reloads
    /// everything).
    mutating func markDoubtful(_ effects: inout [Effect]) {
        effects.append(.setComplete(since: nil))
        refresh?.whole = false
    }

    enum Timer: Hashable, Sendable {
        /// The first second is over: panes may say the server has not answered yet.
        case quietStartEnded
        /// Time to send the write with this sequence number again (the server was still running it).
        case resend(seq: Int64)
        /// The next reminder is due, or what is known of them runs out (`ReminderSchedule`).
        case reminder(generation: Int)
    }

    /// What the outbox is doing.
    enum Outbox: Equatable {
        case idle
        case readingHead
        /// `waits`: how many times the server said it was still running an earlier send of it.
        case sending(OutboxEntry, waits: Int)
        case waitingToResend(OutboxEntry, waits: Int)
        /// Writing what the server answered into the cache: a write done, or dropped.
        case completing
    }

    enum Reload: Equatable {
        /// Everything the widgets look at (`refreshAll`).
        case everything
        /// What a resumed stream does not bring (`catchUp`).
        case catchUp
    }

    /// A reload of everything the widgets look at. Once every part came back and was stored, the
    /// cache is marked complete as of its start; a part that failed, or that the cache could not
    /// store, leaves it doubtful (the next start reloads everything).
    struct Refresh {
        let started: Date
        var waitingFor: Set<Fetch>
        var whole = true
    }

    /// Where the engine is with its server.
    var link = ServerLink.noClient(quietOver: false)
    var firstReload = FirstReload.notYet(resumesCompleteCache: false)
    /// Each app's sync status as last published; the connection in it is `link`'s.
    var statuses = StatusBoard()
    /// The problem of each calendar last said on the message line.
    var noticedProblems: [Int64: String] = [:]
    /// The user's name on the server, which marks their own chat messages.
    var user: String?
    var outbox = Outbox.idle
    var refresh: Refresh?
    /// What widgets showed an interest in, reloaded from the server on (re)connect.
    var openChannels: Set<String> = []
    var calendarRanges: Set<DayRange> = []
    /// Per app, the list fetches under way, and the ids live events and completed writes touched
    /// meanwhile: the cache's copy of those is newer than the fetched list's.
    var listFetches: [ServerApp: Int] = [:]
    var touchedDuringFetch: [ServerApp: Set<Int64>] = [:]
    /// The registry's fetch: one at a time, and one more when a change came while it ran, so a
    /// burst of registry events (500 packages published, replayed as the live stream resumes)
    /// is two fetches, not 500 at once.
    var registryFetch = RegistryFetch.idle
    var reminders = ReminderSchedule()

    /// How long the panes say nothing of a server that has not answered yet: a title that says
    /// `connecting` for the few milliseconds the local server takes only flickers.
    static let quietStart = Duration.seconds(1)
    /// How long a complete cache is trusted to be kept current by resumed streams alone; after
    /// that a start reloads everything once, which bounds what a lost change (or a server whose
    /// database was replaced) can leave wrong.
    static let trustCompleteCache: TimeInterval = 24 * 60 * 60
    /// The server's `Retry-After` for a write it is still running, and how many times to wait it.
    static let stillRunningWait = Duration.seconds(1)
    static let stillRunningWaits = 5
    static let idempotencyKeyField = "Idempotency-Key"

    mutating func handle(_ input: Input, now: Date) -> [Effect] {
        var effects: [Effect] = []
        switch input {
        case .opened(let summary):
            statuses.notKeptOffline = summary.notKeptOffline
            statuses.pending = summary.pending
            statuses.lastSynced = summary.lastSynced
            reminders.shownUntil = summary.remindedUntil
            reminders.startedAt = now
            let registry: [any BusEvent] = summary.registry.map { [RegistryLoaded(apps: $0, origin: .cache)] } ?? []
            effects.append(.publish(registry + statusChanges(force: true)))
            effects.append(.schedule(.quietStartEnded, after: Self.quietStart))
        case .cacheUnusable(let reason):
            statuses.notKeptOffline = "no cache: \(reason)"
            effects.append(.log(.critical, "no cache could be opened, not even in memory: micro-apps stay empty (\(reason))"))
            effects.append(.publish(statusChanges(force: true)))
        case .command(let command):
            perform(command, now: now, &effects)
        case .connect(let user):
            self.user = user
            if case .noClient(let quietOver) = link { link = .connecting(quietOver: quietOver) }
            effects.append(.readStreamPosition)
        case .timer(.quietStartEnded):
            let before = link
            link.endQuietStart()
            if link != before { publishStatuses(&effects) }
        case .timer(.resend(let seq)):
            resend(seq, &effects)
        case .timer(.reminder(let generation)):
            reminderTimer(generation: generation, now: now, &effects)
        case .cacheFailed(let effect, let reason):
            effects.append(.log(.error, "local cache failed: \(reason)"))
            // Whatever it could not do (a live change among them) may be missing.
            markDoubtful(&effects)
            for app in effect.app.map({ [$0] }) ?? ServerApp.allCases { statuses.problems[app] = "local cache: \(reason)" }
            publishStatuses(&effects)
            switch effect {
            case .store(let fetched, _):
                storeFailed(fetched.fetch, &effects)
            case .readOutboxHead, .complete, .drop:
                // The outbox's own step: it waits for the next write or reconnect.
                outbox = .idle
                outboxSettled(&effects)
            default:
                break
            }
        case .enqueued(let events, let pending):
            statuses.pending = pending
            effects.append(.publish(events + statusChanges(force: false)))
            flush(&effects)
        case .outboxHead(let entry):
            sendHead(entry, &effects)
        case .completed(let entry, let events, let pending):
            completed(entry, events: events, pending: pending, &effects)
        case .dropped(let pending):
            statuses.pending = pending
            publishStatuses(&effects)
            nextWrite(&effects)
        case .applied(let events):
            if !events.isEmpty { effects.append(.publish(events)) }
        case .stored(let fetch):
            stored(fetch, now: now, &effects)
        case .streamPosition(let lastID, let completeSince):
            if case .notYet = firstReload {
                firstReload = .notYet(resumesCompleteCache: lastID != nil && completeSince.map { now.timeIntervalSince($0) < Self.trustCompleteCache } == true)
            }
            effects.append(.listen(after: lastID))
        case .stream(let update):
            streamed(update, now: now, &effects)
        case .sendAnswered(let entry, let result):
            answered(entry, result, &effects)
        case .fetched(let fetch, let result):
            fetched(fetch, result, &effects)
        case .remindersFetched(let result):
            remindersFetched(result, now: now, &effects)
        }
        return effects
    }

    /// Publishes the statuses that changed since they were last published.
    mutating func publishStatuses(_ effects: inout [Effect]) {
        let changes = statusChanges(force: false)
        if !changes.isEmpty { effects.append(.publish(changes)) }
    }

    /// The apps whose status changed since last published (every app's when `force`).
    mutating func statusChanges(force: Bool) -> [SyncStatusChanged] {
        statuses.changes(force: force, connection: link.connection)
    }
}

/// What the cache kept of the last run, read as it opens.
struct CacheSummary: Sendable {
    var pending: [ServerApp: Int] = [:]
    var lastSynced: [ServerApp: Date] = [:]
    var registry: [MicroAppInfo]?
    /// Up to when reminders went off (`ReminderSchedule`).
    var remindedUntil: Date?
    /// Why this cache lives in memory instead of its file, if it does.
    var notKeptOffline: String?
}

/// A user's write as a command asks for it. A new record is named by a local id the cache gives
/// it in the transaction that queues it.
enum WriteRequest: Sendable, Equatable {
    case createTodo(NewTodo)
    case createEvent(NewCalendarEvent)
    case postMessage(channel: String, text: String, author: String, sentAt: String)
    /// A change to a record, or a channel: queued as it is. A delete of a record made offline
    /// whose creation is still queued forgets both instead.
    case write(PendingWrite)

    var app: ServerApp {
        switch self {
        case .createTodo: .todo
        case .createEvent: .calendar
        case .postMessage: .chat
        case .write(let write): write.app
        }
    }

    /// The queued write, with `localID` for a new record.
    func pendingWrite(localID: Int64) -> PendingWrite {
        switch self {
        case .createTodo(let new): .createTodo(localID: localID, new)
        case .createEvent(let new): .createEvent(localID: localID, new)
        case .postMessage(let channel, let text, let author, let sentAt):
            .postMessage(localID: localID, channel: channel, text: text, author: author, sentAt: sentAt)
        case .write(let write): write
        }
    }

    var needsLocalID: Bool {
        if case .write = self { return false }
        return true
    }
}

/// A read of what the widgets show: from the server (`fetch`), or the same question put to the
/// cache (`answerFromCache`).
enum Fetch: Sendable, Hashable {
    case registry
    case todos
    case events(DayRange)
    case channels
    case newestMessages(channel: String)
    case olderMessages(channel: String, before: Int64)

    var app: ServerApp? {
        switch self {
        case .registry: nil
        case .todos: .todo
        case .events: .calendar
        case .channels, .newestMessages, .olderMessages: .chat
        }
    }

    /// Whether it brings a whole list that replaces the cache's, so changes made while it is
    /// under way must be kept.
    var replacesList: Bool {
        switch self {
        case .todos, .events: true
        default: false
        }
    }
}

/// What a fetch brought.
enum Fetched: Sendable {
    case registry([MicroAppInfo])
    case todos([TodoItem])
    case events(DayRange, [CalendarEvent])
    case channels([ChatChannel])
    case newestMessages(channel: String, Page<ChatMessage>)
    case olderMessages(channel: String, before: Int64, Page<ChatMessage>)

    var fetch: Fetch {
        switch self {
        case .registry: .registry
        case .todos: .todos
        case .events(let days, _): .events(days)
        case .channels: .channels
        case .newestMessages(let channel, _): .newestMessages(channel: channel)
        case .olderMessages(let channel, let before, _): .olderMessages(channel: channel, before: before)
        }
    }
}

extension SyncMachine.Effect {
    /// The app whose data the effect touches in the cache; nil for one about all of them.
    var app: ServerApp? {
        switch self {
        case .answerFromCache(let query): query.app
        case .enqueue(let request): request.app
        case .complete(let entry, _), .drop(let entry): entry.write.app
        case .store(let fetched, _): fetched.fetch.app
        case .applyLive(let change, _, _): change.app
        default: nil
        }
    }
}

/// Whether the registry is being fetched, and whether it changed meanwhile.
enum RegistryFetch: Equatable {
    case idle
    case running
    /// Running, and a change came since it started: fetched again once it answers.
    case runningAgain
}
