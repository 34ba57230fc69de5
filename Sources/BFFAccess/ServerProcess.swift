import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A local server started in the background: its own session (so closing the terminal that
/// started it does not hang it up), standard streams on /dev/null (it logs to its file), and a
/// thread that reaps it when it exits so it never lingers as a zombie.
final class ServerProcess: Sendable {
    private let status = Mutex<Int32?>(nil)

    /// The exit status once it has exited (128 + signal when killed).
    var exitStatus: Int32? { status.withLock { $0 } }

    private init() {}

    /// glibc's `POSIX_SPAWN_SETSID` (0x80, since 2.26), which Swift does not import because it is
    /// declared only under `_GNU_SOURCE`.
    private static let setSessionFlag: Int16 = 0x80

    static func spawn(_ command: [String]) throws(BFFAccessError) -> ServerProcess {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Self.setSessionFlag)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)

        var arguments: [UnsafeMutablePointer<CChar>?] = command.map { strdup($0) } + [nil]
        defer { arguments.forEach { free($0) } }
        var pid = pid_t()
        let result = posix_spawn(&pid, command[0], &actions, &attributes, &arguments, environ)
        guard result == 0 else { throw .spawnFailed(errno: result) }

        let process = ServerProcess()
        Thread.detachNewThread { [pid] in
            var raw: Int32 = 0
            while waitpid(pid, &raw, 0) < 0 && errno == EINTR {}
            // WIFEXITED / WEXITSTATUS / WTERMSIG are macros Swift does not import.
            let signal = raw & 0x7f
            process.status.withLock { $0 = signal == 0 ? (raw >> 8) & 0xff : 128 + signal }
        }
        return process
    }
}
