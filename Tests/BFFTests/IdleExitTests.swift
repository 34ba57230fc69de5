import BFF
import Foundation
import HummingbirdTesting
import Synchronization
import Testing
import TestSupport

/// The embedded server's idle exit: never while a dashboard's live stream is open, soon after the
/// last one closes.
struct IdleExitTests {
    @Test func waitsForOpenStreamsThenReturns() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addUsers("ann")
        var configuration = harness.configuration()
        // Fast keep-alives, so the server notices the closed stream at once.
        configuration.heartbeatInterval = .milliseconds(50)
        let activity = configuration.activity
        try await harness.withServer(configuration: configuration) { client in
            let ann = try await client.token(for: "ann")
            var stream: SSEReader? = try SSEReader(port: try #require(client.port), token: ann)
            _ = try await stream?.readHead()
            #expect(activity.idleTime() == nil)

            let exited = Flag()
            let service = Task {
                try await IdleExitService(activity: activity, timeout: .milliseconds(100)).run()
                exited.set()
            }
            try await Task.sleep(for: .milliseconds(400))  // four idle timeouts
            #expect(!exited.isSet, "exited with a stream open")

            stream = nil  // closes the connection
            try await eventually("the server's exit with nothing open") { exited.isSet }
            #expect(try #require(activity.idleTime()) >= .milliseconds(100))
            service.cancel()
            _ = stream
        }
    }
}

private final class Flag: Sendable {
    private let value = Mutex(false)
    var isSet: Bool { value.withLock { $0 } }
    func set() { value.withLock { $0 = true } }
}
