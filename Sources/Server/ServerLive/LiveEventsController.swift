import Foundation
import HTTPTypes
import Hummingbird
import ServerAPI
import ServerHTTP
import ServerStore
import ServiceLifecycle

/// `GET /api/events`: the calling user's live events as server-sent events.
///
/// A client that reconnects sends the last id it saw as `Last-Event-ID` (or `?lastEventId=`) and
/// first gets what it missed from the database, then live events; the stream subscribes before it
/// replays and skips ids it already sent, so nothing falls between the two. When the missed events
/// are no longer kept, it sends `bff.stream.reset` and the client reloads.
package struct LiveEventsController {
    let store: BFFStore
    /// An open stream is activity: it keeps the embedded server from exiting when idle.
    let activity: ServerActivity
    /// The users the token check found in the last second: a stream checks its user is still
    /// there before each event, so a deleted user (by `termcanvas user delete`, another process)
    /// gets nothing more and the stream ends, without a database read per event.
    let users: RecentUsers

    package init(store: BFFStore, activity: ServerActivity, users: RecentUsers) {
        self.store = store
        self.activity = activity
        self.users = users
    }

    package func addRoutes(to group: RouterGroup<BFFRequestContext>) {
        group.get("events", use: stream)
    }

    @Sendable func stream(_ request: Request, context: BFFRequestContext) async throws -> Response {
        guard let user = context.user else { throw APIFailure.unauthorized }
        let lastID = try Self.lastEventID(request)
        let subscription: LiveEventHub.Subscription
        do {
            subscription = try store.liveEvents.subscribe(userID: user.id)
        } catch {
            let limits = store.liveEvents.limits
            throw APIFailure(
                status: .tooManyRequests,
                body: APIError(error: "too many live streams (at most \(limits.perUser) per user, \(limits.total) in all); retry later"),
                headers: [.retryAfter: "5"]
            )
        }
        let expiry = context.tokenExpiry
        let session = context.session ?? ""
        let store = self.store
        let activity = self.activity
        let users = self.users
        let headers: HTTPFields = [
            .contentType: "text/event-stream; charset=utf-8",
            .cacheControl: "no-cache",
            HTTPField.Name("X-Accel-Buffering")!: "no",
        ]
        return Response(status: .ok, headers: headers, body: ResponseBody { writer in
            // A client that closes its connection ends the stream at once: its place is free for
            // the next (a dashboard started again straight away), not held until a write fails.
            try await request.body.consumeWithInboundCloseHandler { _ in
                try await Self.send(subscription, after: lastID, to: user.id, session: session, expiry: expiry,
                                    store: store, activity: activity, users: users, writer: &writer)
            } onInboundClosed: {
                subscription.end()
            }
        })
    }

    /// Writes the stream: what was missed after `lastID`, then live events and keep-alives until
    /// the subscription ends.
    private static func send(
        _ subscription: LiveEventHub.Subscription, after lastID: Int64?, to user: Int64, session: String, expiry: Date?,
        store: BFFStore, activity: ServerActivity, users: RecentUsers, writer: inout any ResponseBodyWriter
    ) async throws {
        // However the stream ends (shutdown, its client gone, a failed write), unsubscribe.
        activity.begin()
        // A stream must not outlive its token: it ends when the token expires (the client's
        // reconnect is then refused, and it asks its user to log in again).
        let expiring = Task {
            guard let expiry else { return }
            try await Task.sleep(for: .seconds(max(0, expiry.timeIntervalSinceNow)))
            subscription.end()
        }
        defer {
            expiring.cancel()
            subscription.end()
            activity.end()
        }
        var sent = lastID ?? 0
        // Reconnect after 2 s rather than the browser-era default of 3.
        try await writer.write(ByteBuffer(string: "retry: 2000\n\n"))
        if let lastID {
            sent = try await Self.replay(after: lastID, user: user, store: store, writer: &writer)
        } else {
            // Read after subscribing: a change committed meanwhile comes through the
            // subscription with a higher id.
            sent = try await store.newestLiveEventID()
            let opened = LiveEvent(id: sent, name: EventName.streamOpened.rawValue, data: "{}")
            try await writer.write(ByteBuffer(string: opened.wireFormat))
        }
        try await withGracefulShutdownHandler {
            for await item in subscription.items {
                switch item {
                case .event(let event) where event.id > sent:
                    guard try await users.user(id: user, lookUp: { try await store.signedInUser(id: $0) })?.sessions.contains(session) == true else {
                        subscription.end()
                        continue
                    }
                    try await writer.write(ByteBuffer(string: event.wireFormat))
                    sent = event.id
                case .event:
                    continue
                case .heartbeat:
                    // Nor its user or session: one deleted (by `termcanvas user delete`, another
                    // process) or ended loses the stream at the next tick.
                    guard try await store.signedInUser(id: user)?.sessions.contains(session) == true else {
                        subscription.end()
                        continue
                    }
                    try await writer.write(ByteBuffer(string: ": keep-alive\n\n"))
                }
            }
        } onGracefulShutdown: {
            subscription.end()
        }
        // The server drains (SIGTERM): the client should come back at once, to another instance.
        if Task.isShuttingDownGracefully { try await writer.write(ByteBuffer(string: "retry: \(Self.drainRetry)\n: server shutting down\n\n")) }
        try await writer.finish(nil)
    }

    /// The reconnect delay (ms) a stream ended by a draining server asks for.
    static let drainRetry = 100

    /// Writes the kept events after `lastID` page by page; returns the id of the last one written.
    private static func replay(
        after lastID: Int64, user: Int64, store: BFFStore, writer: inout any ResponseBodyWriter
    ) async throws -> Int64 {
        var sent = lastID
        while true {
            switch try await store.liveEvents(after: sent, visibleTo: user) {
            case .reset(let newest):
                let reset = LiveEvent(id: newest, name: EventName.streamReset.rawValue, data: "{}")
                try await writer.write(ByteBuffer(string: reset.wireFormat))
                return newest
            case .events(let events):
                guard let last = events.last else { return sent }
                try await writer.write(ByteBuffer(string: events.map(\.wireFormat).joined()))
                sent = last.id
            }
        }
    }

    /// The id to resume after: the `Last-Event-ID` header (as browsers and SSE clients send it on
    /// reconnect) or, for clients that cannot set headers, the `lastEventId` query parameter.
    private static func lastEventID(_ request: Request) throws -> Int64? {
        // Each one given must be valid, even when the header makes the query's unused.
        func id(_ text: String?, field: String) throws -> Int64? {
            guard let text else { return nil }
            guard let id = Int64(text.trimmingCharacters(in: .whitespaces)), id >= 0 else {
                throw APIFailure.badRequest("must be an event id this server sent", field: field)
            }
            return id
        }
        let header = try id(request.headers[HTTPField.Name("Last-Event-ID")!], field: "Last-Event-ID")
        let query = try id(request.uri.queryParameters.get("lastEventId").map { String($0) }, field: "lastEventId")
        return header ?? query
    }
}
