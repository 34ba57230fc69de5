import AppModel
import CanvasCore
import CanvasStyle
import CanvasUI
import FoundationEssentials
import Logging
import MicroAppHost
import MicroAppProtocol
import Synchronization
import Widgets

/// A micro-app in a pane with no dashboard around it (`termcanvas apps try`): the same widget,
/// runtime and sandbox a dashboard's pane has, driven one step at a time (a key, a canvas event),
/// each step ending once the app has answered. What it drew, published, saved and did against
/// the protocol's rules is kept for each step.
@MainActor
package final class HeadlessPane {
    /// What came of one step.
    package struct Step {
        package var view: [String] = []
        package var published: [Publish] = []
        package var state: JSONValue?
        /// The protocol's rules the app broke, and how it ended if it stopped, crashed or hung.
        package var problems: [String] = []
        /// What it sent that is let pass but was likely a mistake (an unknown notification).
        package var warnings: [String] = []
    }

    package let app: InstalledApp
    package let size: Size
    private var widget: MicroAppWidget
    private let recorder: RecordingConnection
    private let runtime: MicroAppRuntime
    private let folder: URL
    private let wakes = WakeSignal()
    private var sequence = 0

    /// - Parameter folder: Where its log and data folder go for this run (a fresh folder, removed
    ///   after).
    package init(app: InstalledApp, size: Size, settings: WidgetValues = [:], state: JSONValue, environment: [String: String], folder: URL) {
        self.app = app
        self.size = size
        self.folder = folder
        runtime = MicroAppRuntime(environment: environment, logDirectory: folder, dataDirectory: folder, grants: AlreadyGranted(),
                                  backend: nil, logger: Logger(label: "termcanvas.try", factory: { _ in SwiftLogNoOpLogHandler() }))
        recorder = RecordingConnection(runtime.connection(for: app))
        let saved: WidgetValues = state == .null ? [:] : ["app": String(decoding: (try? JSONEncoder().encode(state)) ?? Data(), as: UTF8.self)]
        widget = MicroAppWidget(app: app, connection: recorder, config: settings, state: saved)
    }

    /// The app's log of this run.
    package var log: String { MicroAppRuntime.readLog(of: app.id, in: folder) ?? "" }

    /// Starts the app and waits for its first view, or for it to fail to give one.
    package func start() async throws -> Step {
        widget.resize(to: size)
        widget.focusChanged(to: true)
        _ = try widget.mount(WidgetContext(pane: PaneID(rawValue: 1), bus: EventBus(), clock: CanvasClock(),
                                           logger: Logger(label: "termcanvas.try", factory: { _ in SwiftLogNoOpLogHandler() }),
                                           notify: { [wakes] in wakes.signal() }))
        runtime.begin()
        let limit = Duration.seconds(app.manifest.limits.startupSeconds) + .seconds(1)
        return try await settle(within: limit, quiet: .milliseconds(200)) { $0 > 0 }
    }

    /// Presses `key` in the pane (an `input` node edits, Enter submits it), and waits for the
    /// view that answers it (at most the protocol's 2 s and a little).
    package func press(_ key: Key) async throws -> Step {
        let before = recorder.views
        _ = try widget.handle(.key(key))
        return try await settle(within: .milliseconds(2500), quiet: .milliseconds(100)) { $0 > before }
    }

    /// Whether an `input` node of its view has the keys.
    package var capturesText: Bool { widget.capturesText }

    /// Whether the pane hands the app `name` (it subscribes to it).
    package func hears(_ name: EventName) -> Bool {
        widget.subscriptions.contains { $0.matches(name) }
    }

    /// Hands the app a canvas event, as the bus would, and waits until it is quiet again.
    package func deliver(_ name: EventName, payload: JSONValue) async throws -> Step {
        sequence += 1
        let event = CanvasEvent(sequence: sequence, source: nil, time: Date(),
                                payload: AppEventPublished(eventName: name, app: "try", payload: payload, summary: ""))
        _ = try widget.receive(event)
        return try await settle(within: .seconds(2), quiet: .milliseconds(300), until: nil)
    }

    /// Lets `duration` pass, taking what the app sends meanwhile (a timer's ticks).
    package func wait(_ duration: Duration) async throws -> Step {
        try await settle(within: duration, quiet: duration, until: nil)
    }

    /// Stops the app and waits until its processes are gone, as a dashboard does when it quits.
    /// (Not also by unmounting the widget first: stopping it twice in a row crashed libdispatch's
    /// event loop one run in ten with the pomodoro, a SIGSEGV in `_dispatch_event_loop_drain`.)
    package func stop() async {
        await runtime.stopAll(timeout: 3)
    }

    /// Takes what the app sends until it has answered (`answered` holds for the count of views
    /// it sent; nil: any time) and then been quiet for `quiet`, or until `limit` has passed, or
    /// until it no longer runs; then draws the pane.
    private func settle(within limit: Duration, quiet: Duration, until answered: ((Int) -> Bool)?) async throws -> Step {
        let deadline = ContinuousClock.now + limit
        var step = Step()
        var done = answered == nil
        while true {
            let remaining = ContinuousClock.now.duration(to: deadline)
            guard remaining > .zero else { break }
            // Quiet after the answer, or nothing at all before the deadline: the step is over.
            guard await wakes.wait(upTo: done ? min(quiet, remaining) : remaining) else { break }
            take(into: &step)
            if answered?(recorder.views) ?? true || !isRunning { done = true }
        }
        take(into: &step)
        var buffer = Buffer(size: size)
        widget.render(into: &buffer, theme: .dark, focused: true)
        step.view = buffer.lines
        return step
    }

    /// Whether the app still runs (or is on its way to), so it can be asked more.
    package var isRunning: Bool {
        switch widget.status {
        case .running, .waiting, .starting: true
        default: false
        }
    }

    /// What the app sent since the last look, taken through the widget as a pane takes it.
    private func take(into step: inout Step) {
        _ = try? widget.notified()
        let taken = recorder.takeRecord()
        step.published += taken.published
        if let state = taken.state { step.state = state }
        step.problems += taken.ruleBreaks
        step.warnings += taken.warnings
        switch taken.status {
        case .notResponding(let reason)?: step.problems.append("not responding: \(reason)")
        case .restarting(let exit, _)?: step.problems.append("it ended (\(exit))")
        case .stopped(let reason)?: step.problems.append("it stopped: \(reason)")
        default: break
        }
    }
}

