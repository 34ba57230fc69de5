import CanvasCore
import TestSupport
import Foundation
import Testing

/// The real `termcanvas` binary in a real pseudo-terminal (tmux), driven as a user would.
@Suite(.serialized)
struct DashboardSessionTests {
    /// A home of its own for one test. With `canvasLayout`, the user's own `default` layout is the
    /// two-pane calendar and event log that the canvas tests arrange (it wins over the shipped
    /// todo, calendar and chat, as a file in `$XDG_CONFIG_HOME/termcanvas/layouts/` does).
    static func isolatedHome(canvasLayout: Bool = true) throws -> TestHome {
        let home = try TestHome()
        if canvasLayout {
            let layouts = home.url.appendingPathComponent("config/termcanvas/layouts")
            try FileManager.default.createDirectory(at: layouts, withIntermediateDirectories: true)
            try """
                name: "default"
                focused: 1
                panes:
                  - { id: 1, app: calendar, x: 0, y: 0, width: 5, height: 12 }
                  - { id: 2, app: eventlog, x: 5, y: 0, width: 7, height: 12 }
                """.write(to: layouts.appendingPathComponent("default.yaml"), atomically: true, encoding: .utf8)
        }
        return home
    }

    static func start(size: Size) async throws -> TmuxSession {
        try await TmuxSession([Products.termcanvas.path, "--date", "2026-11-22"], size: size, environment: isolatedHome().environment)
    }

    @Test func focusArrangeResizeAndQuit() async throws {
        let session = try await Self.start(size: Size(width: 100, height: 30))

        // Start: the calendar is focused (heavy border) beside the event log.
        // The whole first frame, to its status bar (a capture can land while it is being written).
        var screen = try await session.waitForScreen("the first frame") { $0.joined().contains("November 2026") && $0.last?.contains("NORMAL") == true }
        #expect(screen[0].hasPrefix("┏━ 1 Calendar"))
        #expect(screen[0].contains("┌─ 2 Event Log ─"))
        #expect(screen.last?.contains("NORMAL") == true)
        // The program runs on the alternate screen, with mouse reporting on and the cursor hidden.
        #expect(try await session.format("#{alternate_on} #{mouse_any_flag} #{cursor_flag}") == "1 1 0")

        // Tab: focus moves to the event log, which logs the focus change.
        try await session.send("Tab")
        screen = try await session.waitFor("┏━ 2 Event Log")
        #expect(screen[0].hasPrefix("┌─ 1 Calendar"))
        try await session.waitFor("canvas.pane.focused 2 Event Log")

        // Arrange mode: the status bar says so and the focused pane shows its grid frame.
        try await session.send("C-e")
        screen = try await session.waitFor("ARRANGE")
        #expect(screen.contains { $0.contains(" 5,0 7×12 ") })

        // Move left: the event log swaps places with the calendar, each keeping its size.
        try await session.send("Left")
        screen = try await session.waitFor(" 0,0 7×12 ")
        #expect(screen[0].hasPrefix("┏━ 2 Event Log ━"))
        #expect(screen[0].contains("┌─ 1 Calendar"))

        // Shift+Right: the event log grows by one unit and the calendar shrinks.
        try await session.send("S-Right")
        screen = try await session.waitFor(" 0,0 8×12 ")
        let border = try #require(screen[0].firstIndex(of: "┌"))
        #expect(screen[0].distance(from: screen[0].startIndex, to: border) == 66)  // 8/12 of 100 columns

        // Undo restores the previous size.
        try await session.send("u")
        try await session.waitFor(" 0,0 7×12 ")

        // Enter leaves arrange mode.
        try await session.send("Enter")
        try await session.waitFor("NORMAL")

        // Resize the terminal: the grid reflows at once to the new width.
        try await session.resize(to: Size(width: 80, height: 24))
        screen = try await session.waitForScreen("reflow to 80×24") { rows in
            rows.count == 24 && rows[0].hasPrefix("┏━ 2 Event Log") && rows[0].hasSuffix("┐")
                && rows[22].hasPrefix("┗") && rows[23].contains("NORMAL")
        }
        #expect(screen.prefix(23).allSatisfy { $0.count == 80 })
        #expect(screen[0].distance(from: screen[0].startIndex, to: screen[0].firstIndex(of: "┌")!) == 46)  // 7/12 of 80

        // Quit: the program exits cleanly and the terminal settings are restored.
        try await session.send("q")
        let report = try await session.waitForExit()
        #expect(report.status == 0)
        #expect(report.ttyRestored)
        #expect(report.stderr.isEmpty)
        // Back on the normal screen, with mouse reporting off and the cursor shown.
        #expect(try await session.format("#{alternate_on}") == "0")
        #expect(try await session.format("#{mouse_any_flag}") == "0")
        #expect(try await session.format("#{cursor_flag}") == "1")
    }

