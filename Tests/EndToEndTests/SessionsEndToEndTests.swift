import BFFTesting
import Foundation
import TestSupport
import Testing

/// Issue 52: a sign-in could not be seen or ended, and a device code someone else started signed
/// them in as its victim unseen. A second sign-in shows on the first dashboard; `termcanvas
/// sessions` lists both; `sessions end --others` ends the other, whose token is then refused.
@Suite("Sessions end to end", .serialized)
struct SessionsEndToEndTests {
    @Test("a second sign-in is told on the first dashboard and listed; sessions end --others refuses its token; user sessions --end ends all")
    func seenAndEnded() async throws {
        let server = try await TeamServer.start(users: ["alice"])
        defer { server.stop() }
        let here = try await server.logIn("alice", canvasLayout: true)
        let dashboard = try await server.dashboard(here)
        // Its live stream is open (the Event Log says so) before anyone else signs in.
        try await dashboard.waitFor("canvas.server.connected")

        // Someone else signs in as alice.
        let elsewhere = try await server.logIn("alice")
        let told = try await dashboard.waitFor("A new sign-in as you from 127.0.0.1")
        #expect(told.contains { $0.contains("(password) at ") && $0.contains(" UTC") }, "\(told)")

        let listed = try await MarketplaceEndToEndTests.termcanvas(["sessions", "--bff", server.url], here)
        #expect(listed.status == 0, "\(listed.output)")
        let lines = listed.output.split(separator: "\n")
        #expect(lines.first?.hasPrefix("ID") == true && lines.first?.contains("MACHINE") == true, "\(listed.output)")
        #expect(lines.count == 3 && lines.filter { $0.contains("(this one)") }.count == 1, "\(listed.output)")

        let ended = try await MarketplaceEndToEndTests.termcanvas(["sessions", "end", "--others", "--bff", server.url], here)
        #expect(ended.status == 0 && ended.output.contains("Ended 1 other session"), "\(ended.output)")
        let refused = try await MarketplaceEndToEndTests.termcanvas(["sessions", "--bff", server.url], elsewhere)
        #expect(refused.status != 0 && refused.output.contains("its session ended: log in again"), "\(refused.output)")
        let still = try await MarketplaceEndToEndTests.termcanvas(["sessions", "--bff", server.url], here)
        #expect(still.status == 0)

        // The operator ends every session of hers: this one too.
        let operatorEnded = try await Command.run([Products.termcanvas.path, "user", "sessions", "alice", "--end", "--data-dir", server.home + "/bff"],
                                                  environment: ["XDG_STATE_HOME": server.home + "/state"])
        #expect(operatorEnded.status == 0 && operatorEnded.output.contains("Ended 1 session of alice"), "\(operatorEnded.output)")
        // Another process changed the database: the server knows within a second.
        let deadline = ContinuousClock.now + .seconds(1)
        try await Task.sleep(until: deadline)
        let after = try await MarketplaceEndToEndTests.termcanvas(["sessions", "--bff", server.url], here)
        #expect(after.status != 0 && after.output.contains("its session ended"), "\(after.output)")
    }
}
