import AppModel
import FoundationEssentials
import MicroAppProtocol
import Synchronization

/// Keeps what the user granted each app, by manifest digest: a changed manifest asks again.
public protocol AppGrants: Sendable {
    func isGranted(_ app: InstalledApp) async -> Bool
    func grant(_ app: InstalledApp) async throws
}

/// A pane's micro-app as its widget sees it: it waits for the dashboard's first frame, asks for
/// the user's grant when it has none, then hands over to the engine that runs it.
final class ManagedApp: MicroAppConnection {
    private enum Phase {
        case created
        /// Started by its widget, waiting for the dashboard to begin.
        case pending
        /// Held before its start until the user asks for it (`r`).
        case paused
        case checking
        case asking
        case refused
        case running
        case stopped
    }

    private struct State {
        var phase = Phase.created
        var parameters: InitializeParams?
        var wake: (@Sendable () -> Void)?
        var status: AppStatus?
        /// Its engine was started, so stopping it must be waited for.
        var engineStarted = false
    }

    let app: InstalledApp
    private let engine: any AppEngine
    private let grants: any AppGrants
    private let state = Mutex(State())
    /// Told when the app may start (the runtime has begun), and when it is gone.
    private let runtime: any RuntimeLink

    init(app: InstalledApp, engine: any AppEngine, grants: any AppGrants, runtime: any RuntimeLink) {
        self.app = app
        self.engine = engine
        self.grants = grants
        self.runtime = runtime
    }

    func start(_ parameters: InitializeParams, wake: @escaping @Sendable () -> Void) {
        state.withLock { state in
            guard state.phase == .created else { return }
            state.parameters = parameters
            state.wake = wake
            state.phase = .pending
        }
        runtime.register(self)
    }

    /// The dashboard's first frame is out: check the grant and run.
    func begin() {
        guard state.withLock({ state in
            guard state.phase == .pending || state.phase == .paused else { return false }
            state.phase = .checking
            return true
        }) else { return }
        Task {
            let granted = await grants.isGranted(app)
            if granted { run() } else { ask() }
        }
    }

    /// Sends a message to the running app. Before it runs, what the pane tells of itself (its
    /// size, focus, visibility, settings) and the last canvas event of each name are kept for its
    /// `initialize`, and the rest is dropped.
    func send(_ message: HostToApp) {
        let running = state.withLock { state in
            guard state.phase != .running else { return true }
            switch message {
            case .resize(let size): state.parameters?.size = size
            case .focus(let focused): state.parameters?.focused = focused
            case .visible(let visible): state.parameters?.visible = visible
            case .busEvent(let event): state.parameters?.remember(event)
            case .settings(let settings): state.parameters?.settings = settings
            default: break
            }
            return false
        }
        if running { engine.send(message) }
    }

    func takeUpdates() -> AppUpdates {
        var updates = engine.takeUpdates()
        state.withLock { state in
            if let status = state.status, updates.status == nil { updates.status = status }
            state.status = nil
        }
        return updates
    }

    func grant() {
        guard state.withLock({ $0.phase == .asking || $0.phase == .refused }) else { return }
        Task {
            do {
                try await grants.grant(app)
            } catch {
                runtime.report("could not keep the grant of \(app.id): \(error)")
            }
            run()
        }
    }

    func refuse() {
        guard state.withLock({ $0.phase == .asking }) else { return }
        report(.refused, phase: .refused)
    }

    /// Restarts a running app; starts a paused one.
    func restart() {
        switch state.withLock({ $0.phase }) {
        case .running: engine.restart()
        case .paused: begin()
        default: break
        }
    }

    /// Holds the app before its start, saying why, until `restart()`.
    func pause(_ reason: String) {
        guard state.withLock({ $0.phase == .pending }) else { return }
        report(.paused(reason), phase: .paused)
    }

    func stop() {
        let wasRunning = state.withLock { state in
            defer { state.phase = .stopped }
            return state.phase == .running
        }
        guard wasRunning else {
            runtime.unregister(self)
            return
        }
        engine.stop()
        Task {
            await engine.finished()
            runtime.unregister(self)
        }
    }

    /// Waits until nothing of the app runs.
    func finished() async {
        guard state.withLock({ $0.engineStarted }) else { return }
        await engine.finished()
    }

    /// Starts the engine under the lock, so that no size `send` keeps for `initialize` can slip
    /// between reading the parameters and the engine having them.
    private func run() {
        state.withLock { state in
            guard state.phase == .checking || state.phase == .asking || state.phase == .refused,
                  var parameters = state.parameters, let wake = state.wake else { return }
            state.phase = .running
            state.engineStarted = true
            parameters.permissions = app.manifest.requested
            engine.start(parameters, wake: wake)
        }
    }

    private func ask() {
        report(.needsGrant(app.manifest.requested, unsandboxed: app.isRemote ? nil : SandboxSupport.current.warning), phase: .asking)
    }

    private func report(_ status: AppStatus, phase: Phase) {
        let wake = state.withLock { state -> (@Sendable () -> Void)? in
            guard state.phase != .stopped else { return nil }
            state.phase = phase
            state.status = status
            return state.wake
        }
        wake?()
    }
}

/// What a managed app tells its runtime; a protocol so the app needs no main-actor hop.
protocol RuntimeLink: Sendable {
    func register(_ app: ManagedApp)
    func unregister(_ app: ManagedApp)
    func report(_ problem: String)
}
