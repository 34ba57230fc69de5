import CanvasCore
import CanvasTesting
import Foundation
import Testing

/// Bad input at the terminal: tiny sizes, resize storms and random keys must not crash the
/// dashboard or leave garbage behind, and quitting must restore the terminal.
@Suite(.serialized)
struct HostileInputTests {
    @Test func tinyTerminalShowsTooSmallScreen() async throws {
        let session = try await DashboardSessionTests.start(size: Size(width: 10, height: 4))
        let screen = try await session.waitFor("too small")
        #expect(screen.prefix(4).allSatisfy { $0.count <= 10 })
        try await session.resize(to: Size(width: 100, height: 30))
        try await session.waitFor("November 2026")
        try await session.send("q")
        let report = try await session.waitForExit()
        #expect(report.status == 0)
        #expect(report.ttyRestored)
    }

    @Test func resizeStormLeavesACleanFrame() async throws {
        let session = try await DashboardSessionTests.start(size: Size(width: 100, height: 30))
        try await session.waitFor("November 2026")
        let start = ContinuousClock.now
        for index in 0..<50 {
            try await session.resize(to: Size(width: 40 + (index * 37) % 120, height: 8 + (index * 11) % 40))
        }
        #expect(ContinuousClock.now - start < .seconds(5))
        try await session.resize(to: Size(width: 90, height: 25))
        let screen = try await session.waitForScreen("a clean 90×25 frame") { rows in
            rows.count >= 25 && rows[0].hasPrefix("┏━ 1 Calendar") && rows[0].hasSuffix("┐")
                && rows[23].hasPrefix("┗") && rows[24].contains("NORMAL")
        }
        #expect(screen.prefix(24).allSatisfy { $0.count == 90 })
        try await session.send("q")
        #expect(try await session.waitForExit().status == 0)
    }

    @Test func thousandRandomKeysIncludingEscapeFragments() async throws {
        let session = try await DashboardSessionTests.start(size: Size(width: 100, height: 30))
        try await session.waitFor("November 2026")
        var generator = SplitMix64(seed: 2026)
        let fragments = ["\u{1B}", "\u{1B}[", "\u{1B}[1;", "\u{1B}O", "\u{1B}[A", "\u{1B}[1;3C", "\u{1B}[200~",
                         "\u{1B}[<0;5;5M", "\u{1B}]0;title\u{07}", "\t", "\r", "\u{7F}", "é", "日", "🙂"]
        let plain = Array("aAxXuUsS ?1234567890[]{};:'\",.<>/\\|`~!@#$%^&*()-_=+") .map(String.init)
        var sent = 0
        while sent < 1000 {
            var chunk = ""
            for _ in 0..<20 {
                // Never q (quit), Ctrl-Q/Ctrl-C (quit) or Ctrl-Z (suspend): the test wants the app to live.
                chunk += Bool.random(using: &generator)
                    ? fragments.randomElement(using: &generator)!
                    : plain.randomElement(using: &generator)!
                sent += 1
            }
            try await session.sendLiteral(chunk)
        }
        // Whatever state the keys left, Esc twice returns to normal mode.
        try await session.send("Escape")
        try await Task.sleep(for: .milliseconds(100))
        try await session.send("Escape")
        try await Task.sleep(for: .milliseconds(100))
        try await session.send("Escape")
        let screen = try await session.waitFor("NORMAL")
        // No raw escape garbage: every row is exactly the terminal width and the frame is whole.
        #expect(screen.prefix(29).allSatisfy { $0.count == 100 })
        #expect(!screen.joined().contains("\u{1B}"))
        try await session.send("C-q")
        let report = try await session.waitForExit()
        #expect(report.status == 0)
        #expect(report.ttyRestored)
    }
}
