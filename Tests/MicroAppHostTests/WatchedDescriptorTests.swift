import Dispatch
import Foundation
@testable import MicroAppHost
import Testing

/// A pipe end watched by a dispatch source stays open until libdispatch lets go of the source:
/// closed earlier, its number could be reused by another app's pipe while still registered.
@Suite("WatchedDescriptor: closed only once no dispatch source watches it")
struct WatchedDescriptorTests {
    /// Whether the pipe's write end is still open somewhere, seen from its read end (not by the
    /// descriptor's number, which a test running beside this one may reuse at once).
    static func writerOpen(_ readEnd: Int32) -> Bool {
        var byte: UInt8 = 0
        return read(readEnd, &byte, 1) != 0
    }

    /// A pipe whose read end does not block.
    static func pipeEnds() throws -> [Int32] {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        _ = fcntl(ends[0], F_SETFL, O_NONBLOCK)
        return ends
    }

    @Test func closingWaitsForTheSourcesCancelHandler() async throws {
        let ends = try Self.pipeEnds()
        defer { close(ends[0]) }
        let descriptor = WatchedDescriptor(ends[1])
        let queue = DispatchQueue(label: "watched-descriptor-test")
        let source = DispatchSource.makeWriteSource(fileDescriptor: ends[1], queue: queue)
        descriptor.watched()
        let released = AsyncStream<Void>.makeStream()
        source.setCancelHandler {
            descriptor.released()
            released.continuation.yield()
        }
        queue.sync { source.activate() }
        queue.sync {
            descriptor.close()
            #expect(Self.writerOpen(ends[0]), "closed while the source still watched it")
            source.cancel()
        }
        for await _ in released.stream { break }
        #expect(!Self.writerOpen(ends[0]))
    }

    @Test func withoutASourceItClosesAtOnce() throws {
        let ends = try Self.pipeEnds()
        defer { close(ends[0]) }
        WatchedDescriptor(ends[1]).close()
        #expect(!Self.writerOpen(ends[0]))
    }
}
