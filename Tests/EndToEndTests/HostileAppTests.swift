import CanvasCore
import TestSupport
import Foundation
import Testing

/// The `hostile` fixture app in the real dashboard: what an app does on purpose must neither end
/// the canvas nor, when a bug does end it, end every later start too.
extension MicroAppProcessTests {
    static let hostilePanes = ["hostile 0 0 6 12", "calendar 6 0 6 6", "eventlog 6 6 6 6"]

    @Test func aViewWithNumbersAtTheEdgeOfJSONIsRefusedNotFatal() async throws {
        let (session, environment) = try await Self.start(apps: ["hostile"], panes: Self.hostilePanes)
        try await session.waitFor("size ")
        try await session.send("v")
        try await session.waitFor("sparkline not shown: values[0] is")
        // The canvas goes on: keys reach the calendar.
        try await session.send("Tab", "Right")
        try await session.waitFor("Monday, 23 November 2026")
        try await session.send("q")
        #expect(try await session.waitForExit().status == 0)
        let log = try Self.appLog("hostile", environment)
        #expect(log.contains("refused a node of its view: sparkline: values[0] is 1e+308, beyond ±1e300"), "\(log)")
    }

    @Test func aStartAfterACrashComesUpWithItsAppsPaused() async throws {
        let (first, installed) = try await Self.start(apps: ["hostile"], panes: Self.hostilePanes)
        try await first.send("q")
        // Generous: on a loaded machine a quit during start-up (the local server still starting) is slow.
        #expect(try await first.waitForExit(timeout: .seconds(30)).status == 0)
        var environment = installed
        environment["TERMCANVAS_TEST_TRAP"] = "HOSTILE-TRAP"
        environment["SWIFT_BACKTRACE"] = "enable=no"  // its report would wait for a key on the terminal
        let session = try await Self.dashboard(environment)
        try await session.waitFor("size ")
        try await session.send("t")
        let ended = try await session.waitForExit(timeout: .seconds(30))
        #expect(ended.status == 128 + SIGILL || ended.status == 128 + SIGTRAP, "ended with \(ended.status)")

        // The next start does not repeat it: the app is paused, the user told once.
        environment["TERMCANVAS_TEST_TRAP"] = nil
        let again = try await Self.dashboard(environment)
        try await again.waitFor("Hostile paused after the last run ended unexpectedly · r")
        try await again.waitFor("The last run ended unexpectedly in hostile's pane")
        #expect(Self.processes("hostile.py").isEmpty, "a paused app is not started")
        // The other panes work; r starts the app.
        try await again.send("Tab", "Right")
        try await again.waitFor("Monday, 23 November 2026")
        try await again.send("BTab", "r")
        try await again.waitFor("size ")
        try await again.send("q")
        #expect(try await again.waitForExit().status == 0)
        let log = try Self.appLog("hostile", environment)
        #expect(log.contains("the dashboard's last run ended unexpectedly on signal"), "\(log)")
        #expect(log.contains("while taking its news"), "\(log)")

        // A clean end leaves no mark: the start after it runs the app at once.
        let third = try await Self.dashboard(environment)
        try await third.waitFor("size ")
        #expect(!(try await third.screen().joined().contains("paused")))
        try await third.send("q")
        #expect(try await third.waitForExit().status == 0)
    }

    @Test func anAppIsToldItsPanesSizeAtOnceAndWhenItChanges() async throws {
        let (session, _) = try await Self.start(apps: ["hostile"], panes: Self.hostilePanes)
        // 120×36: the left half of the columns, the whole height but the status bar, less the border.
        try await session.waitFor("size 58x33")
        // Arranged narrower (arrange mode, Shift-Left), it is told again.
        try await session.send("C-e", "S-Left", "Escape")
        try await session.waitFor("size 48x33")
        try await session.resize(to: Size(width: 100, height: 30))
        try await session.waitFor("size 39x27")
        try await session.send("q")
        #expect(try await session.waitForExit().status == 0)
    }

    @Test func anAppFloodingOneEndlessLineIsStoppedAndSaysSo() async throws {
        let (session, environment) = try await Self.start(apps: ["hostile"], panes: Self.hostilePanes)
        try await session.waitFor("size ")
        try await session.send("f")
        try await session.waitFor("Stopped: flooding its output")
        #expect(Self.processes("hostile.py").isEmpty)
        // It no longer costs the dashboard anything: keys are answered, and r starts it again.
        try await session.send("Tab", "Right")
        try await session.waitFor("Monday, 23 November 2026")
        try await session.send("BTab", "r")
        try await session.waitFor("size ")
        try await session.send("q")
        #expect(try await session.waitForExit().status == 0)
        let log = try Self.appLog("hostile", environment)
        #expect(log.contains("stopped: flooding its output"), "\(log)")
    }

