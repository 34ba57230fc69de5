import Dispatch
import Foundation
import MicroAppModel
import MicroAppProtocol
import Synchronization

/// Runs a remote micro-app: the same `Supervisor` as a process app (deadlines, permissions,
/// limits, restarts), with a session at the app's entry, reached through the server's proxy, in
/// place of a process. "Spawning" is immediate; the `initialize` line opens the session, later
/// lines are sent one at a time in order, and the session's stream brings the app's lines. A
/// session that cannot be opened, or whose stream ends, is lost: the supervisor retries it while
/// the pane keeps its last view.
final class RemoteSession: AppEngine {
    private struct Running {
        let generation: Int
        var session: String?
        /// Lines waiting for the session to open, in order.
        var waiting: [[UInt8]] = []
        let outbox: AsyncStream<[UInt8]>.Continuation
        var tasks: [Task<Void, Never>] = []
    }

    private struct Shell {
        var supervisor: Supervisor
        var running: Running?
        var wake: (@Sendable () -> Void)?
        var finished = false
        var waitingForFinish: [CheckedContinuation<Void, Never>] = []
    }

    private let appID: String
    private let transport: any RemoteAppTransport
    private let log: AppLog
    private let backend: (any AppBackend)?
    private let queue: DispatchQueue
    private let shell: Mutex<Shell>

    init(appID: String, transport: any RemoteAppTransport, permissions: Permissions, limits: AppManifest.Limits, log: AppLog,
         backend: (any AppBackend)?) {
        self.appID = appID
        self.transport = transport
        self.log = log
        self.backend = backend
        queue = DispatchQueue(label: "termcanvas.remote.\(appID)")
        shell = Mutex(Shell(supervisor: Supervisor(appID: appID, limits: limits, permissions: permissions, isRemote: true)))
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
                if !shell.finished { shell.waitingForFinish.append(continuation) }
                return shell.finished
            }
            if done { continuation.resume() }
        }
    }

    /// Feeds inputs to the supervisor one at a time, on the session's queue, and carries out its effects.
    private func run(_ input: Supervisor.Input) {
        queue.async { [self] in
            var inputs = [input]
            while !inputs.isEmpty {
                let next = inputs.removeFirst()
                let wake: (@Sendable () -> Void)? = shell.withLock { shell in
                    var wakes = false
                    for effect in shell.supervisor.handle(next, now: Date()) {
                        if case .wake = effect { wakes = true }
                        if let more = perform(effect, &shell) { inputs.append(more) }
                    }
                    return wakes ? shell.wake : nil
                }
                wake?()
            }
        }
    }

    private func perform(_ effect: Supervisor.Effect, _ shell: inout Shell) -> Supervisor.Input? {
        switch effect {
        case .spawn(let generation):
            end(&shell)
            let (outbox, continuation) = AsyncStream.makeStream(of: [UInt8].self)
            var running = Running(generation: generation, outbox: continuation)
            running.tasks.append(Task { [weak self] in await self?.deliver(outbox, generation: generation) })
            shell.running = running
            return .spawned(generation: generation)
        case .write(let message):
            shell.running?.outbox.yield(MicroAppCodec.encode(message))
        case .closeInput:
            // After `exit`: the session is over.
            if let generation = shell.running?.generation { lose(&shell, generation: generation, reason: "closed") }
        case .signalGroup:
            if let generation = shell.running?.generation { lose(&shell, generation: generation, reason: "closed") }
        case .schedule(let timer, let seconds):
            queue.asyncAfter(deadline: .now() + seconds) { [weak self] in self?.run(.timer(timer)) }
        case .wake:
            break
        case .callBackend(let generation, let id, let request):
            guard let backend else {
                return .backendAnswered(generation: generation, id: id,
                                        .failure(RPCError(code: RPCError.backendUnavailable, message: "no backend is connected")))
            }
            Task { [weak self] in
                let result = await backend.call(request)
                self?.run(.backendAnswered(generation: generation, id: id, result))
            }
        case .log(let line):
            log.write("host", line)
        case .appLog(let line):
            log.write("app", line)
        case .finished:
            end(&shell)
            shell.finished = true
            let waiting = shell.waitingForFinish
            shell.waitingForFinish = []
            waiting.forEach { $0.resume() }
        }
        return nil
    }

    /// Ends the current session and tells the supervisor it is lost (after this effect's turn).
    private func lose(_ shell: inout Shell, generation: Int, reason: String) {
        if let session = shell.running?.session {
            let transport = transport
            let app = appID
            Task { await transport.close(app: app, session: session) }
        }
        end(&shell)
        run(.lost(generation: generation, reason: reason))
    }

    private func end(_ shell: inout Shell) {
        shell.running?.outbox.finish()
        shell.running?.tasks.forEach { $0.cancel() }
        shell.running = nil
    }

    /// Sends the session's lines in order: the first (`initialize`) opens it, and starts reading.
    private func deliver(_ outbox: AsyncStream<[UInt8]>, generation: Int) async {
        var session: String?
        for await line in outbox {
            do throws(RemoteAppFailure) {
                if let session {
                    try await transport.send(app: appID, session: session, line: line)
                    continue
                }
                let opened = try await transport.open(app: appID, initialize: line)
                session = opened.session
                let started = shell.withLock { shell -> Bool in
                    guard shell.running?.generation == generation else { return false }
                    shell.running?.session = opened.session
                    shell.running?.tasks.append(Task { [weak self] in await self?.read(opened.session, generation: generation) })
                    return true
                }
                guard started else {
                    await transport.close(app: appID, session: opened.session)
                    return
                }
                received(opened.answer, generation: generation)
            } catch {
                guard !Task.isCancelled else { return }
                run(.lost(generation: generation, reason: error.description))
                return
            }
        }
    }

    private func read(_ session: String, generation: Int) async {
        for await item in transport.lines(app: appID, session: session) {
            switch item {
            case .line(let line):
                received(line, generation: generation)
            case .ended(let reason):
                guard !Task.isCancelled else { return }
                run(.lost(generation: generation, reason: reason))
                return
            }
        }
    }

    private func received(_ line: [UInt8], generation: Int) {
        guard !line.isEmpty else { return }
        guard line.count <= LineFramer.standardLimit else {
            run(.lineTooLong(generation: generation, bytes: line.count))
            return
        }
        do {
            run(.received(generation: generation, try MicroAppCodec.decode(line), bytes: line.count))
        } catch {
            let start = String(decoding: line.prefix(120), as: UTF8.self)
            run(.unreadable(generation: generation, reason: "\(error): \(start)\(line.count > 120 ? "…" : "")",
                            answer: MicroAppCodec.failure(for: line, error)))
        }
    }
}
