import CanvasCore
import TestSupport
import Foundation
import Testing

// Nested in the hostile-input suite, which runs its tests one at a time: 3000 keys beside the
// resize storm slowed tmux past the storm's bound on a loaded machine.
extension HostileInputTests {
    /// Thousands of seeded random keys into the default dashboard (todo, calendar and chat on the
    /// embedded server): text fields opened and typed into with text whose scalars join (accents,
    /// skin tones, flags, ZWJ sequences, Hangul jamo), escape fragments, pane switches and terminal
    /// resizes. The dashboard must be alive at the end, draw a whole frame and exit 0.
    @Suite("Random input", .serialized)
    struct RandomInputTests {
        static let joining = ["e\u{301}", "\u{1F44D}\u{1F3FD}", "\u{1F1E9}\u{1F1EA}", "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}",
                              "\u{1112}\u{1161}\u{11AB}", "a\u{20DD}\u{301}", "\u{2764}\u{FE0F}", "\u{301}", "\u{200D}", "\u{1F3FD}"]
        static let fragments = ["\u{1B}", "\u{1B}[", "\u{1B}[1;", "\u{1B}O", "\u{1B}[A", "\u{1B}[D", "\u{1B}[C", "\u{1B}[H", "\u{1B}[F",
                                "\u{1B}[3~", "\u{1B}[1;3C", "\u{1B}[200~", "\u{1B}[<0;5;5M", "\u{1B}]0;title\u{07}", "\t", "\r", "\u{7F}",
                                "\u{17}", "\u{15}", "\u{01}", "\u{05}", "\u{0E}", "\u{10}"]
        /// Keys that open text fields or move between panes: the todo's `n` and `e`, the calendar's
        /// `n`, Alt+1…3, Enter.
        static let actions = ["n", "e", "\u{1B}1", "\u{1B}2", "\u{1B}3", "\r", " ", "c", "t"]
        static let plain = Array("aAxXsS ?1234567890[]{};:'\",.<>/\\|`~!@#$%^&*()-_=+").map(String.init)

        @Test("3000 seeded keys with joining text, escape fragments and resizes: alive, whole, exits 0", arguments: [7, 2026] as [UInt64])
        func randomKeys(seed: UInt64) async throws {
            let home = FileManager.default.temporaryDirectory.appendingPathComponent("tc-random-\(UUID().uuidString.prefix(8))")
            try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: home) }
            let environment = ["HOME": home.path, "XDG_DATA_HOME": home.path + "/data", "XDG_STATE_HOME": home.path + "/state",
                               "XDG_CONFIG_HOME": home.path + "/config", "XDG_RUNTIME_DIR": home.path + "/run"]
            // The palette is left out here: from it, Enter may run any command, quit included (the
            // palette gets random keys of its own in PaletteTests). `:` and Ctrl-P still reach fields.
            try FileManager.default.createDirectory(atPath: home.path + "/config/termcanvas", withIntermediateDirectories: true)
            try "unbind: [canvas.palette]\n".write(toFile: home.path + "/config/termcanvas/keys.yaml", atomically: true, encoding: .utf8)
            let session = try await TmuxSession([Products.termcanvas.path, "--date", "2026-11-22"], size: Size(width: 100, height: 30),
                                                environment: environment)
            try await session.waitFor("Chat #general")
            var generator = SplitMix64(seed: seed)
            let sizes = [Size(width: 100, height: 30), Size(width: 40, height: 12), Size(width: 12, height: 5), Size(width: 140, height: 45)]
            var sent = 0
            var chunks = 0
            while sent < 3000 {
                var chunk = ""
                for _ in 0..<25 {
                    // Never q or Ctrl-Q/Ctrl-C (quit) or Ctrl-Z (suspend): the dashboard must live.
                    let pool = switch Int.random(in: 0..<10, using: &generator) {
                    case 0..<3: Self.joining
                    case 3..<5: Self.fragments
                    case 5..<7: Self.actions
                    default: Self.plain
                    }
                    chunk += pool.randomElement(using: &generator)!
                    sent += 1
                }
                try await session.sendLiteral(chunk)
                chunks += 1
                if chunks % 15 == 0 { try await session.resize(to: sizes.randomElement(using: &generator)!) }
            }
            try await session.resize(to: Size(width: 100, height: 30))
            // Keys sent while a backlog of input is handled may still meet the last, smaller size,
            // where only quitting works: close overlays once a status bar is drawn on the last row,
            // whichever mode or box its badge names (` NORMAL `, ` NEW APP `, …).
            try await session.waitForScreen(timeout: .seconds(20), "the full size drawn") { rows in
                rows.count >= 30 && rows[29].range(of: #"^ [A-Z]+( [A-Z]+)* "#, options: .regularExpression) != nil
            }
            // Enough for the deepest state random keys reach: a filtering layout picker over arrange
            // mode, with a text field open underneath.
            try await session.pressEscape(times: 5)
            // Once every change is on the server: the screen must not change for a reason of its own.
            try await session.waitForScreen(timeout: .seconds(30), "a whole frame in normal mode, all sent") { rows in
                rows.count >= 30 && rows[29].contains("NORMAL") && ["┏", "┌"].contains(rows[0].prefix(1))
                    && ["┗", "└"].contains(rows[28].prefix(1)) && !rows.contains { $0.contains("unsent") }
            }
            // Messages the server has taken still come back over the live stream for a while on a
            // loaded machine: compare once nothing more arrives.
            let screen = try await session.waitForQuietScreen(quiet: .seconds(2), "the chat's backlog")
            #expect(!screen.joined().contains("\u{1B}"))
            // What tmux shows is what the dashboard drew: a full repaint, forced by a resize away and
            // back, changes nothing. Cells lost to resizes between two frames, or shifted by a
            // cluster tmux and curses measure differently, would come back changed.
            try await session.resize(to: Size(width: 100, height: 31))
            try await session.waitForScreen("the status bar one row lower") { $0.count >= 31 && $0[30].contains("NORMAL") }
            try await session.resize(to: Size(width: 100, height: 30))
            try await session.waitForScreen("the same screen after a full repaint:\n\(screen.joined(separator: "\n"))\nbut") { $0 == screen }
            #expect(try session.exitReport() == nil, "the dashboard is still running")
            try await session.send("C-q")
            let report = try await session.waitForExit()
            #expect(report.status == 0, "stderr: \(report.stderr)")
            #expect(report.ttyRestored)
        }
    }
}
