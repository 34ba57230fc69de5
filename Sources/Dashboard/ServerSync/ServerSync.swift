import AppModel
import CanvasCore
import FoundationEssentials
import HTTPClient
import Logging
import ServerAPI
import Synchronization

/// Keeps the micro-apps' data in step between the widgets, the local cache and the BFF.
///
/// Widgets send `AppCommand`s (`send`); the answers and every change, the user's own and other
/// clients' (the BFF's live event stream), come back as canvas events through `publish`.
/// - Reads answer from the cache at once, then from the server when it answers.
/// - Writes change the cache at once and wait in an ordered outbox until the server has them,
///   each with its own idempotency key, so offline work is kept and a resent write counts once.
/// - Nothing here runs on the main actor: commands queue in order and return immediately.
///
/// What to do is `SyncMachine`'s to decide; this actor only runs its effects, one input at a time:
/// the cache's work in order (what it answers goes back to the machine before the next input),
/// requests and timers beside it, their answers queued as inputs.
public actor ServerSync {
    enum Input: Sendable {
        case command(AppCommand)
        case connect(HTTPClient, user: String?)
        /// Make a client, then connect with it (`connect(afterQueuedCommands:)`).
        case makeClient(@Sendable () async -> HTTPClient?)
        /// What a request, the live stream or a timer answered.
        case answer(SyncMachine.Input)
    }

    private var machine = SyncMachine()
    /// Set by `run` before the first input is handled.
    private var openedCache: SyncCache?
    /// Every todo, read as soon as the cache opens, while the dashboard builds its first frame,
    /// so the todo list's first load answers at once even with thousands of items; dropped by
    /// the first input that could change todos.
    private var startupTodos: [TodoItem]?
    private let logger: Logger
    private let publish: @Sendable ([any BusEvent]) -> Void
    private let inputs: AsyncStream<Input>.Continuation
    /// `todo.load` commands sent and not yet handled: of several queued together (the todo list
    /// and the calendar both ask as they mount), only the last reads and publishes, since every
    /// widget hears its answer.
    private let queuedTodoLoads = Atomic<Int>(0)
    private var client: HTTPClient?
    /// Making the client of `connect(afterQueuedCommands:)`: finding or starting the server.
    private var makingClient: Task<Void, Never>?
    private var liveStream: Task<Void, Never>?
    /// Requests and timers under way, by a number of their own; `stop` cancels them.
    private var background: [Int: Task<Void, Never>] = [:]
    private var backgroundCount = 0
    /// Set by `stop`: nothing new starts after it.
    private var stopped = false

    /// How the dashboard's live stream reconnects: soon, and never more than 5 s apart, so a BFF
    /// that comes back is noticed quickly; a keep-alive comes every 15 s, so 45 s of silence is a
    /// dead connection.
    static let reconnect = HTTPClient.ReconnectPolicy(initialDelay: .milliseconds(300), maxDelay: .seconds(5), idleTimeout: .seconds(45))

    /// - Parameters:
    ///   - openCache: Opens the cache; called once, off the caller's actor, before the first
    ///     command runs (commands sent meanwhile wait in order). When it throws, no command runs
    ///     and every micro-app pane says why.
    ///   - publish: Hands canvas events to the canvas (called off the main actor).
    public init(openCache: @escaping @Sendable () throws -> SyncCache, logger: Logger,
                publish: @escaping @Sendable ([any BusEvent]) -> Void) {
        var logger = logger
        // Dashboards of one user share a log file.
        logger[metadataKey: "pid"] = "\(ProcessInfo.processInfo.processIdentifier)"
        self.logger = logger
        self.publish = publish
        let (stream, continuation) = AsyncStream.makeStream(of: Input.self)
        inputs = continuation
        Task { await self.run(stream, openCache: openCache) }
    }

    /// Queues a widget's command; commands run in the order they were sent.
    public nonisolated func send(_ command: AppCommand) {
        if command == .todo(.load) { queuedTodoLoads.add(1, ordering: .sequentiallyConsistent) }
        inputs.yield(.command(command))
    }

    /// Starts talking to the BFF `client` reaches, as `user` (nil: read it from the token).
    public nonisolated func connect(_ client: HTTPClient, user: String? = nil) {
        inputs.yield(.connect(client, user: user))
    }

    /// Makes a client with `makeClient` once the commands sent before this call are answered,
    /// then connects with it; nil connects nothing.
    ///
    /// For the dashboard's start: finding or starting the server and loading libcurl take CPU
    /// that the first answers from the cache should have first.
    public nonisolated func connect(afterQueuedCommands makeClient: @escaping @Sendable () async -> HTTPClient?) {
        inputs.yield(.makeClient(makeClient))
    }

    /// Stops the live stream and every request in flight; inputs still queued, or a step
    /// resuming after this, start nothing new.
    public func stop() {
        stopped = true
        inputs.finish()
        liveStream?.cancel()
        makingClient?.cancel()
        for task in background.values { task.cancel() }
    }

    private func run(_ stream: AsyncStream<Input>, openCache: @Sendable () throws -> SyncCache) async {
        let cache: SyncCache
        do {
            cache = try openCache()
        } catch {
            await step(.cacheUnusable("\(error)"))
            for await _ in stream {}  // nothing runs without a cache; the inputs are read so none pile up
            return
        }
        openedCache = cache
        startupTodos = try? await cache.todos()
        await step(.opened(await Self.summary(of: cache, logger: logger)))
        for await input in stream where !stopped { await handle(input) }
    }

    private static func summary(of cache: SyncCache, logger: Logger) async -> CacheSummary {
        var summary = CacheSummary(notKeptOffline: cache.notKept)
        do {
            summary.pending = try await cache.pendingCounts()
            for app in ServerApp.allCases { summary.lastSynced[app] = try await cache.lastSynced(app.rawValue) }
            summary.registry = try await cache.registry()
            summary.remindedUntil = try await cache.remindedUntil()
        } catch {
            logger.error("cache unreadable", metadata: ["error": "\(error)"])
        }
        return summary
    }

    private func handle(_ input: Input) async {
        if !input.leavesTodosAlone { startupTodos = nil }
        switch input {
        case .command(.todo(.load)) where queuedTodoLoads.subtract(1, ordering: .sequentiallyConsistent).newValue > 0:
            return  // a later one answers everyone
        case .command(let command):
            await step(.command(command))
        case .connect(let client, let user):
            self.client = client
            await step(.connect(user: user ?? client.token.flatMap(TokenName.of)))
        case .makeClient(let makeClient):
            // Beside the queue: starting a server takes a while, and commands must not wait.
            makingClient = Task { if let client = await makeClient(), !Task.isCancelled { connect(client) } }
        case .answer(let answer):
            await step(answer)
        }
    }

    /// Hands `input` to the machine and runs its effects; what the cache answers goes back to the
    /// machine, in order, before any other input.
    private func step(_ input: SyncMachine.Input) async {
        var answers = [input]
        while !answers.isEmpty {
            for effect in machine.handle(answers.removeFirst(), now: Date()) {
                if let answer = await run(effect) { answers.append(answer) }
            }
        }
    }

    /// Runs one effect; the cache's are awaited here, requests and timers start beside.
    /// - Returns: what the cache answered, for the machine.
    private func run(_ effect: SyncMachine.Effect) async -> SyncMachine.Input? {
        switch effect {
        case .listen(let lastID):
            listen(after: lastID)
        case .send(let entry):
            request { client in .sendAnswered(entry, await client.send(entry)) }
        case .fetch(let fetch):
            request { client in .fetched(fetch, await client.fetch(fetch)) }
        case .fetchReminders(let after, let until):
            request { client in .remindersFetched(await client.reminders(after: after, until: until)) }
        case .schedule(let timer, let delay):
            inBackground {
                try? await Task.sleep(for: delay)
                return Task.isCancelled ? nil : .timer(timer)
            }
        case .publish(let events):
            publish(events)
        case .log(let level, let message):
            logger.log(level: level, "\(message)")
        case .answerFromCache(.todos) where startupTodos != nil:
            publish([TodoItemsLoaded(items: startupTodos ?? [], origin: .cache)])
            startupTodos = nil
        default:
            return await openedCache?.run(effect, publish: publish, logger: logger)
        }
        return nil
    }

    private func listen(after lastID: Int64?) {
        liveStream?.cancel()
        guard let client, !stopped else { return }
        liveStream = Task { [inputs] in
            for await update in client.events(lastEventID: lastID, reconnect: Self.reconnect) {
                inputs.yield(.answer(.stream(update)))
            }
        }
    }

    /// Runs a request with the client, its answer queued as an input.
    private func request(_ body: @escaping @Sendable (HTTPClient) async -> SyncMachine.Input) {
        guard let client else { return }
        inBackground { await body(client) }
    }

    private func inBackground(_ work: @escaping @Sendable () async -> SyncMachine.Input?) {
        guard !stopped else { return }
        backgroundCount += 1
        let number = backgroundCount
        background[number] = Task { [inputs] in
            if let answer = await work() { inputs.yield(.answer(answer)) }
            self.ended(number)
        }
    }

    private func ended(_ number: Int) {
        background[number] = nil
    }
}

extension ServerSync.Input {
    /// Whether this input only reads, so todos read before it are still current.
    var leavesTodosAlone: Bool {
        switch self {
        case .command(.todo(.load)), .command(.calendar(.load)), .command(.chat(.loadChannels)), .command(.chat(.open)),
             .command(.chat(.older)):
            true
        default:
            false
        }
    }
}