    @Test func helpOverlayAndAltFocus() async throws {
        let session = try await Self.start(size: Size(width: 120, height: 40))
        try await session.waitFor("November 2026")

        try await session.send("?")
        try await session.waitFor("Arrange mode (Ctrl-E)")
        try await session.send("Escape")
        try await session.waitForScreen("help closed") { !$0.joined().contains("Arrange mode (Ctrl-E)") }

        try await session.send("M-Right")
        try await session.waitFor("┏━ 2 Event Log")
        try await session.send("M-1")
        try await session.waitFor("┏━ 1 Calendar")

        // Calendar keys select days and publish them on the bus.
        try await session.send("Right", "PageDown")
        try await session.waitFor("December 2026")
        try await session.waitFor("calendar.date.selected 2026-12-23 ×2")

        try await session.send("C-q")
        #expect(try await session.waitForExit().status == 0)
    }

    @Test func addAndRemoveFromCatalog() async throws {
        let session = try await Self.start(size: Size(width: 120, height: 40))
        try await session.waitFor("November 2026")
        try await session.send("C-e")
        try await session.waitFor("ARRANGE")

        try await session.send("a")
        try await session.waitFor("Add a widget")
        // The catalog lists the micro-apps the local server's registry reports, then the Event Log.
        let catalog = try await session.waitFor("4 Event Log")
        #expect(catalog.contains { $0.contains("1 Todo") } && catalog.contains { $0.contains("3 Chat") })
        try await session.send("4", "Enter")
        // No free space: the focused calendar is split and the new pane is number 3.
        try await session.waitFor("3 Event Log")

        try await session.send("x")
        try await session.waitFor("Remove pane 3 Event Log?")
        try await session.send("y")
        try await session.waitForScreen("pane 3 removed") { !$0.joined().contains("3 Event Log") }

        try await session.send("C-q")
        #expect(try await session.waitForExit().status == 0)
    }

    /// The terminal's own cursor is where typing goes while a text field has the keys, a pane's
    /// or an overlay's (so a screen reader or magnifier follows it, and a typed character is sent
    /// alone), and hidden otherwise.
    @Test func theCursorIsShownAtTheInsertionPointOnlyWhileTyping() async throws {
        let session = try await Self.startInChat { session async throws in
            #expect(try await session.format("#{cursor_flag}") == "0", "the todo list has the keys: no cursor")
        }
        try await eventually("the cursor in chat's input line", within: .seconds(10)) {
            try await session.format("#{cursor_flag}") == "1"
        }
        let start = try await session.format("#{cursor_x} #{cursor_y}")
        let (x, y) = try #require(Self.point(start))
        try await session.send("héllo")
        try await session.waitFor("héllo")
        try await eventually("the cursor after what was typed", within: .seconds(10)) {
            try await session.format("#{cursor_x} #{cursor_y}") == "\(x + 5) \(y)"
        }
        #expect(try await session.screen()[y].contains("héllo"))
        try await session.send("Left", "Left")
        try await eventually("the cursor two back", within: .seconds(10)) {
            try await session.format("#{cursor_x} #{cursor_y}") == "\(x + 3) \(y)"
        }
        try await session.send("C-p")
        try await session.waitForCursor(after: "┃ > ")  // the palette's field has the keys
        try await session.sendLiteral("zz")
        try await session.waitForCursor(after: "┃ > zz")
        try await session.send("Escape")
        try await eventually("the cursor back in chat", within: .seconds(10)) {
            try await session.format("#{cursor_flag} #{cursor_x}") == "1 \(x + 3)"
        }
        try await session.send("C-q")
        #expect(try await session.waitForExit().status == 0)
    }

    /// Cursor keys come as CSI (`ESC [ D`) from a terminal that ignores the keypad's application
    /// mode, as SS3 (`ESC O D`) from one that keeps it: both move, neither types a letter.
    @Test func cursorKeysInEitherFormMoveInAField() async throws {
        let session = try await Self.startInChat()
        try await session.sendLiteral("ab")
        try await session.sendLiteral("\u{1B}[D")
        try await session.sendLiteral("X")
        try await session.sendLiteral("\u{1B}OD")
        try await session.sendLiteral("\u{1B}OD")
        try await session.sendLiteral("Y")
        try await session.sendLiteral("\u{1B}[F")
        try await session.sendLiteral("Z")
        try await session.waitFor("> YaXbZ")
        try await session.send("C-q")
        #expect(try await session.waitForExit().status == 0)
    }

    /// The shipped layout at 100×30, the focus moved to chat; `beforeMoving` sees it on the todo list.
    private static func startInChat(beforeMoving: (TmuxSession) async throws -> Void = { _ in }) async throws -> TmuxSession {
        let session = try await TmuxSession([Products.termcanvas.path, "--date", "2026-11-22"], size: Size(width: 100, height: 30),
                                            environment: Self.isolatedHome(canvasLayout: false).environment)
        try await session.waitFor("November 2026")
        try await beforeMoving(session)
        for _ in 0..<3 where try await !session.screen().joined().contains("┏━ 3 Chat") {
            let before = try await session.screen()
            try await session.send("Tab")
            try await session.waitForScreen("the focus moved") { $0 != before }
        }
        try await session.waitFor("┏━ 3 Chat")
        return session
    }

