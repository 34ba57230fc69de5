import AppModel
import FoundationEssentials
import Logging
import MicroAppProtocol
import Synchronization

/// Runs the dashboard's micro-apps: makes each pane's connection, starts them all once the first
/// frame is out, and stops every one (and waits for it) when the dashboard closes.
public final class MicroAppRuntime: Sendable {
    private struct State {
        var begun = false
        var live: [ObjectIdentifier: ManagedApp] = [:]
        /// Whether the sandbox's filters were asked for: by the first pane of an app that runs here.
        var sandboxPrepared = false
    }

    private let environment: [String: String]
    private let logDirectory: URL
    private let dataDirectory: URL
    private let grants: any AppGrants
    private let backend: (any AppBackend)?
    private let remote: (any RemoteAppTransport)?
    private let logger: Logger
    private let state = Mutex(State())

    /// - Parameters:
    ///   - environment: The dashboard's; each app sees only the basic variables and those its
    ///     manifest names.
    ///   - logDirectory: Where each app's log goes (`ID.log`).
    ///   - dataDirectory: Where each app's private data folder is (`ID/`).
    ///   - remote: How remote apps' sessions are reached (the server's proxy); nil runs none.
    public init(environment: [String: String], logDirectory: URL, dataDirectory: URL, grants: any AppGrants,
                backend: (any AppBackend)?, remote: (any RemoteAppTransport)? = nil, logger: Logger) {
        self.environment = environment
        self.logDirectory = logDirectory
        self.dataDirectory = dataDirectory
        self.grants = grants
        self.backend = backend
        self.remote = remote
        self.logger = logger
    }

    /// A new connection for a pane showing `app`; nothing runs until the widget starts it and
    /// the runtime has begun.
    public func connection(for app: InstalledApp) -> any MicroAppConnection {
        let manifest = app.manifest
        let log = AppLog(url: Self.logFile(of: app.id, in: logDirectory), limit: manifest.limits.logBytes)
        let engine: any AppEngine
        if app.isRemote {
            engine = SupervisedSession.remote(appID: app.id, transport: remote ?? NoRemote(), permissions: manifest.requested,
                                              limits: manifest.limits, log: log, backend: backend)
        } else {
            // A layout without such apps (the default) never pays for the filters; one with them
            // has them compiled while its first frame is drawn, before its apps start.
            if state.withLock({ state in defer { state.sandboxPrepared = true }; return !state.sandboxPrepared }) {
                Spawner.shared.prepareSandbox()
            }
            let recipe = LaunchRecipe(manifest: manifest, folder: app.folder, hostEnvironment: environment,
                                      extra: ["TERMCANVAS_APP_ID": app.id, "TERMCANVAS_PROTOCOL": ProtocolVersion.current.description],
                                      grant: SandboxGrant(access: manifest.machine, dataFolder: dataDirectory.appendingPathComponent(app.id)))
            engine = if let sample = manifest.sample {
                SampleSession(appID: app.id, recipe: recipe, sample: sample, log: log)
            } else {
                SupervisedSession.process(appID: app.id, recipe: recipe, permissions: manifest.requested, limits: manifest.limits,
                                          log: log, backend: backend)
            }
        }
        return ManagedApp(app: app, engine: engine, grants: grants, runtime: Link(runtime: self))
    }

    /// Starts every app started so far, and any started from now on: call once the dashboard's
    /// first frame is out. With `pausing`, the apps started so far (the starting layout's) are
    /// held instead, showing why, until the user starts each (`r`); later ones start as usual.
    public func begin(pausing reason: String? = nil) {
        let pending = state.withLock { state in
            state.begun = true
            return Array(state.live.values)
        }
        for app in pending {
            if let reason { app.pause(reason) } else { app.begin() }
        }
    }

    /// Writes a line from the dashboard itself into an app's log (`termcanvas apps log ID`).
    public func log(_ line: String, forApp id: String, limit: Int = AppManifest.Limits().logBytes) {
        AppLog(url: Self.logFile(of: id, in: logDirectory), limit: limit).write("host", line)
    }

    /// Stops every app and waits until none runs, at most `timeout` seconds.
    public func stopAll(timeout: Double = 1.5) async {
        let apps = state.withLock { state in
            state.begun = false
            return Array(state.live.values)
        }
        apps.forEach { $0.stop() }
        // Unstructured: waiting for an app cannot be cancelled, and the timeout must end the wait.
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let done = ResumeOnce(continuation)
            Task {
                for app in apps { await app.finished() }
                done.resume()
            }
            Task {
                try? await Task.sleep(for: .seconds(timeout))
                done.resume()
            }
        }
    }

    /// The log file of an app.
    public static func logFile(of id: String, in directory: URL) -> URL {
        directory.appendingPathComponent("\(id).log")
    }

    /// An app's log, the older file first; nil when it has none.
    public static func readLog(of id: String, in directory: URL) -> String? {
        AppLog.read(logFile(of: id, in: directory))
    }

    private struct Link: RuntimeLink {
        let runtime: MicroAppRuntime

        func register(_ app: ManagedApp) {
            let begun = runtime.state.withLock { state in
                state.live[ObjectIdentifier(app)] = app
                return state.begun
            }
            if begun { app.begin() }
        }

        func unregister(_ app: ManagedApp) {
            _ = runtime.state.withLock { $0.live.removeValue(forKey: ObjectIdentifier(app)) }
        }

        func report(_ problem: String) {
            runtime.logger.error("\(problem)")
        }
    }
}

/// Where no server is connected: every session fails to open.
private struct NoRemote: RemoteAppTransport {
    func open(app: String, initialize: [UInt8]) async throws(RemoteAppFailure) -> (session: String, answer: [UInt8]) {
        throw RemoteAppFailure("no micro-app server")
    }

    func lines(app: String, session: String) -> AsyncStream<RemoteLine> { AsyncStream { $0.finish() } }
    func send(app: String, session: String, line: [UInt8]) async throws(RemoteAppFailure) {}
    func close(app: String, session: String) async {}
}

/// Resumes a continuation the first time it is asked to, from any thread.
private final class ResumeOnce: Sendable {
    private let continuation: Mutex<CheckedContinuation<Void, Never>?>

    init(_ continuation: CheckedContinuation<Void, Never>) {
        self.continuation = Mutex(continuation)
    }

    func resume() {
        continuation.withLock { $0.take() }?.resume()
    }
}
