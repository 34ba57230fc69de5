import Foundation
import TestSupport
import Testing

/// Issue 40, item 11: `termcanvas apps try DIR` runs an app as a pane would, without a dashboard,
/// hands it keys and events in the order given, prints each view, and fails with the reason when
/// the app breaks a rule of the protocol.
struct AppsTryTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let fixtures = repository.appendingPathComponent("Tests/EndToEndTests/Fixtures/apps")

    static func run(_ arguments: [String]) async throws -> Command.Result {
        let home = try DashboardSessionTests.isolatedHome()
        defer { home.remove() }
        return try await Command.run([Products.termcanvas.path, "apps", "try"] + arguments, environment: home.environment)
    }

    /// The steps `--json` printed, each a JSON object.
    static func steps(_ output: String) throws -> [[String: Any]] {
        try output.split(separator: "\n").filter { $0.hasPrefix("{") }.map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    @Test func keysAndEventsGoInTheOrderGivenAndEachStepShowsItsViewPublishesAndState() async throws {
        let result = try await Self.run([Self.fixtures.appendingPathComponent("counter").path, "--size", "80x4", "--json",
                                         "--event", #"calendar.date.selected={"date":"2026-11-26"}"#, "--key", "+", "--key", "tab"])
        #expect(result.status == 0, "\(result.output)")
        let steps = try Self.steps(result.output)
        try #require(steps.count == 4, "\(result.output)")
        #expect(steps.map { $0["step"] as? String } == ["first view", "event calendar.date.selected", "key +", "key tab"])
        let views = steps.map { $0["view"] as? [String] ?? [] }
        #expect(views[0].first?.hasPrefix("count 0") == true)
        // The event came first: heard, not yet counted.
        #expect(views[1].first?.hasPrefix("count 0") == true)
        #expect(views[1].dropFirst().first?.contains(#"heard calendar.date.selected {"date": "2026-11-26"}"#) == true, "\(views[1])")
        #expect(views[2].first?.hasPrefix("count 1") == true)
        #expect(views.prefix(3).allSatisfy { $0.count == 4 && $0.allSatisfy { $0.count == 80 } })
        let published = try #require(steps[2]["published"] as? [[String: Any]])
        #expect(published.first?["name"] as? String == "counter.count.changed")
        #expect((steps[2]["state"] as? [String: Int])?["count"] == 1)
        #expect((steps[3]["note"] as? String)?.contains("the canvas keeps it (canvas.focus.next)") == true)
    }

    /// Issue 55, item 12: a typo such as `publish` for `bus.publish` was ignored silently, so the
    /// author never learned why nothing was published. It is warned of, and the run still passes.
    @Test func aNotificationNoHostKnowsIsWarnedOfNotFailed() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("typo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try "id: typo\nname: Typo\nversion: 1.0.0\nprotocol: 1\nexec: [python3, -u, typo.py]\n"
            .write(to: folder.appendingPathComponent("app.yaml"), atomically: true, encoding: .utf8)
        try """
            import json, sys
            for line in sys.stdin:
                message = json.loads(line)
                if message.get("method") == "initialize":
                    print(json.dumps({"jsonrpc": "2.0", "method": "publish", "params": {"name": "typo.thing.done"}}))
                    print(json.dumps({"jsonrpc": "2.0", "method": "publish", "params": {"name": "typo.thing.done"}}))
                    view = {"revision": 1, "root": {"type": "text", "text": "hello"}}
                    print(json.dumps({"jsonrpc": "2.0", "id": message["id"], "result": {"protocol": "1.0", "view": view}}))
                elif message.get("method") == "shutdown":
                    print(json.dumps({"jsonrpc": "2.0", "id": message["id"], "result": None}))
                    break

            """.write(to: folder.appendingPathComponent("typo.py"), atomically: true, encoding: .utf8)
        let result = try await Self.run([folder.path, "--size", "20x2"])
        #expect(result.status == 0, "\(result.output)")
        let warning = "warning: `publish` is not a notification of protocol 1.1: did you mean `bus.publish`?"
        #expect(result.output.components(separatedBy: warning).count == 2, "said once: \(result.output)")
    }

    /// Issue 55, item 12: a setting given as a pane's, and time let pass for a timer's ticks.
    @Test func settingsAndWaitsAreTried() async throws {
        let counted = try await Self.run([Self.fixtures.appendingPathComponent("counter").path, "--size", "30x4", "--json",
                                          "--setting", "step=10", "--key", "+"])
        #expect(counted.status == 0, "\(counted.output)")
        let steps = try Self.steps(counted.output)
        #expect((steps.last?["view"] as? [String])?.first?.hasPrefix("count 10") == true, "\(counted.output)")

        let refused = try await Self.run([Self.fixtures.appendingPathComponent("counter").path, "--setting", "step=5"])
        #expect(refused.status == 64 && refused.output.contains("--setting step=5: step is one of 1, 10"), "\(refused.output)")
        let unknown = try await Self.run([Self.fixtures.appendingPathComponent("counter").path, "--setting", "stp=10"])
        #expect(unknown.status == 64 && unknown.output.contains("counter declares no setting stp (it declares: step)"), "\(unknown.output)")

        let ticked = try await Self.run([Self.repository.appendingPathComponent("apps/pomodoro").path, "--size", "30x4", "--key", "space",
                                         "--wait", "2s"])
        #expect(ticked.status == 0, "\(ticked.output)")
        let waited = try #require(ticked.output.components(separatedBy: "── wait 2s ──").last)
        #expect(waited.contains("24:58 left") || waited.contains("24:57 left"), "\(waited)")
        let bad = try await Self.run([Self.repository.appendingPathComponent("apps/pomodoro").path, "--wait", "2 hours"])
        #expect(bad.status == 64 && bad.output.contains("--wait 2 hours: give a time of 100ms to 10m"), "\(bad.output)")
    }

    @Test func theTextFormFramesEachViewAtThePanesSize() async throws {
        let result = try await Self.run([Self.repository.appendingPathComponent("apps/pomodoro").path, "--size", "40x4", "--key", "space"])
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("Pomodoro 1.0.0 (pomodoro) in a 40×4 pane, with none of your files, network or programs"))
        #expect(result.output.contains("── key space ──\n┌" + String(repeating: "─", count: 40) + "┐\n│Work · 0 done · running "))
        #expect(result.output.components(separatedBy: "\n").filter { $0.hasPrefix("│") }.allSatisfy { $0.count == 42 })
    }

    /// An undeclared publish and backend path, a crash, a silent start: each is a broken rule,
    /// named on stderr, and the exit status is 1.
    @Test(arguments: [
        (["counter", "--key", "x"], "publish of calendar.date.selected, which it did not declare or was not granted"),
        (["counter", "--key", "s"], "GET /api/chat/channels is not among the backend paths it declared"),
        (["counter", "--key", "c"], "key c: it ended (exit 3)"),
        (["silent"], "first view: it stopped: did not answer within 1 s"),
    ])
    func aBrokenRuleIsNamedAndFails(_ example: ([String], String)) async throws {
        let result = try await Self.run([Self.fixtures.appendingPathComponent(example.0[0]).path] + example.0.dropFirst())
        #expect(result.status == 1, "\(result.output)")
        #expect(result.output.contains("broke a rule at"), "\(result.output)")
        #expect(result.output.contains(example.1), "\(result.output)")
        #expect(!result.output.contains("Usage:"))
    }

    /// The shipped examples, as their authors would try them.
    @Test(arguments: [(["pomodoro", "--key", "space", "--key", "n"], "Break"), (["homedisk"], "used on /"), (["sysmon", "--grant"], "CPU")])
    func theShippedAppsKeepEveryRule(_ example: ([String], String)) async throws {
        let result = try await Self.run([Self.repository.appendingPathComponent("apps/\(example.0[0])").path, "--size", "60x10"] + example.0.dropFirst())
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains(example.1), "\(result.output)")
    }

    /// A fork bomb stops at the processes its manifest declares (`limits.processes: 16`): the
    /// kernel refuses its next fork (RLIMIT_NPROC), so the user's other programs can still start.
    /// In its world the kernel counts its tasks alone, as root too (issue 51: root's apps are not
    /// root there); `apps try` runs as the user the test runs as.
    @Test func aForkBombStopsAtItsProcessLimit() async throws {
        let home = try DashboardSessionTests.isolatedHome(canvasLayout: false)
        defer { home.remove() }
        // In the test's home (mode 0700), as a checkout may lie in a folder closed to others: it is
        // read by the effective user, as it is opened, not by the real one.
        let app = home.url.appendingPathComponent("forker")
        try FileManager.default.copyItem(at: Self.fixtures.appendingPathComponent("forker"), to: app)
        let command = [Products.termcanvas.path, "apps", "try", app.path, "--json"]
        let result = try await Command.run(command, environment: home.environment)
        #expect(result.status == 0, "\(result.output)")
        let view = try #require(try Self.steps(result.output).first?["view"] as? [String], "\(result.output)").joined()
        let started = try #require(view.firstMatch(of: /started=(\d+) refused=(\w+)/), "\(view)")
        // Its allowance is 16 tasks of its world's (the interpreter among them).
        #expect((4...16).contains(Int(started.1) ?? 0) && started.2 == "EAGAIN", "\(view)")
    }

    /// Root without its capabilities (setpriv, a container with them dropped) can map no id into
    /// a world: `apps try` says the app is partly sandboxed, why, and what to do, and runs it.
    @Test(.enabled(if: getuid() == 0)) func rootWithoutCapabilitiesIsToldItsAppsArePartlySandboxed() async throws {
        let home = try DashboardSessionTests.isolatedHome(canvasLayout: false)
        defer { home.remove() }
        let command = ["setpriv", "--inh-caps=-all", "--bounding-set=-all", Products.termcanvas.path, "apps", "try",
                       Self.repository.appendingPathComponent("apps/pomodoro").path, "--size", "60x10"]
        let result = try await Command.run(command, environment: home.environment)
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("Partly sandboxed on this system: no namespaces of its own, because the dashboard runs as root without the capabilities"),
                "\(result.output)")
        #expect(result.output.contains("25:00"), "\(result.output)")
    }
}
