import MicroAppProtocol

/// Where a micro-app stands, as its pane shows it.
public enum AppStatus: Hashable, Sendable {
    /// Not started yet: apps start after the dashboard's first frame.
    case waiting
    /// Not started, and not to be until the user presses `r`: why (the last run of the
    /// dashboard ended unexpectedly).
    case paused(String)
    /// The user has not granted what the app asks for. `unsandboxed` says why an app that runs
    /// here would run with all the user's rights (no Landlock); nil when the kernel contains it,
    /// and for a remote app.
    case needsGrant(Permissions, unsandboxed: String?)
    /// The user refused; `y` asks again.
    case refused
    case starting
    case running
    /// It stopped answering (a key without a view within 2 s); it may still recover.
    case notResponding(String)
    /// It exited; it starts again after the delay.
    case restarting(exit: String, afterSeconds: Int)
    /// It will not be started again until the user presses `r`.
    case stopped(String)
}

/// What a micro-app sent since the widget last looked: the newest view only (views are coalesced
/// to one per frame), the publishes let through, what was dropped, the state to keep.
public struct AppUpdates: Sendable {
    public var status: AppStatus?
    public var view: ViewUpdate?
    public var publishes: [Publish] = []
    /// Publishes dropped over the app's rate since the last report.
    public var throttled = 0
    /// Publishes refused since the last look: not declared or granted, or too big (the app's log
    /// says which and why).
    public var refused = 0
    /// Set when the app saved state (or `.null` to clear it).
    public var state: JSONValue?
    /// The exit status of a crash, for `canvas.app.crashed`.
    public var crashes: [String] = []
    /// The protocol's rules it broke since the last look, as its log says them.
    public var ruleBreaks: [String] = []
    /// What it sent that a host lets pass but its author should hear of (a notification no
    /// host knows), as its log says them.
    public var warnings: [String] = []

    public init() {}

    public var isEmpty: Bool {
        status == nil && view == nil && publishes.isEmpty && throttled == 0 && refused == 0 && state == nil && crashes.isEmpty
            && ruleBreaks.isEmpty && warnings.isEmpty
    }
}

/// The widget's side of a running micro-app (a process, a sampled command, later a remote entry):
/// it sends host messages and takes what the app sent. Nothing here blocks.
public protocol MicroAppConnection: AnyObject, Sendable {
    /// Starts the app once the dashboard allows (after its first frame) and the user has granted
    /// its permissions. `wake` runs, from any thread, whenever `takeUpdates()` has something new;
    /// it is not called again until they are taken.
    func start(_ parameters: InitializeParams, wake: @escaping @Sendable () -> Void)
    /// Sends a notification to the app (`key`, `resize`, `focus`, `visible`, `bus.event`,
    /// `input.submit`); dropped while it is not running.
    func send(_ message: HostToApp)
    func takeUpdates() -> AppUpdates
    /// The user granted what the app asks for (`y` in its pane).
    func grant()
    /// The user refused.
    func refuse()
    /// Starts a stopped or hung app afresh (`r`).
    func restart()
    /// Shuts the app down: `shutdown`, then SIGTERM to its group, then SIGKILL.
    func stop()
}
