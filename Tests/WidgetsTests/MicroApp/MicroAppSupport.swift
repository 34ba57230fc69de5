import AppModel
import CanvasCore
import CanvasUI
import Foundation
import MicroAppProtocol
import Synchronization
import Widgets

/// A connection that hands the widget what a test puts in it, and records what the widget sends.
final class RecordingConnection: MicroAppConnection {
    private let state = Mutex<(pending: AppUpdates, sent: [HostToApp], calls: [String], started: InitializeParams?)>((AppUpdates(), [], [], nil))

    func deliver(_ change: (inout AppUpdates) -> Void) {
        state.withLock { change(&$0.pending) }
    }

    var sent: [HostToApp] { state.withLock { $0.sent } }
    var calls: [String] { state.withLock { $0.calls } }

    /// What the widget started the app with.
    var started: InitializeParams? { state.withLock { $0.started } }

    func start(_ parameters: InitializeParams, wake: @escaping @Sendable () -> Void) {
        state.withLock { $0.started = parameters }
        record("start")
    }
    func send(_ message: HostToApp) { state.withLock { $0.sent.append(message) } }
    func takeUpdates() -> AppUpdates {
        state.withLock { state in
            defer { state.pending = AppUpdates() }
            return state.pending
        }
    }
    func grant() { record("grant") }
    func refuse() { record("refuse") }
    func restart() { record("restart") }
    func stop() { record("stop") }

    private func record(_ call: String) { state.withLock { $0.calls.append(call) } }
}

let testApp = InstalledApp(
    manifest: AppManifest(id: "probe", name: "Probe", version: "1.0.0", exec: ["true"], publishes: ["probe.thing.done"],
                          subscribes: ["calendar.*"], minimumSize: ViewSize(width: 1, height: 1)),
    folder: URL(fileURLWithPath: "/nonexistent"), digest: "0", isShipped: false)

/// A mounted micro-app widget on its own bus, running, showing `root`.
@MainActor
func appWidget(showing root: ViewNode? = nil, connection: RecordingConnection = RecordingConnection(),
               bus: EventBus = EventBus(now: Fixed.clock.now)) throws -> MicroAppWidget {
    var widget = MicroAppWidget(app: testApp, connection: connection)
    _ = try widget.mount(context(bus: bus))
    connection.deliver { updates in
        updates.status = .running
        if let root { updates.view = ViewUpdate(revision: 1, root: root) }
    }
    _ = try widget.notified()
    return widget
}

/// The lines a view draws in a pane inside of `width`×`height`.
@MainActor
func drawn(_ root: ViewNode, _ width: Int, _ height: Int, focused: Bool = true) throws -> [String] {
    render(try appWidget(showing: root), size: Size(width: width, height: height), focused: focused).lines
}
