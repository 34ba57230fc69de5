import CSpawn
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Runs programs with `posix_spawn` and `waitpid`.
///
/// Foundation's `Process.waitUntilExit` can miss the child's exit when called from a
/// concurrency thread (the child stays a zombie and the call never returns), so tests use this.
///
/// The async calls wait on a thread of their own: a test blocked in `waitpid` or `read` on one of
/// Swift's few cooperative threads starves every other test in the process (timing tests of the
/// HTTP client saw seconds of delay while end-to-end tests ran tmux and curl).
public enum Command {
    public struct Result: Sendable {
        public let status: Int32
        public let output: String
    }

    /// Runs `arguments` (looked up on PATH) to completion, capturing stdout and stderr together
    /// unless `capturingOutput` is false, in which case they go to /dev/null.
    /// - Parameter environment: variables to set on top of this process's environment.
    /// - Parameter input: text for standard input (otherwise /dev/null).
    public static func run(
        _ arguments: [String], environment: [String: String] = [:], input: String? = nil, capturingOutput: Bool = true
    ) async throws -> Result {
        try await offThePool { try runBlocking(arguments, environment: environment, input: input, capturingOutput: capturingOutput) }
    }

    /// `run` for places that cannot await (a `deinit`); never from an async test.
    public static func runBlocking(
        _ arguments: [String], environment: [String: String] = [:], input: String? = nil, capturingOutput: Bool = true
    ) throws -> Result {
        var inputFile: URL?
        if let input {
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("tc-input-\(UUID().uuidString)")
            try Data(input.utf8).write(to: file)
            inputFile = file
        }
        defer { inputFile.map { try? FileManager.default.removeItem(at: $0) } }
        var fds: [Int32] = [-1, -1]
        if capturingOutput, tc_pipe(&fds) != 0 { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EMFILE) }
        defer { fds.filter { $0 >= 0 }.forEach { close($0) } }
        let pid = try spawn(arguments, environment: environment, input: inputFile?.path, output: capturingOutput ? fds : nil)
        var output = Data()
        if capturingOutput {
            close(fds[1])
            fds[1] = -1
            var chunk = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = read(fds[0], &chunk, chunk.count)
                if count < 0, errno == EINTR { continue }
                if count <= 0 { break }
                output.append(contentsOf: chunk[..<count])
            }
        }
        return Result(status: waitForExitBlocking(pid), output: String(decoding: output, as: UTF8.self))
    }

    /// Runs `body` on a new thread and returns its result.
    private static func offThePool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread { continuation.resume(with: Swift.Result { try body() }) }
        }
    }

    /// Starts a program with its output discarded, or appended to the file `log` (made 0600), and
    /// returns its process id.
    public static func start(_ arguments: [String], environment: [String: String] = [:], log: String? = nil) throws -> pid_t {
        try spawn(arguments, environment: environment, input: nil, output: nil, log: log)
    }

    /// Whether a process started here has ended (it is reaped then); false while it runs.
    public static func hasEnded(_ pid: pid_t) -> Bool {
        var status: Int32 = 0
        return waitpid(pid, &status, WNOHANG) == pid
    }

    /// Kills a process started here with SIGKILL and reaps it, so what it held (a port) is free.
    public static func kill(_ pid: pid_t) {
        guard Glibc.kill(pid, SIGKILL) == 0 else { return }
        _ = waitForExitBlocking(pid)
    }

    /// Waits until a server a test started answers `url` with a success (curl's `-f`), over
    /// `unixSocket` when given: it listens by then.
    public static func waitUntilAnswering(_ url: String, unixSocket: String? = nil, within limit: Duration = .seconds(10)) async throws {
        let socket = unixSocket.map { ["--unix-socket", $0] } ?? []
        try await eventually("an answer from \(url)", within: limit, every: .milliseconds(50)) {
            try await run(["curl", "-sf", "-o", "/dev/null"] + socket + [url], capturingOutput: false).status == 0
        }
    }

    /// Waits for a process started here; returns its exit status, or 128 + the signal that ended it.
    public static func waitForExit(_ pid: pid_t) async -> Int32 {
        (try? await offThePool { waitForExitBlocking(pid) }) ?? -1
    }

    private static func waitForExitBlocking(_ pid: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        return (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    }

    private static func spawn(
        _ arguments: [String], environment: [String: String], input: String?, output: [Int32]?, log: String? = nil
    ) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let output {
            posix_spawn_file_actions_adddup2(&actions, output[1], 1)
            posix_spawn_file_actions_adddup2(&actions, output[1], 2)
        } else if let log {
            posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_APPEND, 0o600)
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        }
        posix_spawn_file_actions_addopen(&actions, 0, input ?? "/dev/null", O_RDONLY, 0)
        // Nothing else of this process: a `tmux` server that kept another test's output pipe open
        // would leave that test reading until the server exits (seen: end-to-end tests hung).
        tc_spawn_close_from(&actions, 3)
        var merged = ProcessInfo.processInfo.environment
        merged.merge(environment) { $1 }
        var envp = merged.map { strdup("\($0.key)=\($0.value)") } + [nil]
        var argv = arguments.map { strdup($0) } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // Every signal at its default and none blocked, whatever the spawning thread had: a
        // thread of a pool blocks signals, and a child would keep the mask, so a server a test
        // ends with SIGTERM outlived the test (an identity provider was left running).
        var noSignals = sigset_t()
        var everySignal = sigset_t()
        sigemptyset(&noSignals)
        sigfillset(&everySignal)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &everySignal)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var pid: pid_t = 0
        let spawned = posix_spawnp(&pid, arguments[0], &actions, &attributes, &argv, &envp)
        guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .ENOENT) }
        return pid
    }
}
