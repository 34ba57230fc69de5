@testable import MicroAppHost
import MicroAppProtocol
import Synchronization
import Testing

/// A remote app's lines wait while one is sent: bounded as a process app's unread input is, and
/// none longer than the protocol's line (the server's proxy refuses those) is sent.
struct RemoteDriverTests {
    /// A session that opens at once and whose sends never finish: an entry that stopped reading.
    final class StuckTransport: RemoteAppTransport {
        let sent = Atomic<Int>(0)

        func open(app: String, initialize: [UInt8]) async throws(RemoteAppFailure) -> (session: String, answer: [UInt8]) {
            ("s1", Array(#"{"jsonrpc":"2.0","id":1,"result":{"protocol":"1.0"}}"#.utf8))
        }

        func lines(app: String, session: String) -> AsyncStream<RemoteLine> { AsyncStream { _ in } }

        func send(app: String, session: String, line: [UInt8]) async throws(RemoteAppFailure) {
            sent.add(1, ordering: .relaxed)
            try? await Task.sleep(for: .seconds(3600))
        }

        func close(app: String, session: String) async {}
    }

    @Test func linesWaitingPastTheLimitAreDroppedAndSaidSo() async throws {
        let transport = StuckTransport()
        let driver = RemoteDriver(appID: "deploys", transport: transport)
        guard case .process(generation: 1, .spawned) = driver.perform(.spawn(generation: 1), feed: { _ in }) else {
            Issue.record("not spawned")
            return
        }
        let key = HostToApp.key(name: "x", text: String(repeating: "x", count: 60_000))
        var overflowed = false
        for _ in 0..<40 where !overflowed {
            if case .process(generation: 1, .inputOverflow) = driver.perform(.write(key), feed: { _ in }) { overflowed = true }
        }
        #expect(overflowed, "over 1 MiB waiting: the app is not keeping up")
        _ = driver.perform(.finished, feed: { _ in })
    }

    @Test func aLineLongerThanTheProtocolsIsNotSent() async throws {
        let driver = RemoteDriver(appID: "deploys", transport: StuckTransport())
        _ = driver.perform(.spawn(generation: 2), feed: { _ in })
        let huge = HostToApp.key(name: "x", text: String(repeating: "x", count: LineFramer.standardLimit))
        guard case .process(let generation, .lineTooLong(let bytes)) = driver.perform(.write(huge), feed: { _ in }) else {
            Issue.record("a line over the limit was queued")
            return
        }
        #expect(generation == 2 && bytes > LineFramer.standardLimit)
        _ = driver.perform(.finished, feed: { _ in })
    }
}
