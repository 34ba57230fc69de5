import CanvasCore
import Foundation
import HTTPClient
import Logging
import MicroAppAPI
import MicroAppModel
import Synchronization

/// Keeps the micro-apps' data in step between the widgets, the local cache and the BFF.
///
/// Widgets send `AppCommand`s (`send`); the answers and every change, the user's own and other
/// clients' (the BFF's live event stream), come back as canvas events through `publish`.
/// - Reads answer from the cache at once, then from the server when it answers.
/// - Writes change the cache at once and wait in an ordered outbox until the server has them,
///   each with its own idempotency key, so offline work is kept and a resent write counts once.
/// - Nothing here runs on the main actor: commands queue in order and return immediately.
public actor MicroAppSync {
    enum Input: Sendable {
        case command(AppCommand)
        case connect(HTTPClient, user: String?)
        /// Make a client, then connect with it (`connect(afterQueuedCommands:)`).
        case makeClient(@Sendable () async -> HTTPClient?)
    }

    /// Set by `run` before the first input is handled.
    private var openedCache: SyncCache?
    /// Every todo, read as soon as the cache opens, while the dashboard builds its first frame,
    /// so the todo list's first load answers at once even with thousands of items; dropped by
    /// the first input that could change todos.
    var startupTodos: [TodoItem]?
    var cache: SyncCache {
        guard let openedCache else { preconditionFailure("the cache is opened before any input is handled") }
        return openedCache
    }
    let logger: Logger
    let publish: @Sendable ([any BusEvent]) -> Void
    private let inputs: AsyncStream<Input>.Continuation
    /// `todo.load` commands sent and not yet handled: of several queued together (the todo list
    /// and the calendar both ask as they mount), only the last reads and publishes, since every
    /// widget hears its answer.
    private let queuedTodoLoads = Atomic<Int>(0)
    private var running: Task<Void, Never>?
    /// Making the client of `connect(afterQueuedCommands:)`: finding or starting the server.
    private var makingClient: Task<Void, Never>?
    var client: HTTPClient?
    /// The user's name on the server, which marks their own chat messages.
    var user: String?
    var statuses = StatusBoard()
    var isFlushing = false
    /// Set by every new write, so a flush that is ending looks at the outbox once more.
    var flushRequested = false
    /// Whether this run has replaced the cache with the server's data yet (or found it current).
    var hasRefreshed = false
    /// Whether the live stream resumes from the last event of a cache that was complete within
    /// the last day, so the server's replay brings it up to date without reloading everything.
    var resumesCompleteCache = false
    /// What widgets showed an interest in, reloaded from the server on (re)connect.
    var openChannels: Set<String> = []
    var calendarRanges: Set<DayRange> = []
    var liveStream: Task<Void, Never>?
    /// Per app, while a list is being fetched: the ids live events and completed writes touched
    /// meanwhile. The cache's copy of those is newer than the fetched list's.
    var touchedDuringFetch: [MicroAppID: Set<Int64>] = [:]

    /// - Parameters:
    ///   - openCache: Opens the cache; called once, off the caller's actor, before the first
    ///     command runs (commands sent meanwhile wait in order). When it throws, no command runs
    ///     and every micro-app pane says why.
    ///   - publish: Hands canvas events to the canvas (called off the main actor).
    public init(openCache: @escaping @Sendable () throws -> SyncCache, logger: Logger,
                publish: @escaping @Sendable ([any BusEvent]) -> Void) {
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

    /// Stops the live stream and every request in flight.
    public func stop() {
        inputs.finish()
        liveStream?.cancel()
        running?.cancel()
        makingClient?.cancel()
    }

    private func run(_ stream: AsyncStream<Input>, openCache: @Sendable () throws -> SyncCache) async {
        do {
            openedCache = try openCache()
        } catch {
            logger.critical("no cache could be opened, not even in memory: micro-apps stay empty", metadata: ["error": "\(error)"])
            statuses.notKeptOffline = "no cache: \(error)"
            await publishStatuses(force: true)
            for await _ in stream {}  // nothing runs without a cache; the inputs are read so none pile up
            return
        }
        statuses.notKeptOffline = openedCache?.notKept
        startupTodos = try? await cache.todos()
        running = Task { [weak self] in
            for await input in stream {
                guard let self else { return }
                await self.handle(input)
            }
        }
        do {
            statuses.pending = try await cache.pendingCounts()
            for app in MicroAppID.allCases { statuses.lastSynced[app] = try await cache.lastSynced(app.rawValue) }
            if let apps = try await cache.registry() { publish([RegistryLoaded(apps: apps, origin: .cache)]) }
        } catch {
            logger.error("cache unreadable", metadata: ["error": "\(error)"])
        }
        await publishStatuses(force: true)
        try? await Task.sleep(for: Self.quietStart)
        if statuses.connection == .starting {
            statuses.connection = .connecting
            await publishStatuses()
        }
    }

    /// How long the panes say nothing of a server that has not answered yet: a title that says
    /// `connecting` for the few milliseconds the local server takes only flickers.
    static let quietStart = Duration.seconds(1)

    /// Publishes the statuses that changed (all of them when `force`).
    func publishStatuses(force: Bool = false) async {
        let changes = statuses.changes(force: force)
        if !changes.isEmpty { publish(changes) }
    }

    /// Publishes changes to records together with the statuses they change (the outbox's size per
    /// app, an app's trouble), in one batch: no frame shows a new record without its app's
    /// `N unsent`, or a synced one with it.
    func publishWithStatuses(_ events: [any BusEvent]) async {
        await countPending()
        let batch = events + statuses.changes(force: false)
        if !batch.isEmpty { publish(batch) }
    }

    /// Re-reads the outbox's size per app, for the statuses.
    func countPending() async {
        if let counts = try? await cache.pendingCounts() {
            statuses.pending = counts
        }
    }

    private func handle(_ input: Input) async {
        if !input.leavesTodosAlone { startupTodos = nil }
        switch input {
        case .command(.todo(.load)) where queuedTodoLoads.subtract(1, ordering: .sequentiallyConsistent).newValue > 0:
            return  // a later one answers everyone
        case .command(let command):
            do {
                try await perform(command)
            } catch {
                logger.error("command failed", metadata: ["app": "\(command.app)", "error": "\(error)"])
                statuses.problems[command.app] = "local cache: \(error)"
                await publishStatuses()
            }
        case .connect(let client, let user):
            self.client = client
            self.user = user ?? client.token.flatMap(TokenName.of)
            startLiveStream(client)
        case .makeClient(let makeClient):
            // Beside the queue: starting a server takes a while, and commands must not wait.
            makingClient = Task { if let client = await makeClient(), !Task.isCancelled { connect(client) } }
        }
    }
}

extension MicroAppSync.Input {
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
