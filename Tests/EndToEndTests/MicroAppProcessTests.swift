import CanvasCore
import TestSupport
import Foundation
import Testing

/// Process micro-apps in the real dashboard in tmux: the fixture apps of `Fixtures/apps`, installed
/// and granted with `termcanvas apps`, each beside built-in panes that must keep working.
@Suite(.serialized)
struct MicroAppProcessTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/apps")

    /// A dashboard whose default layout holds `panes` (`app x y width height` on the 12×12 grid),
    /// with `apps` installed and granted.
    static func start(apps: [String], panes: [String], size: Size = Size(width: 120, height: 36),
                      adding extra: [String: String] = [:]) async throws
        -> (session: TmuxSession, environment: [String: String]) {
        let home = try DashboardSessionTests.isolatedHome(canvasLayout: false)
        let environment = home.environment.merging(extra) { $1 }
        let layouts = URL(fileURLWithPath: environment["XDG_CONFIG_HOME"]! + "/termcanvas/layouts")
        try FileManager.default.createDirectory(at: layouts, withIntermediateDirectories: true)
        let lines = panes.enumerated().map { index, pane in
            let f = pane.split(separator: " ")
            return "  - { id: \(index + 1), app: \(f[0]), x: \(f[1]), y: \(f[2]), width: \(f[3]), height: \(f[4]) }"
        }
        try (["name: \"default\"", "focused: 1", "panes:"] + lines).joined(separator: "\n")
            .write(to: layouts.appendingPathComponent("default.yaml"), atomically: true, encoding: .utf8)
        for app in apps {
            try run(["apps", "add", fixtures.appendingPathComponent(app).path], environment)
            try run(["apps", "grant", app], environment)
        }
        return (try await TmuxSession([Products.termcanvas.path, "--date", "2026-11-22"], size: size, environment: environment), environment)
    }

    static func run(_ arguments: [String], _ environment: [String: String]) throws {
        let result = try Command.runBlocking([Products.termcanvas.path] + arguments, environment: environment)
        #expect(result.status == 0, "termcanvas \(arguments.joined(separator: " ")): \(result.output)")
    }

    /// Processes whose command line holds `text`.
    static func processes(_ text: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap { entry in
            guard Int32(entry) != nil, let data = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline") else { return nil }
            let command = String(decoding: data.map { $0 == 0 ? 0x20 : $0 }, as: UTF8.self)
            return command.contains(text) ? command : nil
        }
    }

    static func residentKiB(_ pid: pid_t) -> Int {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }

    @Test func keysStateAndEventsGoBothWays() async throws {
        let (session, environment) = try await Self.start(apps: ["counter"], panes: ["counter 0 0 6 6", "calendar 6 0 6 6", "eventlog 0 6 12 6"])
        try await session.waitFor("count 0")
        try await session.send("+")
        try await session.waitFor("count 1")
        try await session.waitFor("counter.count.changed count 1")  // its publish, in the Event Log
        // The calendar's selection reaches the app, which subscribed to it.
        try await session.send("Tab", "Right")
        try await session.waitFor(#"heard calendar.date.selected {"date": "2026-11-23"}"#)
        // What it did not declare is refused: a calendar event it may not publish, a path it may not call.
        try await session.send("BTab", "x")
        try await session.send("s")
        try await session.waitFor(#"answer {"code": -32001, "message": "not permitted:"#)
        // The refused publish never reached the bus: the log holds the calendar's own selection only.
        #expect(try await session.screen().filter { $0.contains(/\d\d:\d\d:\d\d calendar\.date\.selected/) }.count == 1)
        try await session.send("q")
        #expect(try await session.waitForExit().status == 0)
        #expect(Self.processes("counter.py").isEmpty)

        // The count was kept with the layout and handed back.
        let again = try await TmuxSession([Products.termcanvas.path, "--date", "2026-11-22"], size: Size(width: 120, height: 36),
                                          environment: environment)
        try await again.waitFor("count 1")
        try await again.send("q")
        #expect(try await again.waitForExit().status == 0)

        // A changed manifest is asked about again.
        let manifest = URL(fileURLWithPath: environment["XDG_CONFIG_HOME"]! + "/termcanvas/apps/counter/app.yaml")
        try (try String(contentsOf: manifest, encoding: .utf8) + "# changed\n").write(to: manifest, atomically: true, encoding: .utf8)
        let changed = try await TmuxSession([Products.termcanvas.path, "--date", "2026-11-22"], size: Size(width: 120, height: 36),
                                            environment: environment)
        try await changed.waitFor("Counter 1.0.0 asks to run: y allows · n refuses")
        #expect(Self.processes("counter.py").isEmpty, "nothing runs before the user says so")
        try await changed.send("y")
        try await changed.waitFor("count 1")
        try await changed.send("q")
        #expect(try await changed.waitForExit().status == 0)
    }

    /// Issue 40, items 13 and 14: the settings the counter declares are changed with `s` in
    /// arrange mode and reach it at once; restarted, it starts knowing the day the calendar chose.
    @Test func anAppsSettingsAreChangedInItsPaneAndARestartKnowsTheDay() async throws {
        let (session, environment) = try await Self.start(apps: ["counter"], panes: ["counter 0 0 6 6", "calendar 6 0 6 6"])
        try await session.waitFor("step 1")
        try await session.send("C-e", "s")
        try await session.waitFor("Count by: 1")
        try await session.send("Enter")
        try await session.waitFor("Count by: 10")
        try await session.send("Escape")
        try await session.pressEscape(times: 1)
        try await session.waitFor("NORMAL")
        try await session.waitFor("step 10")
        try await session.send("+")
        try await session.waitFor("count 10")
        try await session.send("Tab", "Right")
        try await session.waitFor(#"heard calendar.date.selected {"date": "2026-11-23"}"#)
        try await session.send("BTab", "F5")
        try await session.waitFor(#"heard calendar.date.selected {"date": "2026-11-23"} before"#)
        try await session.send("q")
        #expect(try await session.waitForExit().status == 0)

        // The setting was kept with the layout.
        let again = try await TmuxSession([Products.termcanvas.path, "--date", "2026-11-22"], size: Size(width: 120, height: 36),
                                          environment: environment)
        try await again.waitFor("step 10")
        try await again.send("q")
        #expect(try await again.waitForExit().status == 0)
    }

    /// What the kernel holds the shipped sysmon to (its manifest's limits, the others the defaults).
    static let sysmonLimits = "at most 128 MiB of memory, 256 processes, 256 MiB kept in its folders, 64 open files"

    @Test func theGrantPromptSaysWhatTheSandboxGivesOrThatThereIsNone() async throws {
        let (session, environment) = try await Self.start(apps: [], panes: ["sysmon 0 0 12 12"])
        let screen = try await session.waitFor("nothing else of your files, network or processes")
        #expect(screen.contains { $0.contains("It runs in a sandbox with what is listed here:") })
        #expect(screen.contains { $0.contains("• reads /proc") })
        #expect(screen.contains { $0.contains("• " + Self.sysmonLimits) })
        try await session.send("q")
        _ = try await session.waitForExit()
        let listed = try Command.runBlocking([Products.termcanvas.path, "apps", "list"], environment: environment)
        #expect(listed.output.contains("sysmon\t1.0.0\tSystem monitor\tprotocol 1.0\tshipped\tnot granted\tsandboxed: reads /proc; \(Self.sysmonLimits)\t"))

        // A kernel without Landlock that refuses namespaces, simulated: both say so.
        let simulated = ["TERMCANVAS_SIMULATE_NO_LANDLOCK": "1", "TERMCANVAS_SIMULATE_NO_NAMESPACES": "1"]
        let (bare, bareEnvironment) = try await Self.start(apps: [], panes: ["sysmon 0 0 12 12"], adding: simulated)
        let bareScreen = try await bare.waitFor("Not sandboxed on this system")
        #expect(!bareScreen.contains { $0.contains("nothing else of your") })
        try await bare.send("q")
        _ = try await bare.waitForExit()
        let bareList = try Command.runBlocking([Products.termcanvas.path, "apps", "list"], environment: bareEnvironment)
        #expect(bareList.output.contains("sysmon\t1.0.0\tSystem monitor\tprotocol 1.0\tshipped\tnot granted\tnot sandboxed\t"))
        #expect(bareList.output.contains("apps are not sandboxed on this system: namespaces are off (TERMCANVAS_SIMULATE_NO_NAMESPACES=1); no Landlock: Landlock is off"))
        // A grant given in a sandbox does not carry over to a system without one.
        let sandboxed = bareEnvironment.filter { !simulated.keys.contains($0.key) }
        #expect(try Command.runBlocking([Products.termcanvas.path, "apps", "grant", "sysmon"], environment: sandboxed).status == 0)
        let granted = try Command.runBlocking([Products.termcanvas.path, "apps", "list"], environment: sandboxed)
        #expect(granted.output.contains("sysmon\t1.0.0\tSystem monitor\tprotocol 1.0\tshipped\tgranted\tsandboxed: reads /proc; \(Self.sysmonLimits)\t"))
        let lacking = try Command.runBlocking([Products.termcanvas.path, "apps", "list"], environment: bareEnvironment)
        #expect(lacking.output.contains("sysmon\t1.0.0\tSystem monitor\tprotocol 1.0\tshipped\tgranted in a sandbox this system lacks\tnot sandboxed\t"))
        // And a model's app gets no trial run: refused before the model is asked (nothing listens there).
        let refused = try Command.runBlocking([Products.termcanvas.path, "apps", "new", "quick notes", "--base-url", "http://127.0.0.1:9/v1",
                                               "--model", "m"], environment: bareEnvironment)
        #expect(refused.status != 0)
        #expect(refused.output.contains("no Landlock: Landlock is off (TERMCANVAS_SIMULATE_NO_LANDLOCK=1): the trial run would run"))
        #expect(refused.output.contains("--trial-without-sandbox"))
    }

    /// Issue 40: the README's own step — a copy of a shipped app installed with `apps add`, no
    /// `--replace` — must not restart the running shipped app (a pomodoro lost its count).
    @Test func aCopyOfAShippedAppWaitsForTheNextStartUnlessReplaced() async throws {
        let (session, environment) = try await Self.start(apps: [], panes: ["pomodoro 0 0 8 8", "calendar 8 0 4 8"])
        try await session.waitFor("Pomodoro 1.0.0 asks to run")
        try await session.send("y")
        try await session.waitFor("Work · 0 done · ready")
        try await session.send("Space")
        try await session.waitFor("Work · 0 done · running")
        try await session.waitFor("24:5")  // a few seconds into the session

        let copy = URL(fileURLWithPath: environment["HOME"]! + "/pomodoro")
        let shipped = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("apps/pomodoro")
        try FileManager.default.copyItem(at: shipped, to: copy)
        let added = try Command.runBlocking([Products.termcanvas.path, "apps", "add", copy.path], environment: environment)
        #expect(added.status == 0)
        #expect(added.output.contains("takes the place of the shipped pomodoro when a dashboard starts"), "\(added.output)")
        // Still the same session, still counting: no restart, no notice of one. (The time shown
        // after the add, not a fixed one: under load the add alone can take seconds.)
        let shownAfterAdd = try #require(Self.timeLeft(on: try await session.screen()))
        let screen = try await session.waitForScreen("the time left to go below \(shownAfterAdd) s") {
            Self.timeLeft(on: $0).map { $0 < shownAfterAdd } ?? false
        }
        #expect(screen.joined().contains("Work · 0 done · running"))
        #expect(!screen.joined().contains("Restarted Pomodoro"))
        #expect(!(try String(contentsOfFile: environment["XDG_STATE_HOME"]! + "/termcanvas/termcanvas.log", encoding: .utf8))
            .contains("micro-apps installed again"))

        // With --replace it restarts now, with the copy.
        let replaced = try Command.runBlocking([Products.termcanvas.path, "apps", "add", copy.path, "--replace"], environment: environment)
        #expect(replaced.output.contains("Installed pomodoro 1.0.0 again; its panes in running dashboards restart"), "\(replaced.output)")
        try await session.waitFor("Restarted Pomodoro, installed again")
        try await session.send("q")
        #expect(try await session.waitForExit().status == 0)
    }

    /// The seconds a pomodoro pane shows as left ("24:50 left" is 1490).
    static func timeLeft(on screen: [String]) -> Int? {
        for row in screen {
            guard let match = row.firstMatch(of: /(\d\d):(\d\d) left/), let minutes = Int(match.1), let seconds = Int(match.2) else { continue }
            return minutes * 60 + seconds
        }
        return nil
    }

    @Test func theAppsCommandSaysWhatItDidAndIsClearOnMistakes() throws {
        let home = try DashboardSessionTests.isolatedHome(canvasLayout: false)
        defer { home.remove() }
        let environment = home.environment
        func termcanvas(_ arguments: String...) throws -> (status: Int32, output: String) {
            let result = try Command.runBlocking([Products.termcanvas.path] + arguments, environment: environment)
            return (result.status, result.output)
        }
        let bad = URL(fileURLWithPath: environment["HOME"]! + "/bad")
        try FileManager.default.createDirectory(at: bad, withIntermediateDirectories: true)
        try "id: bad\nname: Bad\nversion: 1.0.0\nprotocol: 1\nexec: [sh, x.sh]\nevents: { publishes: [todo.item.created] }\n"
            .write(to: bad.appendingPathComponent("app.yaml"), atomically: true, encoding: .utf8)
        let refused = try termcanvas("apps", "add", bad.path)
        #expect(refused.status != 0)
        #expect(refused.output.contains("app.yaml:6:23: events.publishes[0]: an app publishes only its own events"))

        let added = try termcanvas("apps", "add", Self.fixtures.appendingPathComponent("counter").path)
        #expect(added.status == 0)
        #expect(added.output.hasPrefix("Installed counter 1.0.0 in ") && added.output.contains("offer it in their catalog"), "\(added.output)")
        #expect(try termcanvas("apps", "add", Self.fixtures.appendingPathComponent("counter").path).status != 0)
        let granted = try termcanvas("apps", "grant", "counter")
        #expect(granted.status == 0 && granted.output.hasPrefix("Granted counter 1.0.0 what its app.yaml asks for"), "\(granted.output)")
        let listed = try termcanvas("apps", "list")
        #expect(listed.output.contains("counter\t1.0.0\tCounter\tprotocol 1.0\tuser\tgranted"))
        #expect(listed.output.contains("sysmon\t1.0.0\tSystem monitor\tprotocol 1.0\tshipped\tnot granted"))
        #expect(try termcanvas("apps", "remove", "sysmon").output.contains("sysmon is shipped with TermCanvas and cannot be removed"))
        #expect(try termcanvas("apps", "log", "counter").output.contains("counter has no log yet"))
        #expect(try termcanvas("apps", "revoke", "counter") == (0, "Took back counter's grant: it asks again before it runs.\n"))
        #expect(try termcanvas("apps", "remove", "counter") == (0, "Removed counter and its grant.\n"))
        #expect(try termcanvas("apps", "grant", "counter").output.contains("no micro-app 'counter' is installed"))
        let mode = try FileManager.default.attributesOfItem(atPath: environment["XDG_CONFIG_HOME"]! + "/termcanvas/apps")[.posixPermissions] as? Int
        #expect(mode == 0o700)

        // An app whose program is a file of its folder: it stays a program (0700), the rest 0600.
        let runner = URL(fileURLWithPath: environment["HOME"]! + "/runner")
        try FileManager.default.createDirectory(at: runner, withIntermediateDirectories: true)
        try "id: runner\nname: Runner\nversion: 1.0.0\nprotocol: 1\nexec: ./run\n".write(to: runner.appendingPathComponent("app.yaml"), atomically: true, encoding: .utf8)
        try "#!/bin/sh\nexec sleep 60\n".write(to: runner.appendingPathComponent("run"), atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: runner.appendingPathComponent("run").path)
        #expect(try termcanvas("apps", "add", runner.path).status == 0)
        let installed = environment["XDG_CONFIG_HOME"]! + "/termcanvas/apps/runner/"
        #expect(try FileManager.default.attributesOfItem(atPath: installed + "run")[.posixPermissions] as? Int == 0o700)
        #expect(try FileManager.default.attributesOfItem(atPath: installed + "app.yaml")[.posixPermissions] as? Int == 0o600)
    }

    @Test func aHungAppNeitherHoldsTheCanvasNorOutlivesIt() async throws {
        let (session, _) = try await Self.start(apps: ["silent", "stubborn"], panes: ["silent 0 0 6 6", "stubborn 6 0 6 6", "calendar 0 6 12 6"])
        try await session.waitFor("did not answer within 1 s")
        try await session.waitFor("stubborn")
        #expect(Self.processes("sleep 1000").isEmpty, "the silent app's group was killed with it")
        // Keys to the other panes are answered at once.
        try await session.send("Tab", "Tab", "Right")
        try await session.waitFor("Monday, 23 November 2026", timeout: .seconds(2))
        let pid = try #require(await session.programPID())
        #expect(Self.processes("stubborn.py").count == 1)
        let quitting = ContinuousClock.now
        try await session.send("q")
        try await eventually("the dashboard's exit", within: .seconds(5), every: .milliseconds(5)) { kill(pid, 0) != 0 }
        let took = ContinuousClock.now - quitting
        #expect(took < .seconds(1), "quitting took \(took)")
        #expect(try await session.waitForExit().status == 0)
        #expect(Self.processes("stubborn.py").isEmpty, "the app that ignores SIGTERM was killed")
    }

    @Test func floodsAndEscapeSequencesNeitherGrowTheHostNorReachTheTerminal() async throws {
        let (session, _) = try await Self.start(apps: ["flood", "escapes"], panes: ["flood 0 0 6 6", "escapes 6 0 6 6", "calendar 0 6 12 6"])
        try await session.waitFor("flood done", timeout: .seconds(60))
        let pid = try #require(await session.programPID())
        #expect(Self.residentKiB(pid) < 150 * 1024, "host RSS \(Self.residentKiB(pid)) KiB after 100 MB of views")
        try await session.send("Tab", "Tab", "Right")
        try await session.waitFor("Monday, 23 November 2026", timeout: .seconds(2))
        let attributed = try await HostileInputTests.screenWithAttributes(session)
        let foreign = HostileInputTests.foreignEscapes(attributed)
        #expect(foreign.isEmpty, "escape sequences on screen: \(foreign)")
        #expect(attributed.contains("␛]0;pwned"), "drawn as placeholders")
        #expect(!(try await session.format("#{pane_title}")).contains("pwned"))
        try await session.send("q")
        #expect(try await session.waitForExit().status == 0)
    }

    @Test func aCrashingAppBacksOffStopsAndComesBackOnRWithItsState() async throws {
        let (session, _) = try await Self.start(apps: ["crasher"], panes: ["crasher 0 0 6 12", "eventlog 6 0 6 12"])
        try await session.waitFor("exit 1; restarting in 1 s")
        try await session.waitFor("canvas.app.crashed crasher: exit 1")
        try await session.waitFor("crashed 5 times in 2 minutes", timeout: .seconds(40))
        try await session.send("r")
        try await session.waitFor("runs 6")  // the state the fifth run saved, handed to the sixth
        try await session.send("q")
        #expect(try await session.waitForExit().status == 0)
    }
}