    /// Starts the hostile app's daemon (a double fork into a session of its own) and a child in
    /// its group; returns their ids, both running.
    static func startDescendants(_ session: TmuxSession) async throws -> [pid_t] {
        var pids: [pid_t] = []
        for (key, label) in [("d", "daemon"), ("g", "child")] {
            try await session.send(key)
            let screen = try await session.waitFor("\(label) ")
            let match = try #require(screen.joined().firstMatch(of: try Regex("\(label) ([0-9]+)")))
            let digits = match.output[1].substring.map(String.init) ?? ""
            pids.append(hostPID(of: try #require(pid_t(digits))))
        }
        #expect(pids.allSatisfy(isRunning), "the app's descendants run: \(pids)")
        return pids
    }

    /// The process whose id in the hostile app's world (its own PID namespace) is `inner`, as this
    /// process sees it; `inner` itself where apps have no world.
    static func hostPID(of inner: pid_t) -> pid_t {
        let processes = ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap { pid_t($0) }
        func namespace(_ pid: pid_t) -> String? { try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/ns/pid") }
        let app = processes.first { pid in
            ((try? String(contentsOfFile: "/proc/\(pid)/cmdline", encoding: .utf8)) ?? "").contains("hostile.py")
        }
        guard let app, let world = namespace(app), world != namespace(getpid()) else { return inner }
        return processes.first { pid in
            guard namespace(pid) == world, let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
                  let line = status.split(separator: "\n").first(where: { $0.hasPrefix("NSpid:") }) else { return false }
            return line.split(whereSeparator: { $0 == "\t" || $0 == " " }).last.flatMap { pid_t($0) } == inner
        } ?? inner
    }

    /// True while `pid` is a live process (not a zombie waiting to be reaped).
    static func isRunning(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let end = stat.lastIndex(of: ")") else { return false }
        return !stat[end...].hasPrefix(") Z")
    }

    static func expectGone(_ pids: [pid_t], _ when: String) async throws {
        defer { for pid in pids where isRunning(pid) { kill(pid, SIGKILL) } }
        try await eventually("\(when): the end of \(pids.filter(isRunning))", within: .seconds(3)) { !pids.contains(where: isRunning) }
    }

    @Test func whatAnAppStartsEndsWithItsPane() async throws {
        let (session, _) = try await Self.start(apps: ["hostile"], panes: Self.hostilePanes)
        try await session.waitFor("size ")
        let pids = try await Self.startDescendants(session)
        try await session.send("C-e", "x", "y")
        try await session.waitForScreen("the pane is gone") { !$0.joined().contains("Hostile") }
        try await Self.expectGone(pids, "after the pane was removed")
        try await session.send("Enter", "q")
        #expect(try await session.waitForExit().status == 0)
    }

    @Test func whatAnAppStartsEndsWhenTheDashboardQuitsOrIsKilled() async throws {
        let (session, environment) = try await Self.start(apps: ["hostile"], panes: Self.hostilePanes)
        try await session.waitFor("size ")
        var pids = try await Self.startDescendants(session)
        try await session.send("q")
        #expect(try await session.waitForExit().status == 0)
        try await Self.expectGone(pids, "after quitting")

        // kill -9 gives the dashboard no say: the app's keeper ends them when it dies.
        let again = try await Self.dashboard(environment)
        try await again.waitFor("size ")
        pids = try await Self.startDescendants(again)
        pids.append(try #require(Self.pidOf("hostile.py")))
        kill(try #require(await again.programPID()), SIGKILL)
        try await Self.expectGone(pids, "after kill -9 of the dashboard")
    }

    /// The id of the one process whose command line holds `text`.
    static func pidOf(_ text: String) -> pid_t? {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap { entry -> pid_t? in
            guard let pid = pid_t(entry), let data = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline") else { return nil }
            return String(decoding: data, as: UTF8.self).contains(text) ? pid : nil
        }.first
    }

    @Test func refusedPublishesShowInTheTitleAndTheLogSaysWhy() async throws {
        let (session, environment) = try await Self.start(apps: ["hostile"], panes: Self.hostilePanes)
        try await session.waitFor("size ")
        try await session.send("p")
        try await session.waitFor("Hostile · 3 refused")
        // Until the pane gains the focus again.
        try await session.send("Tab", "BTab")
        try await session.waitForScreen("the mark is gone from the title") { $0.first?.contains("refused") == false }
        try await session.send("q")
        #expect(try await session.waitForExit().status == 0)
        let log = try Self.appLog("hostile", environment)
        #expect(log.contains("refused: publish of calendar.date.selected, which it did not declare or was not granted"), "\(log)")
        #expect(log.contains("ended: exit 0"), "the stop line: \(log)")
    }

    @Test func f5AndAnInstallAgainRestartARunningAppWithItsState() async throws {
        let (session, environment) = try await Self.start(apps: ["hostile"], panes: Self.hostilePanes)
        try await session.waitFor("run 1")
        try await session.send("F5")
        try await session.waitFor("run 2")
        // Installed again from a changed copy while it runs: its pane restarts it, the new one.
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("hostile-\(UUID().uuidString.prefix(8))")
        try FileManager.default.copyItem(at: Self.fixtures.appendingPathComponent("hostile"), to: copy)
        defer { try? FileManager.default.removeItem(at: copy) }
        let script = copy.appendingPathComponent("hostile.py")
        try (try String(contentsOf: script, encoding: .utf8)).replacingOccurrences(of: "f\"size {size} run {runs}\"", with: "f\"size {size} run {runs} v2\"")
            .write(to: script, atomically: true, encoding: .utf8)
        try Self.run(["apps", "add", copy.path, "--replace"], environment)
        try await session.waitFor("run 3 v2")
        try await session.send("q")
        #expect(try await session.waitForExit().status == 0)
        // Three processes, each ended on its own: F5's, the install's, the quit's.
        let log = try Self.appLog("hostile", environment)
        #expect(log.components(separatedBy: "host: started ").count - 1 == 3, "\(log)")
        #expect(log.components(separatedBy: "host: ended: ").count - 1 == 3, "\(log)")
    }

    /// The dashboard again, in the environment `start` made.
    static func dashboard(_ environment: [String: String]) async throws -> TmuxSession {
        try await TmuxSession([Products.termcanvas.path, "--date", "2026-11-22"], size: Size(width: 120, height: 36), environment: environment)
    }

    /// An app's log as `termcanvas apps log` prints it.
    static func appLog(_ id: String, _ environment: [String: String]) throws -> String {
        let result = try Command.runBlocking([Products.termcanvas.path, "apps", "log", id], environment: environment)
        return result.output
    }
}
