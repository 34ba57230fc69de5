import AppModel
import CanvasCore
import FoundationEssentials
import HTTPClient
import MicroAppProtocol
import PlainText
import ServerAPI

/// The live stream: the server's order of every change, ours and other clients'.
extension SyncMachine {
    mutating func streamed(_ update: LiveUpdate, now: Date, _ effects: inout [Effect]) {
        switch update {
        case .connected:
            effects.append(.log(.info, "online: the live stream is connected"))
            link = .online(currentRanges: [])
            publishStatuses(&effects)
            effects.append(.publish([ServerStreamConnected()]))
            if case .notYet(let resumesCompleteCache) = firstReload {
                firstReload = .waitingForOutbox(resumesCompleteCache ? .catchUp : .everything, requested: now)
            }
            flush(&effects)
            if outbox == .idle { outboxSettled(&effects) }
            askForReminders(now: now, &effects)
        case .event(let event):
            if case .lost = link {
                // The stream delivers: the server answers, whatever a request found before.
                effects.append(.log(.info, "online again: the live stream delivers"))
                link = .online(currentRanges: [])
                publishStatuses(&effects)
            }
            apply(event, now: now, &effects)
        case .disconnected(let error):
            link = .lost(Self.connection(after: error))
            publishStatuses(&effects)
        }
    }

    private mutating func apply(_ event: LiveEvent, now: Date, _ effects: inout [Effect]) {
        guard let name = event.knownName else {
            effects.append(Self.foreign(event))
            return
        }
        switch name {
        case .registryAppPublished, .registryAppWithdrawn, .registryAppHealth:
            startFetch(.registry, &effects)
        case .streamReset:
            if link.isOnline { link = .online(currentRanges: []) }
            effects.append(.setLastEventID(event.id))
            refreshAll(now: now, &effects)
        case .streamOpened:
            effects.append(.setLastEventID(event.id))
        case .calendarCollectionCreated, .calendarCollectionUpdated, .calendarCollectionDeleted:
            // A calendar came, was read again or synced, or went: its events, or a task list's
            // items, are the server's to list (a removed one may have been either).
            effects.append(.setLastEventID(event.id))
            let calendar = try? JSONDecoder().decode(CalendarCollection.self, from: Data(event.data.utf8))
            if let calendar { notice(calendar, &effects) }
            if calendar?.taskList != true { reload(.calendar, &effects) }
            if calendar?.taskList ?? true { reload(.todo, &effects) }
            askForReminders(now: now, &effects)
        case .canvasChangeApplied:
            // For the shared canvas open, if it is this one: the canvas host orders it.
            guard let applied = try? JSONDecoder().decode(CanvasChangeEvent.self, from: Data(event.data.utf8)) else {
                effects.append(.log(.warning, "live event not understood: \(event.name)"))
                return
            }
            effects.append(.publish([SharedCanvasChanged(canvas: applied.canvas, change: applied.change)]))
        case .authSessionStarted:
            guard let session = try? JSONDecoder().decode(SessionInfo.self, from: Data(event.data.utf8)) else {
                effects.append(.log(.warning, "live event not understood: \(event.name)"))
                return
            }
            effects.append(.publish([Self.newSignIn(session)]))
        case .canvasPresenceChanged:
            guard let presence = try? JSONDecoder().decode(CanvasPresence.self, from: Data(event.data.utf8)) else {
                effects.append(.log(.warning, "live event not understood: \(event.name)"))
                return
            }
            effects.append(.publish([SharedCanvasPresence(canvas: presence.canvas, present: presence.present)]))
        default:
            guard let change = Self.change(event, named: name) else {
                // Its change is missing from the cache: the next start reloads everything.
                effects.append(.log(.warning, "live event not understood: \(event.name)"))
                markDoubtful(&effects)
                return
            }
            // A repeating event's instances are the server's to list: the list is read again, and
            // a fetch under way keeps none of the cache's in their place.
            let series = if case .event(let changed) = change { changed.isSeries } else { false }
            if let id = change.listedRecordID, !series { touch(change.app, id) }
            effects.append(.applyLive(change, eventID: event.id, author: user))
            if series { reload(.calendar, &effects) }
            if change.app == .calendar { askForReminders(now: now, &effects) }
            // Its app's data flows: a trouble shown since is over, and it is synced as of now
            // (kept in memory: the panes say when only once the server is lost).
            if statuses.problems[change.app] != nil { synced(change.app, now: now, &effects) } else { statuses.lastSynced[change.app] = now }
        }
    }

    /// A calendar's problem said once on the message line, until it changes (a sync failing every
    /// five minutes is not said every five minutes).
    private mutating func notice(_ calendar: CalendarCollection, _ effects: inout [Effect]) {
        guard calendar.problem != noticedProblems[calendar.id] else { return }
        noticedProblems[calendar.id] = calendar.problem
        guard let problem = calendar.problem else { return }
        func plain(_ text: String) -> String { String(text.unicodeScalars.filter { !ControlScalars.contains($0) }.prefix(200).map(Character.init)) }
        effects.append(.publish([CalendarSyncNoticed(calendar: plain(calendar.name), problem: plain(problem))]))
    }

