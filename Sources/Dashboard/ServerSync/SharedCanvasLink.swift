import CanvasCore
import FoundationEssentials
import HTTPClient
import Logging
import ServerAPI

/// The dashboard's link to its server for the shared canvas open: sends the canvas host's edits
/// one at a time, in order, and reads the canvas again when asked (after a reconnect, a gap, a
/// refusal of the role); what the server says goes back through `post`.
///
/// Order is what keeps an edit from being lost or applied twice: the server answers each
/// session's edits once, in their numbers' order, so an edit must never go before an earlier one
/// that failed to arrive. After a failure the link holds that canvas's later edits; the next
/// catch-up (`caughtUp`) makes the host send every unanswered edit again, in order.
public actor SharedCanvasLink {
    private enum Input: Sendable {
        case use(HTTPClient)
        case request(SharedCanvasRequest)
    }

    private var client: HTTPClient?
    /// Canvases whose edits wait for a catch-up, after one failed to arrive.
    private var held: Set<Int64> = []
    /// How long after a failed send the link reads the canvas again; doubles up to 30 s.
    private var retryDelay = SharedCanvasLink.firstRetry
    private var retry: Task<Void, Never>?
    private var worker: Task<Void, Never>?
    private let inputs: AsyncStream<Input>.Continuation
    private let post: @Sendable (Int64?, SharedCanvasNews) -> Void
    private let logger: Logger

    static let firstRetry = Duration.seconds(2)
    static let longestRetry = Duration.seconds(30)

    /// - Parameter post: Hands what the server said of a canvas to the canvas host (called off
    ///   the main actor).
    public init(logger: Logger, post: @escaping @Sendable (Int64?, SharedCanvasNews) -> Void) {
        self.logger = logger
        self.post = post
        let (stream, continuation) = AsyncStream.makeStream(of: Input.self)
        inputs = continuation
        Task { await self.start(stream) }
    }

    /// Talks to the server through `client` from now on (requests before it wait for the live
    /// stream's connection, which asks for a catch-up).
    public nonisolated func use(_ client: HTTPClient) {
        inputs.yield(.use(client))
    }

    /// Queues the canvas host's request; requests run one at a time, in order.
    public nonisolated func handle(_ request: SharedCanvasRequest) {
        inputs.yield(.request(request))
    }

    /// Sends what is queued (the goodbye `close` of a dashboard quitting) for at most `grace`,
    /// then stops whatever is left.
    public func stop(grace: Duration = .seconds(1)) async {
        inputs.finish()
        retry?.cancel()
        let worker = worker
        let deadline = Task {
            try? await Task.sleep(for: grace)
            worker?.cancel()
        }
        await worker?.value
        deadline.cancel()
    }

    private func start(_ stream: AsyncStream<Input>) {
        worker = Task {
            for await input in stream where !Task.isCancelled { await self.run(input) }
        }
    }

    private func run(_ input: Input) async {
        switch input {
        case .use(let client):
            self.client = client
        case .request(.catchUp(let canvas, let session)):
            await catchUp(canvas, session: session)
        case .request(.send(let canvas, let edits)):
            for edit in edits where !held.contains(canvas) { await send(edit, on: canvas) }
        case .request(.close(let canvas, let session)):
            await say(session, opened: false, canvas)
        case .request(.store(let layout)):
            await store(layout)
        case .request(.list):
            await list()
        case .request(.fetch(let canvas)):
            guard let client else { return }
            do {
                post(canvas, .firstCopy(SharedCanvasCopy(first: try await client.canvases.snapshot(canvas)), stored: false))
            } catch {
                post(canvas, .gone(SyncMachine.describe(error)))
            }
        }
    }

    /// The layouts on the server the user owns or was given (the first page, up to the most one
    /// user may own and be given), with who has each open.
    private func list() async {
        guard let client else { return }
        guard let page = try? await client.canvases.page(limit: CanvasLimits.canvasesPerUser * 4) else { return }
        var listed: [LayoutSummary] = []
        for canvas in page.items {
            if let presence = try? await client.canvases.presence(canvas.id) { post(canvas.id, .present(presence.present)) }
            listed.append(LayoutSummary(name: canvas.name, paneCount: nil, updatedAt: nil, isPreset: false,
                                        sharing: LayoutSummary.Sharing(canvas: canvas.id, owner: canvas.owner, role: canvas.role)))
        }
        post(nil, .listed(listed))
    }

    /// Stores `layout` on the server as a new canvas of the user's.
    private func store(_ layout: LayoutData) async {
        guard let client else { return post(nil, .notStored(layout, reason: "the server has not answered yet")) }
        do {
            let snapshot = try await client.canvases.create(layout)
            let copy = SharedCanvasCopy(first: snapshot)
            post(copy.canvas, .firstCopy(copy, stored: true))
        } catch {
            let reason = switch error {
            case .status(409, _, _): "you have a layout of that name there"
            case .status(_, _, let apiError?): apiError.error
            default: SyncMachine.describe(error)
            }
            post(nil, .notStored(layout, reason: reason))
        }
    }

    /// Tells the server this session has `canvas` open, or closed it; its answer says who has it open.
    private func say(_ session: String, opened: Bool, _ canvas: Int64) async {
        guard let client else { return }
        do {
            let presence = try await client.canvases.setPresence(canvas, session: session, open: opened)
            post(canvas, .present(presence.present))
        } catch {
            logger.info("presence not told", metadata: ["canvas": "\(canvas)", "error": "\(error)"])
        }
    }

    private func catchUp(_ canvas: Int64, session: String) async {
        guard let client else { return }
        do {
            let snapshot = try await client.canvases.snapshot(canvas, session: session)
            held.remove(canvas)
            var layout = snapshot.layout
            layout.name = snapshot.name  // renamed since, perhaps
            post(canvas, .caughtUp(layout: layout, version: snapshot.version, answered: snapshot.answered, role: snapshot.role))
            await say(session, opened: true, canvas)
        } catch {
            switch error {
            case .status(404, _, _):
                post(canvas, .gone("it is not shared with you any more"))
            default:
                // The live stream's next connection asks again.
                logger.warning("shared canvas not read", metadata: ["canvas": "\(canvas)", "error": "\(error)"])
            }
        }
    }

    private func send(_ edit: CanvasReplica.PendingEdit, on canvas: Int64) async {
        guard let client else {
            held.insert(canvas)
            return
        }
        let body = CanvasEdit(session: edit.origin.session, sequence: edit.origin.sequence, operation: edit.operation)
        do {
            let answer = try await client.canvases.submit(body, to: canvas)
            retryDelay = Self.firstRetry
            switch answer.outcome {
            case .ordered: if let change = answer.change { post(canvas, .changed(change)) }
            case .refused: post(canvas, .refused(edit.origin, reason: answer.reason ?? "it no longer applied"))
            case .repeated: break
            }
        } catch {
            switch error {
            case .status(403, _, _), .status(404, _, _):
                // The role changed, or the canvas went: the catch-up says which.
                held.insert(canvas)
                await catchUp(canvas, session: edit.origin.session)
            case .status(let code, _, let apiError) where (400..<500).contains(code) && code != 429:
                // The server will never take it: dropped, as a refusal.
                post(canvas, .refused(edit.origin, reason: apiError?.error ?? "the server refused it (\(code))"))
            default:
                logger.info("shared canvas edit not sent; sent again after a catch-up", metadata: ["canvas": "\(canvas)", "error": "\(error)"])
                held.insert(canvas)
                scheduleCatchUp(canvas, session: edit.origin.session)
            }
        }
    }

    private func scheduleCatchUp(_ canvas: Int64, session: String) {
        let delay = retryDelay
        retryDelay = min(retryDelay * 2, Self.longestRetry)
        retry?.cancel()
        retry = Task { [inputs] in
            try? await Task.sleep(for: delay)
            if !Task.isCancelled { inputs.yield(.request(.catchUp(canvas: canvas, session: session))) }
        }
    }
}

extension SharedCanvasCopy {
    /// A first copy of a canvas as the server sent it, named as the server names it, under a new
    /// session of this machine's own (its edits are numbered under it).
    public init(first snapshot: CanvasSnapshot, session: String = UUID().uuidString.lowercased()) {
        var layout = snapshot.layout
        layout.name = snapshot.name
        self.init(canvas: snapshot.id, owner: snapshot.owner, role: snapshot.role,
                  replica: CanvasReplica(session: session, layout: layout, version: snapshot.version))
    }
}
