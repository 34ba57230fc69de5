import Dispatch
import Foundation
import MicroAppModel
import MicroAppProtocol
import Synchronization

/// Runs a process micro-app: the IO around its `Supervisor`. Its pipes are read on a queue of its
/// own, lines are decoded there, and the pane is woken only when there is something to draw.
final class ProcessSession: AppEngine {
    private struct Running {
        let generation: Int
        let pid: pid_t
        let writer: PipeWriter
        let readers: [PipeReader]
        var framer = LineFramer()
    }

    private struct Shell {
        var supervisor: Supervisor
        var running: Running?
        var wake: (@Sendable () -> Void)?
        var finished = false
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private let recipe: LaunchRecipe
    private let log: AppLog
    private let backend: (any AppBackend)?
    private let queue: DispatchQueue
    private let shell: Mutex<Shell>

    init(appID: String, recipe: LaunchRecipe, permissions: Permissions, limits: AppManifest.Limits,
         log: AppLog, backend: (any AppBackend)?) {
        self.recipe = recipe
        self.log = log
        self.backend = backend
        queue = DispatchQueue(label: "termcanvas.app.\(appID)")
        shell = Mutex(Shell(supervisor: Supervisor(appID: appID, limits: limits, permissions: permissions)))
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
    /// leads to another input (a write the pipe refused) is fed next, outside the lock.
    private func run(_ first: Supervisor.Input) {
        var inputs = [first]
        while !inputs.isEmpty {
            let input = inputs.removeFirst()
            let wake: (@Sendable () -> Void)? = shell.withLock { shell in
                var wakes = false
                for effect in shell.supervisor.handle(input, now: Date()) {
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
            do {
                spawn(try recipe.make(), generation: generation)
            } catch {
                log.write("host", "could not start: \(error)")
                return .spawnFailed(generation: generation, error.description)
            }
        case .write(let message):
            guard let running = shell.running else { return nil }
            if !running.writer.write(MicroAppCodec.encode(message)) { return .inputOverflow(generation: running.generation) }
        case .closeInput:
            shell.running?.writer.closeWhenFlushed()
        case .signalGroup(let signal):
            if let running = shell.running { kill(-running.pid, signal) }
        case .schedule(let timer, let seconds):
            queue.asyncAfter(deadline: .now() + seconds) { [weak self] in self?.run(.timer(timer)) }
        case .wake:
            break  // after the lock: see `run`
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
            shell.running?.writer.close()
            shell.running?.readers.forEach { $0.cancel() }
            shell.running = nil
            shell.finished = true
            let waiting = shell.waiting
            shell.waiting = []
            waiting.forEach { $0.resume() }
        }
        return nil
    }

    private func spawn(_ launch: AppLaunch, generation: Int) {
        Spawner.shared.spawn(launch) { [weak self] result in
            guard let self else {
                if case .success(let started) = result { kill(-started.pid, SIGKILL) }
                return
            }
            switch result {
            case .failure(let error):
                log.write("host", "could not start: \(error)")
                run(.spawnFailed(generation: generation, error.description))
            case .success(let started):
                attach(started, launch: launch, generation: generation)
                run(.spawned(generation: generation))
            }
        }
    }

    private func attach(_ started: Spawner.Started, launch: AppLaunch, generation: Int) {
        let output = PipeReader(descriptor: started.output, queue: queue) { [weak self] bytes in
            self?.read(bytes, generation: generation)
        }
        let errors = PipeReader(descriptor: started.errors, queue: queue) { [log] bytes in log.appendErrorOutput(bytes) }
        let writer = PipeWriter(descriptor: started.input, queue: queue)
        shell.withLock { $0.running = Running(generation: generation, pid: started.pid, writer: writer, readers: [output, errors]) }
        log.write("host", "started \(started.pid): \(([launch.program] + launch.arguments.dropFirst()).joined(separator: " "))")
        watchExit(of: started.pid, gone: { [weak self] in
            // The process is gone but not reaped: no signal may be sent to its id from now on.
            self?.shell.withLock { shell in
                guard shell.running?.generation == generation else { return }
                shell.running?.writer.close()
                shell.running = nil
            }
        }, exited: { [weak self] status in
            self?.run(.exited(generation: generation, status: status))
        })
    }

    /// Frames and decodes output on the app's queue; the supervisor sees whole messages.
    private func read(_ bytes: [UInt8], generation: Int) {
        guard !bytes.isEmpty else { return }
        let items = shell.withLock { shell -> [LineFramer.Item] in
            guard shell.running?.generation == generation else { return [] }
            return shell.running?.framer.feed(bytes) ?? []
        }
        for item in items {
            switch item {
            case .tooLong(let count):
                run(.lineTooLong(generation: generation, bytes: count))
            case .line(let line):
                guard !line.isEmpty else { continue }
                do {
                    run(.received(generation: generation, try MicroAppCodec.decode(line), bytes: line.count))
                } catch {
                    let start = String(decoding: line.prefix(120), as: UTF8.self)
                    run(.unreadable(generation: generation, reason: "\(error): \(start)\(line.count > 120 ? "…" : "")",
                                    answer: MicroAppCodec.failure(for: line, error)))
                }
            }
        }
    }
}
