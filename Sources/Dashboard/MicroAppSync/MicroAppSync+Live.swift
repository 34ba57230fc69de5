import CanvasCore
import Foundation
import HTTPClient
import MicroAppAPI
import MicroAppModel
import MicroAppProtocol

extension MicroAppSync {
    /// How long a complete cache is trusted to be kept current by resumed streams alone; after
    /// that a start reloads everything once, which bounds what a lost change (or a server whose
    /// database was replaced) can leave wrong.
    static let trustCompleteCache: TimeInterval = 24 * 60 * 60

    /// How the dashboard's live stream reconnects: soon, and never more than 5 s apart, so a BFF
    /// that comes back is noticed quickly; a keep-alive comes every 15 s, so 45 s of silence is a
    /// dead connection.
    static let reconnect = HTTPClient.ReconnectPolicy(initialDelay: .milliseconds(300), maxDelay: .seconds(5), idleTimeout: .seconds(45))

    func startLiveStream(_ client: HTTPClient) {
        liveStream?.cancel()
        liveStream = Task {
            let lastID = try? await cache.lastEventID()
            let completeSince = (try? await cache.completeSince()) ?? nil
            resumesCompleteCache = lastID != nil && completeSince.map { -$0.timeIntervalSinceNow < Self.trustCompleteCache } == true
            for await update in client.events(lastEventID: lastID, reconnect: Self.reconnect) {
                await handleLive(update)
            }
        }
    }

    private func handleLive(_ update: LiveUpdate) async {
        switch update {
        case .connected:
            // With the process id: dashboards of one user share a log file.
            logger.info("online: the live stream is connected", metadata: ["pid": "\(ProcessInfo.processInfo.processIdentifier)"])
            statuses.connection = .online
            await publishStatuses()
            flushLater()
            if !hasRefreshed {
                spawn { sync in await sync.resumesCompleteCache ? sync.catchUp() : sync.refreshAll() }
            }
        case .event(let event):
            await apply(event)
        case .disconnected(let error):
            statuses.connection = Self.connection(after: error)
            await publishStatuses()
        }
    }

    private func apply(_ event: LiveEvent) async {
        guard let name = event.knownName else {
            publishForeign(event)
            return
        }
        switch name {
        case .registryAppPublished, .registryAppWithdrawn, .registryAppHealth:
            spawn { await $0.refreshRegistry() }
            return
        case .streamReset:
            try? await cache.setLastEventID(event.id)
            spawn { await $0.refreshAll() }
            return
        case .streamOpened:
            try? await cache.setLastEventID(event.id)
            return
        default:
            break
        }
        do {
            let change = try Self.decode(event, as: name)
            let user = user
            let events = try await cache.apply(change, eventID: event.id) { $0.author == user }
            touched(events)
            publish(events)
        } catch {
            // Its change is missing from the cache: the next start reloads everything.
            logger.warning("live event not understood", metadata: ["event": "\(event.name)", "error": "\(error)"])
            try? await cache.setComplete(since: nil)
        }
    }

    private static func decode(_ event: LiveEvent, as name: MicroAppAPI.EventName) throws -> LiveChange {
        let data = Data(event.data.utf8)
        let decoder = JSONDecoder()
        switch name {
        case .todoItemCreated, .todoItemUpdated: return .todo(try decoder.decode(TodoItem.self, from: data))
        case .todoItemDeleted: return .todoDeleted(try decoder.decode(DeletedEntity.self, from: data).id)
        case .calendarEventCreated, .calendarEventUpdated: return .event(try decoder.decode(CalendarEvent.self, from: data))
        case .calendarEventDeleted: return .eventDeleted(try decoder.decode(DeletedEntity.self, from: data).id)
        case .chatChannelCreated: return .channel(try decoder.decode(ChatChannel.self, from: data))
        case .chatMessagePosted: return .message(try decoder.decode(ChatMessage.self, from: data))
        case .streamReset, .streamOpened, .registryAppPublished, .registryAppWithdrawn, .registryAppHealth:
            throw HTTPClientError.invalidRequest("the stream's own and the registry's events carry no change")
        }
    }

    /// An event of a remote micro-app (a webhook's): on the canvas bus as the app's own, for the
    /// Event Log and every widget or micro-app that subscribes to it.
    private func publishForeign(_ event: LiveEvent) {
        guard let name = CanvasCore.EventName(rawValue: event.name),
              let payload = try? JSONDecoder().decode(JSONValue.self, from: Data(event.data.utf8)) else {
            logger.warning("live event not understood", metadata: ["event": "\(event.name.prefix(100))"])
            return
        }
        let summary = event.data.count > 120 ? String(event.data.prefix(119)) + "…" : event.data
        publish([AppEventPublished(eventName: name, app: String(name.source), payload: payload, summary: summary)])
    }

    /// The connection state an error leaves: offline when the server cannot be reached, failing
    /// (with a reason a user can act on) when it answers badly.
    static func connection(after error: HTTPClientError) -> SyncStatus.Connection {
        switch error {
        case .unreachable, .cancelled: .offline
        case .timeout: .failing("server too slow")
        case .status(401, _, _), .status(403, _, _): .failing("token refused: log in again")
        case .status(let code, _, let apiError): .failing("server error \(code)\(apiError.map { ": \($0.error)" } ?? "")")
        case .undecodable: .failing("unreadable answer from the server")
        case .invalidRequest(let reason): .failing(reason)
        }
    }
}
