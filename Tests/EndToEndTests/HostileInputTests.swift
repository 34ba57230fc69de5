import CanvasCore
import TestSupport
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
        for index in 0..<50 {
            try await session.resize(to: Size(width: 40 + (index * 37) % 120, height: 8 + (index * 11) % 40))
        }
        // Timed from the storm's end, not over it: how fast tmux runs fifty commands says nothing of
        // the dashboard, and much of the machine's load when tests run side by side.
        try await session.resize(to: Size(width: 90, height: 25))
        let stormEnded = ContinuousClock.now
        let screen = try await session.waitForScreen("a clean 90×25 frame") { rows in
            rows.count >= 25 && rows[0].hasPrefix("┏━ 1 Calendar") && rows[0].hasSuffix("┐")
                && rows[23].hasPrefix("┗") && rows[24].contains("NORMAL")
        }
        #expect(ContinuousClock.now - stormEnded < .seconds(2), "the dashboard caught up with the storm late")
        #expect(screen.prefix(24).allSatisfy { $0.count == 90 })
        try await session.send("q")
        #expect(try await session.waitForExit().status == 0)
    }

    @Test func thousandRandomKeysIncludingEscapeFragments() async throws {
        let session = try await DashboardSessionTests.start(size: Size(width: 100, height: 30))
        try await session.waitFor("November 2026")
        let title = try await session.format("#{pane_title}")
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
        // Whatever state the keys left, Esc returns to normal mode: five are enough for the deepest
        // state random keys reach (a filtering layout picker over arrange mode over a text field).
        try await session.pressEscape(times: 5)
        // Then help, which opens only in normal mode: once it is on screen, every key before it
        // has been handled. (NORMAL alone is not enough: keys are read in batches, and on a loaded
        // machine a batch of a thousand keys takes over a second with no frame in between, so
        // NORMAL from before it can stay on screen while it is handled.) Sent once the Escs are
        // handled: read in one batch with them, `?` would be Alt+? after an Esc, as a terminal
        // sends Alt. (The keys above end with Alt+[ and Tab, never five Escs.)
        try await session.waitForLogLines(timeout: .seconds(30), "the five Escs handled") { lines in
            let keys = lines.filter { $0.contains(" input event=") }.suffix(5)
            return keys.count == 5 && keys.allSatisfy { $0.hasSuffix(" input event=key(Esc)") }
        }
        try await session.send("?")
        try await session.waitFor("━ Help ━", timeout: .seconds(30))
        try await session.send("Escape")
        // No raw escape garbage: the frame is whole, every row from the left border to the right
        // one. Told by borders, not by counting characters: a wide character typed into a title
        // takes two columns and counts one.
        let borders: Set<Character> = ["┃", "│", "┓", "┐", "┛", "┘", "┏", "┌", "┗", "└"]
        let isWhole = { (rows: [String]) in
            rows.count >= 30 && rows[29].contains("NORMAL") && !rows[0].contains("━ Help ━")
                && rows.prefix(29).allSatisfy { row in row.first.map(borders.contains) == true && row.last.map(borders.contains) == true }
        }
        try await session.waitForScreen("a whole frame in normal mode", isWhole)
        // The embedded server's first events can still be arriving on a loaded machine.
        let screen = try await session.waitForQuietScreen("the server's first events")
        #expect(isWhole(screen), "\(screen.joined(separator: "\n"))")
        // What tmux shows is what the dashboard drew: a full repaint, forced by a resize away and
        // back, changes nothing, so no cell on screen was written by a key.
        try await session.resize(to: Size(width: 100, height: 31))
        try await session.waitForScreen("the status bar one row lower") { $0.count >= 31 && $0[30].contains("NORMAL") }
        try await session.resize(to: Size(width: 100, height: 30))
        try await session.waitForScreen("the same screen after a full repaint:\n\(screen.joined(separator: "\n"))\nbut") { $0 == screen }
        // No key reached the terminal as a command: the screen with its attributes holds nothing
        // but colour codes, and the OSC among the keys did not set the title.
        let foreign = Self.foreignEscapes(try await Self.screenWithAttributes(session))
        #expect(foreign.isEmpty, "escape sequences on screen: \(foreign)")
        #expect(try await session.format("#{pane_title}") == title)
        try await session.send("C-q")
        let report = try await session.waitForExit()
        #expect(report.status == 0)
        #expect(report.ttyRestored)
    }

    /// A layout file is text from anywhere (shared, downloaded): an app kind made of terminal
    /// commands is drawn as placeholders and never reaches the terminal as commands.
    @Test func hostileTextInALayoutFileIsDrawnAsPlaceholders() async throws {
        let home = try DashboardSessionTests.isolatedHome()
        defer { home.remove() }
        let environment = home.environment
        let file = URL(fileURLWithPath: environment["HOME"]!).appendingPathComponent("hostile.yaml")
        // YAML's "\e" is ESC and "\a" BEL: set the title, clear the screen, paint red.
        try #"""
            name: "hostile"
            panes:
              - { id: 1, app: calendar, x: 0, y: 0, width: 6, height: 12 }
              - { id: 2, app: "evil\e]0;owned\a\e[2J\e[31mred", x: 6, y: 0, width: 6, height: 12 }
            """#.write(to: file, atomically: true, encoding: .utf8)
        let session = try await TmuxSession([Products.termcanvas.path, "--date", "2026-11-22", "--layout", file.path],
                                            size: Size(width: 100, height: 30), environment: environment)
        // The whole frame, to its status bar (a capture can land while the first frame is being
        // written): a hostile name that broke the frame would never give one.
        let screen = try await session.waitForScreen("the whole frame") { rows in
            rows.joined().contains("Unavailable micro-app") && rows.last?.contains("NORMAL") == true
        }

        #expect(screen[0].contains("Unavailable: evil␛]0;owned␇␛[2J␛[31mred"), "\(screen[0])")
        #expect(screen[1].contains("Unavailable micro-app 'evil␛]0;owned␇␛[2J␛[31mre"), "\(screen[1])")
        #expect(screen[0].hasPrefix("┏━ 1 Calendar"), "the frame stayed whole")
        let attributed = try await Self.screenWithAttributes(session)
        #expect(attributed.contains("\u{1B}["), "the capture keeps the colour codes, so it would show others")
        let foreign = Self.foreignEscapes(attributed)
        #expect(foreign.isEmpty, "escape sequences on screen: \(foreign)")
        let title = try await session.format("#{pane_title}")
        #expect(!title.contains("owned"), "the OSC set the title: \(title)")

        try await session.send("q")
        let report = try await session.waitForExit()
        #expect(report.status == 0)
        #expect(report.ttyRestored)
    }

    /// The screen as tmux holds it, with each cell's attributes as the escape sequences that make
    /// them (`capture-pane -e`): what the program drew, not what it wrote, so a command that
    /// reached the terminal shows by its effect, and a raw ESC drawn as text by itself.
    static func screenWithAttributes(_ session: TmuxSession) async throws -> String {
        let result = try await Command.run(["tmux", "-L", session.socket, "capture-pane", "-e", "-p", "-t", "0"])
        #expect(result.status == 0, "\(result.output)")
        return result.output
    }

    /// Every escape sequence in `text` other than the SGR colour and attribute codes tmux itself
    /// writes for `capture-pane -e` (`ESC [ … m`).
    static func foreignEscapes(_ text: String) -> [String] {
        let sgr = /\x{1B}\[[0-9;:]*m/
        return text.replacing(sgr, with: "").split(separator: "\u{1B}", omittingEmptySubsequences: false).dropFirst()
            .map { "ESC" + String($0.prefix(12)).debugDescription }
    }
}
