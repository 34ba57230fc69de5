import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A home of its own for one test's programs: `HOME` and the XDG folders inside a private
/// temporary folder, so logs and data never touch the developer's own. `remove()` stops what still
/// runs there (the program, the local server it started, its apps) and deletes the folder; what a
/// test did not remove is removed when the test process exits, so a run leaves neither folders nor
/// servers behind.
public struct TestHome: Sendable {
    public let url: URL

    public init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("tc-home-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        Self.leftAtExit.withLock { homes in
            if homes == nil { atexit { TestHome.removeAllLeft() } }
            homes = (homes ?? []).union([url])
        }
    }

    /// `HOME` and the XDG folders in it; the dashboard logs at trace level, for failures' messages.
    public var environment: [String: String] {
        ["HOME": url.path, "XDG_DATA_HOME": url.path + "/data", "XDG_STATE_HOME": url.path + "/state",
         "XDG_CONFIG_HOME": url.path + "/config", "XDG_RUNTIME_DIR": runtimeDirectory, "TERMCANVAS_LOG_LEVEL": "trace"]
    }

    public var runtimeDirectory: String { url.path + "/run" }

    /// Stops the local server started here and deletes the folder; a second call does nothing.
    public func remove() {
        Self.remove(url)
        _ = Self.leftAtExit.withLock { $0?.remove(url) }
    }

    /// The homes not yet removed; nil until the first is made (and the exit handler registered).
    private static let leftAtExit = Mutex<Set<URL>?>(nil)

    /// Stops every process still running in the home, then deletes it. Processes are found by
    /// their environment, not by a pid file: a local server a dashboard was still starting has no
    /// lock yet, and would make the folders again after they were gone.
    private static func remove(_ url: URL) {
        let entry = Array("HOME=\(url.path)".utf8)
        for _ in 0..<50 {
            let running = processes { environment in environment.split(separator: 0).contains { $0.elementsEqual(entry) } }
            if running.isEmpty { break }
            for pid in running { kill(pid, SIGKILL) }
            usleep(20_000)
        }
        try? FileManager.default.removeItem(at: url)
    }

    /// This user's processes whose environment (`/proc/PID/environ`, NUL-separated) matches.
    private static func processes(where matches: ([UInt8]) -> Bool) -> [pid_t] {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return [] }
        return entries.compactMap { name in
            guard let pid = pid_t(name), pid != getpid(),
                  let environment = FileManager.default.contents(atPath: "/proc/\(name)/environ"), matches(Array(environment))
            else { return nil }
            return pid
        }
    }

    private static func removeAllLeft() {
        for url in leftAtExit.withLock({ $0 ?? [] }) { remove(url) }
    }
}