    private static func point(_ text: String) -> (Int, Int)? {
        let parts = text.split(separator: " ").compactMap { Int($0) }
        return parts.count == 2 ? (parts[0], parts[1]) : nil
    }

    @Test func mouseClickFocusesAndWheelScrollsThePaneUnderThePointer() async throws {
        let session = try await Self.start(size: Size(width: 100, height: 30))
        try await session.waitFor("November 2026")
        try await session.mouse(.press, x: 60, y: 4)
        try await session.waitFor("┏━ 2 Event Log")
        try await session.mouse(.wheelDown, x: 10, y: 5)  // over the calendar
        try await session.waitFor("December 2026")
        #expect(try await session.screen()[0].contains("┏━ 2 Event Log"))  // the wheel does not move focus
        try await session.send("C-q")
        #expect(try await session.waitForExit().status == 0)
    }

    /// A key is read, handled and drawn by the thread that waits on the terminal (the main
    /// thread's loop): no other thread wakes for it. Counted in the kernel's context switches of
    /// each thread; with the terminal watched by dispatch, two worker threads woke twice a key.
    ///
    /// One other thread wakes while the dashboard is idle: libdispatch's manager, for the timer
    /// with which it watches its worker pool once a second (`_dispatch_workq_init_once`), from the
    /// first worker thread on. So the other threads' switches are counted against their idle rate,
    /// measured once the start's work off the screen (the first sync, the cache) is done: on a busy
    /// machine it outlasts the first frame.
    @Test func keysAreHandledOnTheThreadThatReadThem() async throws {
        let session = try await Self.start(size: Size(width: 100, height: 30))
        try await session.waitFor("November 2026")
        try await session.waitForQuietScreen("the start")
        let pid = try #require(await session.programPID())
        let (idle, idleRate) = try await Self.idleContextSwitches(of: pid)
        let began = ContinuousClock.now
        for key in Array(repeating: ["Right", "Left"], count: 20).joined() {
            try await session.send(key)
            try await Task.sleep(for: .milliseconds(20))
        }
        try await session.waitForQuietScreen(quiet: .milliseconds(500), "the keys")
        let after = Self.contextSwitches(of: pid)
        let seconds = (ContinuousClock.now - began).inSeconds
        let main = (after[pid] ?? 0) - (idle[pid] ?? 0)
        let others = after.filter { $0.key != pid }.map { $0.value - (idle[$0.key] ?? 0) }.reduce(0, +)
        let allowed = 10 + Int((idleRate * seconds).rounded(.up))
        #expect(main >= 20, "the main thread woke \(main) times for 40 keys")
        #expect(others <= allowed, "other threads woke \(others) times for 40 keys in \(seconds) s, idle \(idleRate) a second: \(idle) -> \(after)")
        try await session.send("C-q")
        #expect(try await session.waitForExit().status == 0)
    }

    /// The context switches of `pid`'s threads, and how many a second the threads other than the
    /// main one make, once two seconds in a row have no more than two a second.
    static func idleContextSwitches(of pid: pid_t, timeout: Duration = .seconds(30)) async throws -> ([pid_t: Int], Double) {
        func others(_ switches: [pid_t: Int]) -> Int { switches.filter { $0.key != pid }.values.reduce(0, +) }
        let deadline = ContinuousClock.now + timeout
        var last = contextSwitches(of: pid)
        while ContinuousClock.now < deadline {
            try await Task.sleep(for: .seconds(2))
            let now = contextSwitches(of: pid)
            // Threads that ended take their counts with them: only a thread in both samples counts.
            let woke = now.filter { $0.key != pid }.map { $0.value - (last[$0.key] ?? 0) }.reduce(0, +)
            if woke <= 4 && Set(now.keys) == Set(last.keys) { return (now, Double(woke) / 2) }
            last = now
        }
        Issue.record("the dashboard's threads other than the main one never settled: \(others(last)) switches, \(last)")
        return (last, 2)
    }

    /// Voluntary and involuntary context switches of each thread of `pid`, by thread id.
    static func contextSwitches(of pid: pid_t) -> [pid_t: Int] {
        let tasks = "/proc/\(pid)/task"
        let threads = (try? FileManager.default.contentsOfDirectory(atPath: tasks)) ?? []
        return Dictionary(uniqueKeysWithValues: threads.compactMap { thread in
            guard let id = pid_t(thread), let status = try? String(contentsOfFile: "\(tasks)/\(thread)/status", encoding: .utf8) else { return nil }
            let switches = status.split(separator: "\n").filter { $0.contains("ctxt_switches:") }
                .compactMap { Int($0.split(separator: "\t").last.map(String.init) ?? "") }
            return (id, switches.reduce(0, +))
        })
    }

    @Test func sigtermRestoresTheTerminal() async throws {
        let session = try await Self.start(size: Size(width: 100, height: 30))
        try await session.waitFor("November 2026")
        let pid = try #require(await session.programPID())
        kill(pid, SIGTERM)
        let report = try await session.waitForExit()
        #expect(report.status == 0)
        #expect(report.ttyRestored)
        #expect(try await session.format("#{alternate_on} #{mouse_any_flag} #{cursor_flag}") == "0 0 1")
    }
}
