import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The local BFF that a dashboard under test started by itself.
public enum LocalServerProcess {
    /// The pid of the local server of `runtimeDirectory` (an `XDG_RUNTIME_DIR`) while one runs.
    ///
    /// Its lock file holds its pid; a lock that can be taken means no server holds it (and the pid
    /// in the file may be stale).
    public static func pid(runtimeDirectory: String) -> pid_t? {
        let lock = runtimeDirectory + "/termcanvas/bff.lock"
        let fd = open(lock, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        guard flock(fd, LOCK_SH | LOCK_NB) != 0,
              let text = try? String(contentsOfFile: lock, encoding: .utf8),
              let pid = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)), pid > 0
        else { return nil }
        return pid
    }

    /// Kills it: it runs in a session of its own, so killing the dashboard's terminal does not.
    public static func stop(runtimeDirectory: String) {
        if let pid = pid(runtimeDirectory: runtimeDirectory) { kill(pid, SIGKILL) }
    }
}
