import CAppProcess
import CSpawn
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import PrivateFiles
import Synchronization
import Dispatch
import Threads

/// Starts micro-app processes, each under its keeper (see `tc_spawn_app`), on one thread that
/// lives as long as the dashboard.
///
/// Each keeper is told to end its app with the thread that forked it (`PR_SET_PDEATHSIG`), so
/// that thread must never end; and a fork costs the main thread a millisecond it should spend on keys.
final class Spawner: Sendable {
    struct Started: Sendable {
        /// The process to wait for and to signal the app through (`signal(_:)`).
        let keeper: pid_t
        /// The app's own process, for the log.
        let app: pid_t
        /// The app's standard input, output and error, our ends.
        let input: Int32
        let output: Int32
        let errors: Int32
        /// The run's own `TMPDIR`, removed once the app and all it started have exited.
        let temporaryFolder: String
        /// What was started.
        let launch: AppLaunch
    }

    static let shared = Spawner()

    private let requests = Mutex<[@Sendable () -> Void]>([])
    private let ready = DispatchSemaphore(value: 0)

    private init() {
        // A write to an app that has exited must fail with EPIPE, not kill the dashboard.
        signal(SIGPIPE, SIG_IGN)
        DetachedThread.start { [self] in
            while true {
                ready.wait()
                let work = requests.withLock { $0.isEmpty ? nil : $0.removeFirst() }
                work?()
            }
        }
    }

    /// Compiles the seccomp filters and finds what the kernel gives apps (a namespace probe,
    /// 0.5 ms) now, on the spawner thread, so that neither the first app's start nor the first
    /// grant prompt waits for them.
    func prepareSandbox() {
        requests.withLock {
            $0.append {
                PreparedSandbox.compileFilters()
                _ = SandboxSupport.current
            }
        }
        ready.signal()
    }

    /// Makes the launch `recipe` says (finding the program may ask a version manager, a
    /// process of its own) and starts it with its standard streams on new pipes, on the spawner
    /// thread: never on the caller's, which may be the one drawing the screen. `done` runs there too.
    func spawn(_ recipe: LaunchRecipe, done: @escaping @Sendable (Result<Started, LaunchError>) -> Void) {
        requests.withLock {
            $0.append {
                do throws(LaunchError) {
                    done(Self.start(try recipe.make()))
                } catch {
                    done(.failure(error))
                }
            }
        }
        ready.signal()
    }

    private static func start(_ launch: AppLaunch) -> Result<Started, LaunchError> {
        RunFolders.removeAbandoned(in: launch.temporaryBase)
        let folders: RunFolders
        do {
            folders = try RunFolders(launch)
        } catch {
            return .failure(error)
        }
        let started = start(launch, in: folders)
        if case .failure = started { folders.remove() }
        return started
    }

    private static func start(_ launch: AppLaunch, in folders: RunFolders) -> Result<Started, LaunchError> {
        var sandbox: PreparedSandbox
        do {
            sandbox = try PreparedSandbox(launch.sandbox.adding(temporary: folders.temporaryReal, bytes: launch.limits.diskBytes,
                                                                madeInside: folders.madeInside, data: folders.data))
        } catch {
            return .failure(error)
        }
        defer { sandbox.close() }
        var input: [Int32] = [0, 0], output: [Int32] = [0, 0], errors: [Int32] = [0, 0]
        guard tc_pipe(&input) == 0 else { return .failure(.failed(step: "pipe", errno: errno)) }
        guard tc_pipe(&output) == 0 else {
            closeAll(input)
            return .failure(.failed(step: "pipe", errno: errno))
        }
        guard tc_pipe(&errors) == 0 else {
            closeAll(input + output)
            return .failure(.failed(step: "pipe", errno: errno))
        }
        var arguments: [UnsafeMutablePointer<CChar>?] = launch.arguments.map { strdup($0) } + [nil]
        let environmentLines = launch.environment.merging(folders.environment) { $1 }.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        var environment: [UnsafeMutablePointer<CChar>?] = environmentLines.map { strdup($0) } + [nil]
        defer {
            arguments.forEach { free($0) }
            environment.forEach { free($0) }
        }
        let limits = tc_app_limits(data_bytes: UInt64(launch.limits.memoryBytes), open_files: UInt64(launch.limits.openFiles),
                                   cpu_seconds: UInt64(launch.limits.cpuSeconds ?? 0), processes: UInt64(launch.limits.processes),
                                   file_bytes: UInt64(launch.limits.diskBytes))
        var keeper: pid_t = 0
        var app: pid_t = 0
        var stage: Int32 = 0
        var detail: Int32 = -1
        let result = tc_spawn_app(launch.program, &arguments, &environment, launch.directory,
                                  input[0], output[1], errors[1], limits, &sandbox.settings, &keeper, &app, &stage, &detail)
        closeAll([input[0], output[1], errors[1]])
        guard result == 0 else {
            closeAll([input[1], output[0], errors[0]])
            return .failure(.failed(step: Self.step(stage, launch, view: sandbox.viewPath(detail)), errno: result))
        }
        tc_track_keeper(keeper)
        for descriptor in [input[1], output[0], errors[0]] {
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        }
        return .success(Started(keeper: keeper, app: app, input: input[1], output: output[0], errors: errors[0],
                                temporaryFolder: folders.temporary, launch: launch))
    }

