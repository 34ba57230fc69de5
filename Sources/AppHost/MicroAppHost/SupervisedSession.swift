import AppModel
import Dispatch
import FoundationEssentials
import MicroAppProtocol
import Synchronization

/// Runs a micro-app under its `Supervisor` (deadlines, permissions, limits, restarts): feeds it
/// inputs one at a time and carries out its effects. Those on the app itself (start it, write to
/// it, close its input, signal it, let it go) go to a `SessionDriver`, a process's pipes or a
/// remote entry's session; timers, backend calls, logs and waking the pane are the same for both
/// and done here.
final class SupervisedSession: AppEngine {
    private struct Shell {
        var supervisor: Supervisor
        var wake: (@Sendable () -> Void)?
        var finished = false
        var waiting: [CheckedContinuation<Void, Never>] = []
        /// Backend calls under way, by generation: a respawn or the end cancels the earlier
        /// generations' (their answers would be dropped, and a call may wait on the network).
        var calls: [CallKey: Task<Void, Never>] = [:]

        mutating func cancelCalls(before generation: Int) {
            for (key, task) in calls where key.generation < generation {
                task.cancel()
                calls[key] = nil
            }
        }
    }

    private struct CallKey: Hashable {
        let generation: Int
        let id: RPCID
    }

    private let driver: any SessionDriver
    private let log: AppLog
    private let backend: (any AppBackend)?
    /// Where timers fire.
    private let queue: DispatchQueue
    private let shell: Mutex<Shell>

    init(supervisor: Supervisor, driver: any SessionDriver, log: AppLog, backend: (any AppBackend)?, queue: DispatchQueue) {
        self.driver = driver
        self.log = log
        self.backend = backend
        self.queue = queue
        shell = Mutex(Shell(supervisor: supervisor))
    }

    /// A process micro-app's session.
    static func process(appID: String, recipe: LaunchRecipe, permissions: Permissions, limits: AppManifest.Limits, log: AppLog,
                        backend: (any AppBackend)?) -> SupervisedSession {
        let queue = DispatchQueue(label: "termcanvas.app.\(appID)")
        return SupervisedSession(supervisor: Supervisor(appID: appID, limits: limits, permissions: permissions, memoryHint: recipe.manifest.memoryHint),
                                 driver: ProcessDriver(recipe: recipe, log: log, queue: queue), log: log, backend: backend, queue: queue)
    }

    /// A remote micro-app's session, through `transport`.
    static func remote(appID: String, transport: any RemoteAppTransport, permissions: Permissions, limits: AppManifest.Limits,
                       log: AppLog, backend: (any AppBackend)?) -> SupervisedSession {
        SupervisedSession(supervisor: Supervisor(appID: appID, limits: limits, permissions: permissions, isRemote: true),
                          driver: RemoteDriver(appID: appID, transport: transport), log: log, backend: backend,
                          queue: DispatchQueue(label: "termcanvas.remote.\(appID)"))
    }

    func start(_ parameters: InitializeParams, wake: @escaping @Sendable () -> Void) {
        shell.withLock { $0.wake = wake }
        run(.start(parameters))
    }

    func send(_ message: HostToApp) { run(.send(message)) }
    func restart() { run(.restart) }
    func stop() { run(.stop) }

    func takeUpdates() -> AppUpdates {
        shell.withLock { $0.supervisor.takeUpdates() }
    }

    func finished() async {
        await withCheckedContinuation { continuation in
            let done = shell.withLock { shell in
                if !shell.finished { shell.waiting.append(continuation) }
                return shell.finished
            }
            if done { continuation.resume() }
        }
    }

    /// Feeds inputs to the supervisor one at a time and carries out its effects; an effect that
    /// leads to another input (a write the pipe refused, a remote session closed) is fed next.
    /// The pane is woken outside the lock.
    private func run(_ first: Supervisor.Input) {
        var inputs = [first]
        while !inputs.isEmpty {
            let input = inputs.removeFirst()
            let wake: (@Sendable () -> Void)? = shell.withLock { shell in
                var wakes = false
                for effect in shell.supervisor.handle(input, now: .now) {
                    if case .wake = effect { wakes = true }
                    if let next = perform(effect, &shell) { inputs.append(next) }
                }
                return wakes ? shell.wake : nil
            }
            wake?()
        }
    }

    private func perform(_ effect: Supervisor.Effect, _ shell: inout Shell) -> Supervisor.Input? {
        switch effect {
        case .spawn(let generation):
            shell.cancelCalls(before: generation)
            return driver.perform(effect, feed: { [weak self] in self?.run($0) })
        case .write, .closeInput, .signalGroup:
            return driver.perform(effect, feed: { [weak self] in self?.run($0) })
        case .schedule(let timer, let seconds):
            queue.asyncAfter(deadline: .now() + seconds) { [weak self] in self?.run(.timer(timer)) }
        case .wake:
            break  // after the lock: see `run`
        case .callBackend(let generation, let id, let request):
            guard let backend else {
                return .process(generation: generation, .backendAnswered(id: id,
                                        .failure(RPCError(code: RPCError.backendUnavailable, message: "no backend is connected"))))
            }
            let key = CallKey(generation: generation, id: id)
            // Added under the lock this runs in, before the call can end and remove it.
            shell.calls[key] = Task { [weak self] in
                let result = await backend.call(request)
                guard let self, !Task.isCancelled else { return }
                self.shell.withLock { _ = $0.calls.removeValue(forKey: key) }
                self.run(.process(generation: generation, .backendAnswered(id: id, result)))
            }
        case .log(let line):
            log.write("host", line)
        case .appLog(let line):
            log.write("app", line)
        case .finished:
            _ = driver.perform(effect, feed: { _ in })
            shell.cancelCalls(before: .max)
            shell.finished = true
            let waiting = shell.waiting
            shell.waiting = []
            waiting.forEach { $0.resume() }
        }
        return nil
    }
}

/// The IO a supervised app runs on: a process's pipes (`ProcessDriver`) or a remote entry's
/// session (`RemoteDriver`).
protocol SessionDriver: AnyObject, Sendable {
    /// Carries out `spawn`, `write`, `closeInput`, `signalGroup` or `finished` (let everything
    /// go). `feed` gives the supervisor what comes of it later, from any thread; it runs under the
    /// session's lock, so what comes of it at once is returned instead, to be fed next.
    func perform(_ effect: Supervisor.Effect, feed: @escaping @Sendable (Supervisor.Input) -> Void) -> Supervisor.Input?
}

extension Supervisor.Input {
    /// What one line the app sent is to its supervisor: a message, or an unreadable line.
    static func line(_ line: [UInt8], generation: Int) -> Supervisor.Input {
        do {
            return .process(generation: generation, .received(try MicroAppCodec.decode(line), bytes: line.count))
        } catch {
            let start = String(decoding: line.prefix(120), as: UTF8.self)
            return .process(generation: generation, .unreadable(reason: "\(error): \(start)\(line.count > 120 ? "…" : "")",
                               answer: MicroAppCodec.failure(for: line, error)))
        }
    }
}
