import AppModel
import Dispatch
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import MicroAppProtocol
import Synchronization

/// Runs a `sample:` app: its command every period, never two at once (a run still going at the
/// next tick is killed), its output (at most 64 KiB a run) drawn as text, a gauge or a sparkline.
/// Runs only while its pane can be seen.
final class SampleSession: AppEngine {
    private struct Run {
        let process: Spawner.Started
        var output: [UInt8] = []
        var timedOut = false
        /// Why it was killed for what it kept in its folders, when it was.
        var stopReason: String?
        var folders: FolderWatch?
        /// Its output reached its end; with its exit, the run is over.
        var outputEnded = false
        var status: Int32?
        /// Its keeper exited (not yet reaped): its id may not be signalled from now on.
        var keeperGone = false

        /// Ends the run, unless its keeper is gone already (and with it the run).
        func kill() {
            if !keeperGone { process.signal(SIGKILL) }
        }
    }

    private struct State {
        var view: SampleView
        var revision = 0
        var updates = AppUpdates()
        var wake: (@Sendable () -> Void)?
        var woken = false
        /// Bumped by stop and restart, so older ticks do nothing.
        var generation = 0
        var run: Run?
        /// A run was asked of the spawner and has not started yet: it counts as running, or a
        /// slow spawner (a loaded machine) would let the next tick start a second one.
        var spawning = false
        var visible = true
        var stopping = false
        var finished = false
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    static let outputLimit = 64 * 1024

    private let recipe: LaunchRecipe
    private let period: Double
    private let log: AppLog
    private let queue: DispatchQueue
    private let state: Mutex<State>

    init(appID: String, recipe: LaunchRecipe, sample: AppManifest.Sample, log: AppLog) {
        self.recipe = recipe
        self.period = sample.everySeconds
        self.log = log
        queue = DispatchQueue(label: "termcanvas.sample.\(appID)")
        state = Mutex(State(view: SampleView(show: sample.show)))
    }

    func start(_ parameters: InitializeParams, wake: @escaping @Sendable () -> Void) {
        let generation = state.withLock { state in
            state.wake = wake
            state.visible = parameters.visible
            state.updates.status = .running
            return state.generation
        }
        notify()
        tick(generation)
    }

    func send(_ message: HostToApp) {
        guard case .visible(let visible) = message else { return }
        let resume = state.withLock { state -> Int? in
            defer { state.visible = visible }
            guard visible, !state.visible, !state.stopping else { return nil }
            state.generation += 1  // a new run of ticks: any older one ends
            return state.generation
        }
        if let resume { tick(resume) }
    }

    func takeUpdates() -> AppUpdates {
        state.withLock { state in
            defer {
                state.updates = AppUpdates()
                state.woken = false
            }
            return state.updates
        }
    }

    func restart() {
        let generation = state.withLock { state -> Int? in
            guard !state.stopping else { return nil }
            state.generation += 1
            return state.generation
        }
        if let generation { tick(generation) }
    }

    func stop() {
        state.withLock { state in
            state.stopping = true
            state.generation += 1
            if let run = state.run {
                run.kill()
            } else if !state.spawning {
                finish(&state)
            }  // else: killed as it starts, finished when it ends
        }
    }

    func finished() async {
        await withCheckedContinuation { continuation in
            let done = state.withLock { state in
                if !state.finished { state.waiting.append(continuation) }
                return state.finished
            }
            if done { continuation.resume() }
        }
    }

    /// One tick: kill a run that is still going, or start one; then the next tick.
    private func tick(_ generation: Int) {
        let startNow = state.withLock { state -> Bool? in
            guard generation == state.generation, !state.stopping, state.visible else { return nil }
            guard let run = state.run else {
                guard !state.spawning else { return false }
                state.spawning = true
                return true
            }
            state.run?.timedOut = true
            run.kill()
            return false
        }
        guard let startNow else { return }
        queue.asyncAfter(deadline: .now() + period) { [weak self] in self?.tick(generation) }
        guard startNow else { return }
        Spawner.shared.spawn(recipe) { [weak self] result in self?.started(result) }
    }

    private func started(_ result: Result<Spawner.Started, LaunchError>) {
        switch result {
        case .failure(let error):
            let stopped = state.withLock { state in
                state.spawning = false
                if state.stopping { finish(&state) }
                return state.stopping
            }
            if !stopped { show(output: "", problem: "cannot run: \(error)") }
        case .success(let started):
            close(started.input)
            let folders = FolderWatch(started, queue: queue) { [weak self] usage in
                guard let session = self else { return }
                session.log.write("host", "found \(FolderWatch.describe(usage)) in its folders")
                session.state.withLock { state in
                    guard state.run?.process.keeper == started.keeper else { return }
                    state.run?.stopReason = FolderWatch.stopReason(usage, bytesLimit: started.launch.limits.diskBytes)
                    state.run?.kill()
                }
            }
            let stopNow = state.withLock { state in
                state.spawning = false
                state.run = Run(process: started, folders: folders)
                return state.stopping
            }
            if stopNow { started.signal(SIGKILL) }
            _ = PipeReader(descriptor: started.output, queue: queue) { [weak self] bytes in self?.read(bytes) }
            _ = PipeReader(descriptor: started.errors, queue: queue) { [log] bytes in log.appendErrorOutput(bytes) }
            watchExit(of: started, gone: { [weak self] in self?.state.withLock { $0.run?.keeperGone = true } },
                      exited: { [weak self] status in
                guard let session = self else { return }
                session.queue.async { session.ended(status: status) }
            })
        }
    }

    private func read(_ bytes: [UInt8]) {
        let done = state.withLock { state -> Bool in
            if bytes.isEmpty {
                state.run?.outputEnded = true
            } else if let count = state.run?.output.count, count < Self.outputLimit {
                state.run?.output += bytes.prefix(Self.outputLimit - count)
            }
            return state.run?.outputEnded == true && state.run?.status != nil
        }
        if done { complete() }
    }

    private func ended(status: Int32) {
        let done = state.withLock { state -> Bool in
            state.run?.status = status
            return state.run?.outputEnded == true
        }
        if done { complete() }
    }

    /// A run is over: its output and exit are both in.
    private func complete() {
        let finished = state.withLock { state -> (String, String?)? in
            guard let run = state.run else { return nil }
            state.run = nil
            run.folders?.cancel()
            if state.stopping {
                finish(&state)
                return nil
            }
            let problem: String? = if let reason = run.stopReason {
                "stopped: \(reason)"
            } else if run.timedOut {
                "timed out after \(Supervisor.seconds(period))"
            } else if let status = run.status, status != 0 {
                Supervisor.describe(status)
            } else {
                nil
            }
            return (String(decoding: run.output, as: UTF8.self), problem)
        }
        if let (output, problem) = finished {
            if let problem { log.write("host", problem) }
            show(output: output, problem: problem)
        }
    }

    private func show(output: String, problem: String?) {
        state.withLock { state in
            state.revision += 1
            state.updates.view = ViewUpdate(revision: state.revision, root: state.view.update(output: output, problem: problem))
        }
        notify()
    }

    private func notify() {
        let wake = state.withLock { state -> (@Sendable () -> Void)? in
            guard !state.woken else { return nil }
            state.woken = true
            return state.wake
        }
        wake?()
    }

    private func finish(_ state: inout State) {
        state.finished = true
        let waiting = state.waiting
        state.waiting = []
        waiting.forEach { $0.resume() }
    }
}