    private static func step(_ stage: Int32, _ launch: AppLaunch, view: String?) -> String {
        switch stage {
        case TC_SPAWN_WORLD: "its namespaces"
        case TC_SPAWN_VIEW: view.map { "its sandbox (making \($0) visible in it)" } ?? "its sandbox's folders"
        case TC_SPAWN_SESSION: "setsid"
        case TC_SPAWN_STREAMS: "standard streams"
        case TC_SPAWN_DIRECTORY: "working directory \(launch.directory)"
        case TC_SPAWN_LIMITS: "resource limits"
        case TC_SPAWN_EXEC: launch.program
        case TC_SPAWN_KEEPER: "its keeper process"
        case TC_SPAWN_SANDBOX: "its sandbox"
        default: "fork"
        }
    }

    private static func closeAll(_ descriptors: [Int32]) {
        for descriptor in descriptors { close(descriptor) }
    }
}

extension Spawner.Started {
    /// Has the keeper send `signal` to the app's process group. Only while the keeper is not
    /// reaped (`watchExit`'s `gone` has not run), or the id could be a stranger's.
    func signal(_ signal: Int32) {
        _ = tc_signal_app(keeper, signal)
    }
}

/// Waits for an app's keeper to exit — after the app, and everything the app started, ended —
/// on a thread of its own (a blocking `waitid`); runs `gone` while the keeper still holds its
/// id (so nothing can signal a stranger that took it), removes the run's temporary folder, then
/// reaps the keeper and reports the app's status.
func watchExit(of started: Spawner.Started, gone: @escaping @Sendable () -> Void, exited: @escaping @Sendable (Int32) -> Void) {
    let keeper = started.keeper, temporaryFolder = started.temporaryFolder
    // Room for FileManager's removal of whatever tree the app left in its temporary folder.
    DetachedThread.start(stackSize: 512 * 1024) {
        tc_await_exit(keeper)
        tc_untrack_keeper(keeper)
        gone()
        try? FileManager.default.removeItem(atPath: temporaryFolder)
        exited(tc_reap_app(keeper))
    }
}

/// A run's own folders: its temporary folder (`TMPDIR`, private, removed when it ends) and its data
/// folder (kept); a trial run's HOME and data folder are inside its temporary folder.
private struct RunFolders {
    let temporary: String
    let environment: [String: String]
    /// Its temporary folder, its data folder (kept; nil for a trial run) and the folders made in
    /// its temporary folder, as real paths, for its sandbox.
    let temporaryReal: String
    let data: String?
    let madeInside: [String]

    /// Temporary folders are named after the dashboard that made them, so that those of one that
    /// died (`kill -9`: nobody removed them) can be told from a running one's.
    private static let prefix = "termcanvas-app-"
    private static let swept = Mutex<Set<String>>([])

    init(_ launch: AppLaunch) throws(LaunchError) {
        var template = Array("\(launch.temporaryBase)/\(Self.prefix)\(getpid())-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw .failed(step: "its temporary folder in \(launch.temporaryBase) (TMPDIR)", errno: errno) }
        temporary = String(cString: made)
        var environment = ["TMPDIR": temporary]
        var inside: [String] = []
        do {
            if let data = launch.dataFolder {
                try PrivatePath.makeDirectory(data)
            } else {
                for (variable, name) in [("HOME", "home"), (AppLaunch.dataVariable, "data")] {
                    let folder = URL(fileURLWithPath: temporary).appendingPathComponent(name)
                    try PrivatePath.makeDirectory(folder)
                    environment[variable] = folder.path
                    inside.append(folder.path)
                }
            }
        } catch {
            try? FileManager.default.removeItem(atPath: temporary)
            throw .failed(step: "its folder \(error.path)", errno: error.errno)
        }
        self.environment = environment
        let real = ProgramLookup.realPath(temporary) ?? temporary, named = temporary.count
        temporaryReal = real
        madeInside = inside.map { real + $0.dropFirst(named) }
        data = launch.dataFolder.map { ProgramLookup.realPath($0.path) ?? $0.path }
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: temporary)
    }

    /// Removes, once per folder and process, the temporary folders of dashboards no longer running.
    static func removeAbandoned(in base: String) {
        guard swept.withLock({ $0.insert(base).inserted }) else { return }
        for name in (try? FileManager.default.contentsOfDirectory(atPath: base)) ?? [] where name.hasPrefix(prefix) {
            guard let owner = name.dropFirst(prefix.count).split(separator: "-").first.flatMap({ pid_t($0) }), owner > 0,
                  kill(owner, 0) != 0, errno == ESRCH else { continue }
            let path = "\(base)/\(name)"
            var info = stat()
            // Only the user's own: another user's folder in a shared /tmp is not ours to remove.
            if lstat(path, &info) == 0, info.st_uid == getuid(), (info.st_mode & S_IFMT) == S_IFDIR {
                try? FileManager.default.removeItem(atPath: path)
            }
        }
    }
}
