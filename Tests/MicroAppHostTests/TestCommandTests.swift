import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// The programs tests start (servers, providers, databases) must end when a test signals them,
/// whatever the thread that started them blocked.
@Suite("Programs a test starts")
struct TestCommandTests {
    /// The signals a process blocks, or ignores, as `/proc` says (a hexadecimal mask).
    static func signalMask(_ field: String, of pid: pid_t) throws -> UInt64 {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        let line = status.split(separator: "\n").first { $0.hasPrefix(field + ":") }
        return try #require(line.flatMap { UInt64($0.dropFirst(field.count + 1).trimmingCharacters(in: .whitespaces), radix: 16) })
    }

    @Test func startWithNoSignalBlockedEvenFromAThreadThatBlocksThem() async throws {
        // A thread of a pool (dispatch's, NIO's) blocks signals; a child keeps the spawner's mask.
        let pid = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<pid_t, any Error>) in
            Thread.detachNewThread {
                var all = sigset_t()
                sigfillset(&all)
                pthread_sigmask(SIG_BLOCK, &all, nil)
                // Long: on a busy pass the test may wait half a minute for its thread after this.
                continuation.resume(with: Result { try Command.start(["sleep", "600"]) })
            }
        }
        defer { kill(pid, SIGKILL) }
        // The signals that end a program (glibc keeps its own internal ones ignored).
        let ending = [SIGTERM, SIGINT, SIGHUP, SIGQUIT].reduce(UInt64(0)) { $0 | 1 << UInt64($1 - 1) }
        let blocked = try Self.signalMask("SigBlk", of: pid), ignored = try Self.signalMask("SigIgn", of: pid)
        #expect(blocked & ending == 0, "blocked: \(String(blocked, radix: 16))")
        #expect(ignored & ending == 0, "ignored: \(String(ignored, radix: 16))")
        kill(pid, SIGTERM)
        #expect(await Command.waitForExit(pid) == 128 + SIGTERM)
    }
}