    /// The change a live event carries, or nil when its data is not what its name says.
    static func change(_ event: LiveEvent, named name: ServerAPI.EventName) -> LiveChange? {
        let data = Data(event.data.utf8)
        let decoder = JSONDecoder()
        switch name {
        case .todoItemCreated, .todoItemUpdated: return (try? decoder.decode(TodoItem.self, from: data)).map(LiveChange.todo)
        case .todoItemDeleted: return (try? decoder.decode(DeletedEntity.self, from: data)).map { .todoDeleted($0.id) }
        case .calendarEventCreated, .calendarEventUpdated: return (try? decoder.decode(CalendarEvent.self, from: data)).map(LiveChange.event)
        case .calendarEventDeleted: return (try? decoder.decode(DeletedEntity.self, from: data)).map { .eventDeleted($0.id) }
        case .chatChannelCreated: return (try? decoder.decode(ChatChannel.self, from: data)).map(LiveChange.channel)
        case .chatMessagePosted: return (try? decoder.decode(ChatMessage.self, from: data)).map(LiveChange.message)
        case .streamReset, .streamOpened, .registryAppPublished, .registryAppWithdrawn, .registryAppHealth, .canvasChangeApplied,
             .canvasPresenceChanged, .authSessionStarted, .calendarCollectionCreated, .calendarCollectionUpdated,
             .calendarCollectionDeleted: return nil
        }
    }

    /// A session's start in the dashboard's words: its address and machine, how, and its time of
    /// day in UTC. Everything in it came from the network, so it is made plain first.
    static func newSignIn(_ session: SessionInfo) -> NewSignIn {
        func plain(_ text: String) -> String { String(text.unicodeScalars.filter { !ControlScalars.contains($0) }.prefix(64).map(Character.init)) }
        let place = plain(session.address) + (session.client.map { " (\(plain($0)))" } ?? "")
        let time = session.startedAt.split(separator: "T").last.map { String($0.prefix(5)) + " UTC" } ?? ""
        return NewSignIn(address: place, method: plain(session.methodInWords), at: plain(time))
    }

    /// An event of a remote micro-app (a webhook's): on the canvas bus as the app's own, for the
    /// Event Log and every widget or micro-app that subscribes to it.
    private static func foreign(_ event: LiveEvent) -> Effect {
        guard let name = CanvasCore.EventName(rawValue: event.name),
              let payload = try? JSONDecoder().decode(JSONValue.self, from: Data(event.data.utf8)) else {
            return .log(.warning, "live event not understood: \(event.name.prefix(100))")
        }
        let summary = event.data.count > 120 ? String(event.data.prefix(119)) + "…" : event.data
        return .publish([AppEventPublished(eventName: name, app: String(name.source), payload: payload, summary: summary)])
    }

    /// The connection state an error leaves: offline when the server cannot be reached, failing
    /// (with a reason a user can act on) when it answers badly.
    static func connection(after error: HTTPClientError) -> SyncStatus.Connection {
        switch error {
        case .unreachable, .cancelled: .offline
        case .timeout: .failing("server too slow")
        case .status(401, _, _): .failing("token refused: log in again")
        // Not the token (that is 401): something this user may not do, in the server's words
        // (a quota reached, an admin's action).
        case .status(403, _, let apiError): .failing(apiError.map(\.error) ?? "the server does not allow this")
        case .status(let code, _, let apiError): .failing("server error \(code)\(apiError.map { ": \($0.error)" } ?? "")")
        case .undecodable: .failing("unreadable answer from the server")
        case .invalidRequest(let reason): .failing(reason)
        }
    }

    static func describe(_ error: HTTPClientError) -> String {
        if case .failing(let reason) = connection(after: error) { return reason }
        return "server unreachable"
    }
}

/// A live event's change, decoded.
enum LiveChange: Sendable, Equatable {
    case todo(TodoItem)
    case todoDeleted(Int64)
    case event(CalendarEvent)
    case eventDeleted(Int64)
    case channel(ChatChannel)
    case message(ChatMessage)

    var app: ServerApp {
        switch self {
        case .todo, .todoDeleted: .todo
        case .event, .eventDeleted: .calendar
        case .channel, .message: .chat
        }
    }
    /// The todo or event it changes: what a list fetched meanwhile must not overwrite (chat's
    /// lists only grow).
    var listedRecordID: Int64? {
        switch self {
        case .todo(let item): item.id
        case .event(let event): event.id
        case .todoDeleted(let id), .eventDeleted(let id): id
        case .channel, .message: nil
        }
    }
}
