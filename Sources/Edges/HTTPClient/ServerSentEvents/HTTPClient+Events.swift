import Logging
import ServerAPI

/// What a live event stream tells its consumer: its connection state, and the events.
public enum LiveUpdate: Sendable, Equatable {
    /// The stream is (again) connected; what was missed while away follows as events.
    case connected
    case event(LiveEvent)
    /// The connection failed or dropped; the stream reconnects after a backoff unless the error
    /// is permanent (a 4xx other than 408 and 429, e.g. 401 for a token that expired), in which
    /// case this is the last element. Sent once per failed attempt, so the UI can show offline.
    case disconnected(HTTPClientError)
}

extension HTTPClient {
    /// The BFF's live events (`GET path` as `text/event-stream`), for as long as the returned
    /// stream is consumed.
    ///
    /// It runs on the client's multi handle like any request (no thread of its own), parsing bytes
    /// as they arrive (`ServerSentEventParser`). When the connection drops, the server ends the
    /// response or it stays silent past `reconnect.idleTimeout`, it yields `.disconnected` and
    /// reconnects after a backoff (see `ReconnectPolicy`; the server's `retry:` is the base delay),
    /// sending `Last-Event-ID` with the last id it delivered so the server replays what was missed.
    /// Events whose id is not above the last delivered one are dropped, so none arrives twice;
    /// `bff.stream.reset` (missed events are gone: reload) is always delivered, and later ids
    /// count from its id.
    /// Each connection uses the client's current `token`.
    ///
    /// Ending the consumption (breaking out of the loop, cancelling its task) cancels the transfer.
    ///
    /// - Parameters:
    ///   - path: The stream's path, `/api/events` by default.
    ///   - lastEventID: Resume after this id (from an earlier session), or nil for live events only.
    public func events(
        path: String = APIPath.events, lastEventID: Int64? = nil, reconnect: ReconnectPolicy = ReconnectPolicy()
    ) -> AsyncStream<LiveUpdate> {
        let (updates, continuation) = AsyncStream.makeStream(of: LiveUpdate.self)
        // Detached: the stream must not run on the caller's actor (often the main actor).
        let task = Task.detached { [self] in
            await runEvents(path: path, lastEventID: lastEventID, reconnect: reconnect, into: continuation)
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return updates
    }

    /// What outlives one connection of an event stream.
    private struct StreamState {
        /// The id of the last event delivered: sent as `Last-Event-ID`, and the bar for duplicates.
        var lastID: Int64?
        /// The server's `retry:`, the base of the reconnect backoff once sent.
        var serverRetry: Duration?
        /// Failed attempts since the last successful connection.
        var failures = 0
    }

    private func runEvents(
        path: String, lastEventID: Int64?, reconnect: ReconnectPolicy, into updates: AsyncStream<LiveUpdate>.Continuation
    ) async {
        var state = StreamState(lastID: lastEventID)
        var random = SystemRandomNumberGenerator()
        while !Task.isCancelled {
            let ending = await connectOnce(path: path, idleTimeout: reconnect.idleTimeout, state: &state, updates: updates)
            if Task.isCancelled { return }

            updates.yield(.disconnected(ending))
            logger.debug("event stream disconnected", metadata: ["path": "\(path)", "error": "\(ending)"])
            if case .status(let code, _, _) = ending, (400..<500).contains(code), code != 408, code != 429 { return }
            if case .invalidRequest = ending { return }
            state.failures += 1
            let base = min(state.serverRetry ?? reconnect.initialDelay, reconnect.maxDelay)
            let delay = Backoff.delay(failures: state.failures, base: base, cap: reconnect.maxDelay, using: &random)
            do {
                try await Task.sleep(for: delay)
            } catch {
                return
            }
        }
    }

    /// One connection: yields `.connected` once the server accepts, then the new events, until the
    /// connection ends; returns why it ended.
    private func connectOnce(
        path: String, idleTimeout: Duration, state: inout StreamState, updates: AsyncStream<LiveUpdate>.Continuation
    ) async -> HTTPClientError {
        var request = Request(.get, path, headers: [(name: "Accept", value: "text/event-stream"), (name: "Cache-Control", value: "no-cache")])
        if let lastID = state.lastID { request.headers.append((name: "Last-Event-ID", value: String(lastID))) }
        let exchange: Exchange
        do throws(HTTPClientError) {
            exchange = try Exchange.build(
                request, endpoint: endpoint, token: token, connectTimeout: configuration.connectTimeout, totalTimeout: nil,
                idleTimeout: idleTimeout, maxResponseBytes: configuration.maxResponseBytes
            )
        } catch {
            return error
        }
        guard let engine else { return unusable }
        var parser = ServerSentEventParser()
        // Leaving the loop early drops the stream of parts, which cancels the transfer.
        for await part in engine.stream(exchange) {
            switch part {
            case .head(let headers):
                let type = headers.first { $0.name.lowercased() == "content-type" }?.value ?? ""
                guard type.lowercased().hasPrefix("text/event-stream") else {
                    return .undecodable(status: 200, body: [], reason: "expected text/event-stream, got '\(type)'")
                }
                state.failures = 0
                updates.yield(.connected)
                logger.debug("event stream connected", metadata: ["path": "\(path)", "lastEventID": "\(state.lastID.map(String.init) ?? "none")"])
            case .bytes(let bytes):
                do throws(ServerSentEventParser.TooLarge) {
                    for output in try parser.feed(bytes) {
                        deliver(output, state: &state, updates: updates)
                    }
                } catch {
                    logger.warning("event stream dropped", metadata: ["reason": "\(error)"])
                    return .undecodable(status: 200, body: [], reason: error.description)
                }
            case .refused(let response):
                return .status(for: response)
            case .end(let error):
                return error ?? .unreachable("the server ended the event stream")
            }
        }
        // The parts ended without an end of their own: it was dropped from a full buffer.
        return Task.isCancelled ? .cancelled : .undecodable(status: 200, body: [], reason: "the server sends faster than its stream is read")
    }

    /// Hands one parsed output on: a new event to the consumer, a `retry:` to the state.
    private func deliver(_ output: ServerSentEventParser.Output, state: inout StreamState, updates: AsyncStream<LiveUpdate>.Continuation) {
        switch output {
        case .retry(let milliseconds):
            state.serverRetry = .milliseconds(milliseconds)
        case .event(let event):
            guard let id = event.id.flatMap({ Int64($0) }) else {
                logger.warning("event without a numeric id dropped", metadata: ["event": "\(event.name)"])
                return
            }
            // A reset counts on from its own id, which is lower than ours when the id we resumed
            // from is from another database.
            if let lastID = state.lastID, id <= lastID, event.name != EventName.streamReset.rawValue { return }
            state.lastID = id
            updates.yield(.event(LiveEvent(id: id, name: event.name, data: event.data)))
        }
    }
}
