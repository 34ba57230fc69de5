import AsyncHTTPClient
import CanvasCore
import Foundation
import Hummingbird
import Logging
import NIOCore
import NIOHTTP1
import ServerAPI
import ServerHTTP
import ServerStore

/// `/api/apps/{id}/…`: the proxy of a remote micro-app's entry, for the users who granted it.
///
/// The entry speaks the micro-app protocol over HTTP (`docs/microapp-protocol.md`): `POST
/// /sessions` starts one with the `initialize` request, `GET /sessions/S/events` streams the app's
/// lines as server-sent events, `POST /sessions/S/messages` takes the host's, `DELETE
/// /sessions/S` ends it. The proxy tells the entry who calls in signed headers (`EntryIdentity`),
/// never with the user's token; bounds every body and event (`EntryEventFramer`) and times out
/// every call but the stream; keeps each session to the user who opened it; and numbers the
/// events afresh, so nothing the entry sends reaches a client unframed.
package struct AppProxyController {
    let store: BFFStore
    let sessions: RemoteSessions
    let health: AppHealthMonitor
    let entries: EntryClient

    package init(store: BFFStore, sessions: RemoteSessions, health: AppHealthMonitor, entries: EntryClient) {
        self.store = store
        self.sessions = sessions
        self.health = health
        self.entries = entries
    }
    /// Below a remote app's start-up limit (5 s by default), so an entry that is down is
    /// reported as such before the dashboard gives up waiting.
    static let callTimeout = TimeAmount.seconds(3)
    /// The largest answer to a session's opening, message or end.
    static let maximumAnswer = 64 * 1024
    /// The largest message to an entry (a session's opening or a line for the app): the
    /// protocol's longest line, as for the entry's own events; 413 naming the limit beyond.
    package static let maximumMessage = 256 * 1024
    /// What one stream may take of the server once past its burst: a view is a few kilobytes,
    /// and the protocol's longest line fits the burst.
    static let streamBytesPerSecond = 256.0 * 1024
    static let streamBurst = 1024.0 * 1024

    package func addRoutes(to group: RouterGroup<BFFRequestContext>) {
        group.post("{id}/sessions", use: open)
        group.get("{id}/sessions/{session}/events", use: events)
        group.post("{id}/sessions/{session}/messages", use: message)
        group.delete("{id}/sessions/{session}", use: close)
    }

    /// A granted remote app and its caller.
    private struct Target {
        let app: String
        let entry: URL
        let secret: String
        /// The entry secret before a rotation, while still valid.
        let previousSecret: String?
        let user: BFFUser

        func request(_ method: HTTPMethod, _ path: String, body: ByteBuffer? = nil) -> HTTPClientRequest {
            var request = HTTPClientRequest(url: entry.appendingPathComponent(String(path.dropFirst())).absoluteString)
            request.method = method
            let signed = EntryIdentity.headers(user: user.name, app: app, method: method.rawValue, path: path,
                                               body: body.map { Array($0.readableBytesView) } ?? [], secret: secret,
                                               previousSecret: previousSecret)
            for (name, value) in signed {
                request.headers.add(name: name, value: value)
            }
            if let body {
                request.headers.add(name: "Content-Type", value: "application/json")
                request.body = .bytes(body)
            }
            return request
        }
    }

    @Sendable func open(_ request: Request, context: BFFRequestContext) async throws -> Response {
        let target = try await target(context)
        let (reserved, expired) = sessions.reserve(for: target.user.id)
        endAtTheirEntries(expired, logger: context.logger)
        guard reserved else {
            throw APIFailure(status: .tooManyRequests, body: APIError(error: "too many sessions of remote apps open; close some"),
                             headers: [.retryAfter: "5"])
        }
        var added = false
        defer { if !added { sessions.release(for: target.user.id) } }
        let body = try await Self.message(request)
        let (answer, location) = try await call(target, target.request(.POST, "/sessions", body: body), context: context)
        // `Location: …/sessions/ID`, and the answer to `initialize` as the body, one line.
        guard let session = location?.split(separator: "/").last.map(String.init), RemoteSession.isValidID(session),
              let line = String(validating: answer.readableBytesView, as: UTF8.self)?.trimmingCharacters(in: .whitespacesAndNewlines),
              !line.contains("\n"), (try? JSONSerialization.jsonObject(with: Data(line.utf8))) is [String: Any] else {
            throw Self.badEntry("a new session needs Location: …/sessions/ID and the answer to initialize as its body")
        }
        let opened = RemoteSession(session: session, answer: line)
        sessions.add(.init(app: target.app, session: opened.session), owner: target.user.id)
        added = true
        return try .json(opened, status: .created)
    }

    @Sendable func message(_ request: Request, context: BFFRequestContext) async throws -> Response {
        let (target, session) = try await owned(context)
        let body = try await Self.message(request)
        try await call(target, target.request(.POST, "/sessions/\(session)/messages", body: body), context: context)
        return Response(status: .noContent)
    }

    @Sendable func close(_ request: Request, context: BFFRequestContext) async throws -> Response {
        let (target, session) = try await owned(context)
        sessions.remove(.init(app: target.app, session: session))
        _ = try? await call(target, target.request(.DELETE, "/sessions/\(session)"), context: context)
        return Response(status: .noContent)
    }

    @Sendable func events(_ request: Request, context: BFFRequestContext) async throws -> Response {
        let (target, session) = try await owned(context)
        let key = RemoteSessions.Key(app: target.app, session: session)
        guard sessions.mayStream(key) else {
            throw APIFailure.conflict("this session's event stream is open already; open a new session", field: nil)
        }
        let response: HTTPClientResponse
        do {
            // The head within the call timeout; then the stream lasts while the entry sends at
            // least every `EntryClient.idleLimit`.
            response = try await entries.stream(target.request(.GET, "/sessions/\(session)/events"), to: target.entry,
                                                timeout: Self.callTimeout, logger: context.logger)
        } catch let refused as EntryRefused {
            throw Self.refused(refused, app: target.app, logger: context.logger)
        } catch {
            throw await unreachable(target, error)
        }
        guard response.status == .ok else {
            throw Self.badEntry("its event stream answered \(response.status.code)")
        }
        let sessions = sessions
        let headers: HTTPFields = [.contentType: "text/event-stream", .cacheControl: "no-cache"]
        return Response(status: .ok, headers: headers, body: ResponseBody { writer in
            // Claimed here, not before: a client gone before the head was written never runs this,
            // and its session expires unstreamed rather than holding its place for good. A second
            // stream that raced this one past `mayStream` ends at once.
            guard sessions.streaming(key) else {
                try await writer.finish(nil)
                return
            }
            defer { sessions.remove(key) }
            // A client that closes its connection ends the stream at once (the entry's stream is
            // cancelled), not at the next keep-alive, and frees the session for another stream.
            try await request.body.consumeWithCancellationOnInboundClose { _ in
                try await Self.relay(response.body, of: target.app, to: &writer, logger: context.logger)
            }
        })
    }

    /// Passes an entry's events on as the client's, paced, numbered from 1, until either side ends.
    private static func relay(_ body: HTTPClientResponse.Body, of app: String, to writer: inout any ResponseBodyWriter,
                              logger: Logger) async throws {
        var framer = EntryEventFramer()
        var pace = TokenBucket(rate: Self.streamBytesPerSecond, burst: Self.streamBurst, now: .now)
        var id = 0
        do {
            for try await buffer in body {
                // A flood is read no faster than the pace: the entry's own sends block.
                let wait = pace.spend(Double(buffer.readableBytes), now: .now)
                if wait > .zero { try await Task.sleep(for: wait) }
                for item in framer.feed(buffer.readableBytesView) {
                    switch item {
                    case .data(let line):
                        id += 1
                        let data = line.split(separator: "\n", omittingEmptySubsequences: false).map { "data: \($0)\n" }.joined()
                        try await writer.write(ByteBuffer(string: "id: \(id)\nevent: message\n\(data)\n"))
                    case .tooLong(let bytes):
                        logger.warning("remote app event dropped", metadata: ["app": "\(app)", "bytes": "\(bytes)"])
                    case .comment:
                        // The entry's keep-alive, passed on: the client sees the stream is alive
                        // while the app is idle.
                        try await writer.write(ByteBuffer(string: ": keep-alive\n\n"))
                    }
                }
            }
        } catch {
            logger.info("remote app stream ended", metadata: ["app": "\(app)", "error": "\(error)"])
        }
        try await writer.finish(nil)
    }

    private func target(_ context: BFFRequestContext) async throws -> Target {
        let user = try context.authenticatedUser()
        guard let id = context.parameters.get("id"), ManifestRules.isAppID(id), let app = try await store.registryApp(id),
              let entry = app.entry, let secrets = app.secrets else { throw APIFailure.notFound }
        guard try await store.isGranted(id, to: user.id) else {
            throw APIFailure(status: .forbidden, body: APIError(error: "you have not granted \(id); PUT \(APIPath.registryGrant(id)) first"))
        }
        return Target(app: id, entry: entry, secret: secrets.entry, previousSecret: app.stillValidPreviousSecrets(at: Date())?.entry,
                      user: user)
    }

    private func owned(_ context: BFFRequestContext) async throws -> (Target, String) {
        let target = try await target(context)
        guard let session = context.parameters.get("session"), RemoteSession.isValidID(session),
              sessions.owner(of: .init(app: target.app, session: session)) == target.user.id else { throw APIFailure.notFound }
        return (target, session)
    }

    /// One bounded, timed call; its 2xx answer's body and `Location`, or 502 (503 when unreachable).
    @discardableResult
    private func call(_ target: Target, _ request: HTTPClientRequest, context: BFFRequestContext) async throws -> (ByteBuffer, String?) {
        let answer: (response: HTTPClientResponse, body: ByteBuffer)
        do {
            answer = try await entries.call(request, to: target.entry, timeout: Self.callTimeout, maximumBody: Self.maximumAnswer,
                                            logger: context.logger)
        } catch let refused as EntryRefused {
            throw Self.refused(refused, app: target.app, logger: context.logger)
        } catch {
            throw await unreachable(target, error)
        }
        let status = answer.response.status.code
        guard (200..<300).contains(status) else {
            if status == 404 { throw APIFailure.notFound }
            // The app's own refusal is its answer: its status, its words (one line, bounded).
            if (400..<500).contains(status) {
                let words = String(decoding: answer.body.readableBytesView.prefix(200), as: UTF8.self)
                throw APIFailure(status: HTTPResponse.Status(code: Int(status)),
                                 body: APIError(error: "the app answered \(status): \(AppHealthMonitor.clean(words))"))
            }
            throw Self.badEntry("it answered \(status)")
        }
        return (answer.body, answer.response.headers.first(name: "Location"))
    }

    /// A message's body, at most `maximumMessage` (413 naming the limit).
    private static func message(_ request: Request) async throws -> ByteBuffer {
        do {
            return try await request.body.collect(upTo: maximumMessage)
        } catch is NIOTooManyBytesError {
            throw APIFailure(status: .contentTooLarge, body: APIError(error: "a message to a remote app is at most \(maximumMessage / 1024) KiB"))
        }
    }

    /// Ends sessions forgotten unstreamed at their entries, in the background: the entry would
    /// otherwise keep them until its own clean-up.
    private func endAtTheirEntries(_ expired: [RemoteSessions.Expired], logger: Logger) {
        guard !expired.isEmpty else { return }
        Task { [store, entries] in
            for session in expired {
                guard let app = try? await store.registryApp(session.key.app), let entry = app.entry, let secrets = app.secrets,
                      let user = try? await store.user(id: session.owner) else { continue }
                let target = Target(app: app.id, entry: entry, secret: secrets.entry, previousSecret: nil, user: user)
                _ = try? await entries.call(target.request(.DELETE, "/sessions/\(session.key.session)"), to: entry,
                                            timeout: Self.callTimeout, maximumBody: Self.maximumAnswer, logger: logger)
            }
        }
    }

    /// The entry did not answer: its health is checked now, so dashboards hear it is down.
    private func unreachable(_ target: Target, _ error: any Error) async -> APIFailure {
        Task { await health.check(target.app, entry: target.entry) }
        if let error = error as? HTTPClientError, error == .deadlineExceeded || error == .readTimeout {
            return APIFailure(status: .gatewayTimeout, body: APIError(error: "the app's entry is too slow"), headers: [.retryAfter: "5"])
        }
        let reason = error is NIOTooManyBytesError ? "answered too much" : "unreachable"
        return APIFailure(status: .serviceUnavailable, body: APIError(error: "the app's entry is \(reason)"), headers: [.retryAfter: "5"])
    }

    /// The entry's address is one the server may not call (its name moved there since the
    /// publish, or the rules changed): 502, and the why is logged, not shown to the user.
    private static func refused(_ refused: EntryRefused, app: String, logger: Logger) -> APIFailure {
        logger.warning("entry refused", metadata: ["app": "\(app)", "reason": "\(refused.reason)"])
        return badEntry("its address is not one this server calls")
    }

    private static func badEntry(_ reason: String) -> APIFailure {
        APIFailure(status: .badGateway, body: APIError(error: "the app's entry answered badly: \(reason)"))
    }
}
