import CSpawn
import FoundationEssentials
import Synchronization

import Threads
#if canImport(Glibc)
import Glibc
#endif

/// A local server started in the background: its own session (so closing the terminal that
/// started it does not hang it up), standard streams on /dev/null (it logs to its file) and no
/// other descriptor of the dashboard's.
///
/// The launcher asks `exitStatus()` while it waits (a non-blocking `waitpid`), then hands the
/// process to `reapInBackground()`, so it never lingers as a zombie once it exits.
final class ServerProcess: Sendable {
    let pid: pid_t
    private let reaped = Mutex(false)

    private init(pid: pid_t) {
        self.pid = pid
    }

    static func spawn(_ command: [String]) throws(BFFAccessError) -> ServerProcess {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, tc_spawn_new_session_flag())
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        // It outlives the dashboard: none of the dashboard's descriptors (a library's socket, an
        // app's pipe being made) may stay open in it.
        tc_spawn_close_from(&actions, 3)

        var arguments: [UnsafeMutablePointer<CChar>?] = command.map { strdup($0) } + [nil]
        defer { arguments.forEach { free($0) } }
        var pid = pid_t()
        let result = posix_spawn(&pid, command[0], &actions, &attributes, &arguments, environ)
        guard result == 0 else { throw .spawnFailed(command[0], errno: result) }
        return ServerProcess(pid: pid)
    }

    /// Its exit status if it has exited (128 + signal when killed), without waiting; nil while it
    /// runs.
    func exitStatus() -> Int32? {
        reaped.withLock { reaped -> Int32? in
            guard !reaped else { return nil }
            var raw: Int32 = 0
            guard waitpid(pid, &raw, WNOHANG) == pid else { return nil }
            reaped = true
            // WIFEXITED / WEXITSTATUS / WTERMSIG are macros Swift does not import.
            let signal = raw & 0x7f
            return signal == 0 ? (raw >> 8) & 0xff : 128 + signal
        }
    }

    /// Waits for it on a thread of its own, unless it was reaped already.
    func reapInBackground() {
        guard !reaped.withLock({ $0 }) else { return }
        DetachedThread.start { [pid] in
            var raw: Int32 = 0
            while waitpid(pid, &raw, 0) < 0 && errno == EINTR {}
        }
    }
}
