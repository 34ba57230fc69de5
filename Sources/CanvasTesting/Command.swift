import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Runs a program to completion with `posix_spawn` and `waitpid`.
///
/// Foundation's `Process.waitUntilExit` can miss the child's exit when called from a
/// concurrency thread (the child stays a zombie and the call never returns), so tests use this.
public enum Command {
    public struct Result: Sendable {
        public let status: Int32
        public let output: String
    }

    /// Runs `arguments` (looked up on PATH), capturing stdout and stderr together unless
    /// `capturingOutput` is false, in which case they go to /dev/null.
    public static func run(_ arguments: [String], capturingOutput: Bool = true) throws -> Result {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var fds: [Int32] = [-1, -1]
        if capturingOutput {
            guard pipe(&fds) == 0 else { throw POSIXError(.EMFILE) }
            posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
            posix_spawn_file_actions_adddup2(&actions, fds[1], 2)
            posix_spawn_file_actions_addclose(&actions, fds[0])
            posix_spawn_file_actions_addclose(&actions, fds[1])
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        var argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawnp(&pid, arguments[0], &actions, nil, &argv, environ)
        guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .ENOENT) }
        var output = Data()
        if capturingOutput {
            close(fds[1])
            var chunk = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = read(fds[0], &chunk, chunk.count)
                if count < 0, errno == EINTR { continue }
                if count <= 0 { break }
                output.append(contentsOf: chunk[..<count])
            }
            close(fds[0])
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        let exitCode = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return Result(status: exitCode, output: String(decoding: output, as: UTF8.self))
    }
}
