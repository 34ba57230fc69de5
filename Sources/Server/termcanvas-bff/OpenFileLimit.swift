#if canImport(Glibc)
import Glibc
#endif

/// The process's limit of open files, which bounds the connections a server can hold: each is a
/// file descriptor, and so is each database connection and log file.
enum OpenFileLimit {
    /// Descriptors kept for everything but client connections (database, logs, the listener).
    static let reserve = 64

    /// Raises the soft limit to the hard one (many systems start services at 1024) and returns
    /// how many connections fit under it.
    static func connectionsThatFit() -> Int {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 1024 - reserve }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &raised) == 0 { limit = raised }
        }
        // RLIM_INFINITY is the largest value: the minimum takes care of it.
        return max(1, Int(min(UInt64(limit.rlim_cur), UInt64(Int32.max))) - reserve)
    }
}
