import CSpawn
import Dispatch
import Foundation
@testable import MicroAppHost
import Synchronization
import Testing

/// The apps' pipes are read and written through `PipePoller` (poll on a thread of its own), not
/// libdispatch's sources, whose epoll loop crashed as pipes came and went.
struct PipePollerTests {
    /// A pipe, both ends non-blocking and close-on-exec, as the apps' pipes are: a program another
    /// test starts meanwhile must not hold it (it did: a churn test waited for ends of streams held
    /// open elsewhere, and the whole pass hung).
    static func pipeEnds() throws -> [Int32] {
        var ends: [Int32] = [0, 0]
        try #require(tc_pipe(&ends) == 0)
        for end in ends { _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK) }
        return ends
    }

    /// Reads every chunk until the end; the total, once the end came.
    static func readAll(_ descriptor: Int32, queue: DispatchQueue) async -> Int {
        let (stream, continuation) = AsyncStream<Int>.makeStream()
        let total = Mutex(0)
        _ = PipeReader(descriptor: descriptor, queue: queue) { bytes in
            if bytes.isEmpty {
                continuation.yield(total.withLock { $0 })
                continuation.finish()
            } else {
                total.withLock { $0 += bytes.count }
            }
        }
        for await count in stream { return count }
        return -1
    }

    /// A short-lived child holding copies of `descriptors`, numbered above them all (so no copy
    /// lands on a number a later one is made from).
    static func spawnHolder(of descriptors: [Int32]) {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        let first = (descriptors.max() ?? 2) + 1
        for (index, descriptor) in descriptors.enumerated() {
            posix_spawn_file_actions_adddup2(&actions, descriptor, first + Int32(index))
        }
        var pid: pid_t = 0
        let arguments: [UnsafeMutablePointer<CChar>?] = ["/bin/sleep", "0.05"].map { (text: String) in strdup(text) } + [nil]
        defer { arguments.forEach { free($0) } }
        if posix_spawn(&pid, "/bin/sleep", &actions, nil, arguments, environ) == 0 {
            let child = pid
            Thread.detachNewThread { waitpid(child, nil, 0) }
        }
    }

    @Test(.timeLimit(.minutes(1))) func aReaderGetsEveryByteAndTheEndThenClosesItsEnd() async throws {
        let ends = try Self.pipeEnds()
        let queue = DispatchQueue(label: "pipe-poller-test")
        let bytes = [UInt8](repeating: 7, count: 300_000)
        let writer = PipeWriter(descriptor: ends[1], queue: queue)
        async let read = Self.readAll(ends[0], queue: queue)
        #expect(writer.write(bytes))
        writer.closeWhenFlushed()
        #expect(await read == bytes.count)
    }

    /// The pattern libdispatch's loop crashed on: many pipes opened, read to their end and closed
    /// at once, on several queues, while child processes hold copies of them for a moment (as an
    /// app's keeper does between its fork and closing what it does not need).
    @Test(.timeLimit(.minutes(1))) func hundredsOfPipesComeAndGoOnSeveralQueuesWhileChildrenHoldCopies() async throws {
        let queues = (0..<4).map { DispatchQueue(label: "pipe-poller-churn-\($0)") }
        try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<300 {
                let ends = try Self.pipeEnds()
                // Before its task may close them: a copy of a closed number would be another's.
                if index % 10 == 0 { Self.spawnHolder(of: ends) }
                let queue = queues[index % queues.count]
                group.addTask {
                    let writer = PipeWriter(descriptor: ends[1], queue: queue)
                    async let read = Self.readAll(ends[0], queue: queue)
                    writer.write([UInt8](repeating: 1, count: 1000 + index))
                    writer.closeWhenFlushed()
                    return await read - (1000 + index)
                }
            }
            for try await difference in group { #expect(difference == 0) }
        }
    }
}