/// `apps try` runs the folder it was given: running it is the grant (what it may touch beyond
/// its folders is `apps try --grant`'s to say).
private struct AlreadyGranted: AppGrants {
    package func isGranted(_ app: InstalledApp) async -> Bool { true }
    package func grant(_ app: InstalledApp) async throws {}
}

/// The app's connection as the widget uses it, with a copy kept of what the widget takes: the
/// publishes, saved state, rule breaks and status of each step, and how many views came.
private final class RecordingConnection: MicroAppConnection {
    package struct Record {
        var published: [Publish] = []
        var state: JSONValue?
        var ruleBreaks: [String] = []
        var warnings: [String] = []
        var status: AppStatus?
    }

    /// At most this many of each kept for one step: an app may flood.
    package static let heldPerStep = 100

    private let inner: any MicroAppConnection
    private let shelf = Mutex((views: 0, record: Record()))

    package init(_ inner: any MicroAppConnection) {
        self.inner = inner
    }

    package var views: Int { shelf.withLock { $0.views } }

    package func takeRecord() -> Record {
        shelf.withLock { shelf in
            defer { shelf.record = Record() }
            return shelf.record
        }
    }

    package func takeUpdates() -> AppUpdates {
        let updates = inner.takeUpdates()
        shelf.withLock { shelf in
            if updates.view != nil { shelf.views += 1 }
            shelf.record.published += updates.publishes.prefix(Self.heldPerStep - shelf.record.published.count)
            if let state = updates.state { shelf.record.state = state }
            shelf.record.ruleBreaks += updates.ruleBreaks.prefix(Self.heldPerStep - shelf.record.ruleBreaks.count)
            shelf.record.warnings += updates.warnings.prefix(Self.heldPerStep - shelf.record.warnings.count)
            if let status = updates.status { shelf.record.status = status }
        }
        return updates
    }

    package func start(_ parameters: InitializeParams, wake: @escaping @Sendable () -> Void) { inner.start(parameters, wake: wake) }
    package func send(_ message: HostToApp) { inner.send(message) }
    package func grant() { inner.grant() }
    package func refuse() { inner.refuse() }
    package func restart() { inner.restart() }
    package func stop() { inner.stop() }
}

/// A wake from any thread, awaited with a time limit.
private final class WakeSignal: Sendable {
    private let state = Mutex((pending: false, waiter: CheckedContinuation<Bool, Never>?.none, turn: 0))

    package func signal() {
        let waiter = state.withLock { state -> CheckedContinuation<Bool, Never>? in
            guard let waiter = state.waiter else {
                state.pending = true
                return nil
            }
            state.waiter = nil
            return waiter
        }
        waiter?.resume(returning: true)
    }

    /// True when woken within `limit` (or before), false when the time ran out.
    package func wait(upTo limit: Duration) async -> Bool {
        await withCheckedContinuation { continuation in
            let turn: Int? = state.withLock { state in
                if state.pending {
                    state.pending = false
                    return nil
                }
                state.turn += 1
                state.waiter = continuation
                return state.turn
            }
            guard let turn else { return continuation.resume(returning: true) }
            Task { [self] in
                try? await Task.sleep(for: limit)
                let timedOut = state.withLock { state -> CheckedContinuation<Bool, Never>? in
                    guard state.turn == turn, let waiter = state.waiter else { return nil }
                    state.waiter = nil
                    return waiter
                }
                timedOut?.resume(returning: false)
            }
        }
    }
}
