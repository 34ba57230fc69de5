import CanvasCore
import TestSupport
import Foundation
import Testing

/// Remote micro-apps as a team meets them: `apps/deploys` published to a real server by its admin
/// with `termcanvas apps publish`, its entry (`entry.py`) a real process on loopback, dashboards in
/// tmux mounting it from the catalog, and webhooks signed as a CI signs them (`hook.sh`, openssl).
@Suite("Remote micro-apps end to end", .serialized)
struct RemoteAppsEndToEndTests {
    static let deploys = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("apps/deploys")
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/entries")

    @Test("published, offered in the catalog, mounted, answering keys; down and up with its entry; a newer version at the next mount")
    func publishMountHealthAndVersions() async throws {
        let server = try await TeamServer.start(users: ["alice"], admins: ["alice"], options: ["--health-interval", "1"])
        defer { server.stop() }
        let environment = try await server.logIn("alice", canvasLayout: true)
        let entry = DeploysEntry()
        defer { entry.stop() }
        let secrets = try #require(try await DeploysEntry.publish(Self.deploys, entry: entry.url, to: server, environment))
        try await entry.start(secret: secrets.entry)
        try await server.waitForHealth(of: "deploys", "up", as: "alice")

        let session = try await server.dashboard(environment)
        try await session.waitFor("bff.registry.loaded")
        let pane = try await Self.addFromCatalog("Deploys 1.0.0", session)
        #expect(pane.catalogLine.contains("remote, up"), "\(pane.catalogLine)")
        try await session.waitFor("\(pane.number) Deploys 1.0.0 · asks for permission")
        try await session.send("y")
        try await session.waitFor("No builds yet")
        try await session.waitFor("Deploys 1.0.0 · up")

        // A build from the CI, then `c`: the entry answers the key with a new view.
        try await Self.sendHook(#"{"event":"deploys.build.finished","data":{"build":7,"status":"passed"}}"#, secret: secrets.hook, to: server)
        try await session.waitFor("1 builds, 1 passed")
        try await session.send("c")
        try await session.waitFor("0 builds, 0 passed")

        // The entry stops: the title says since when, the last view stays.
        entry.stop()
        let down = try await session.waitFor("Deploys 1.0.0 · down since", timeout: .seconds(15))
        #expect(down.contains { $0.contains("0 builds, 0 passed") })
        // It starts again: the pane recovers by itself, with a session of the new process.
        try await entry.start(secret: secrets.entry)
        try await session.waitFor("Deploys 1.0.0 · up", timeout: .seconds(40))
        try await Self.sendHook(#"{"event":"deploys.build.finished","data":{"build":8,"status":"failed"}}"#, secret: secrets.hook, to: server)
        try await session.waitFor("1 builds, 0 passed", timeout: .seconds(40))

        // A newer version published while the canvas runs: the pane keeps the one it mounted, the
        // next mount takes the new one.
        let newer = try Self.copy(of: Self.deploys, version: "1.1.0")
        defer { try? FileManager.default.removeItem(at: newer) }
        #expect(try await DeploysEntry.publish(newer, entry: entry.url, to: server, environment) == nil)  // secrets only at the first
        let again = try await Self.addFromCatalog("Deploys 1.1.0", session)
        try await session.waitFor("\(again.number) Deploys 1.1.0 · up")
        let screen = try await session.waitFor("\(pane.number) Deploys 1.0.0 · up")
        #expect(!screen.contains { $0.contains("\(pane.number) Deploys 1.1.0") })

        try await session.send("C-q")
        #expect(try await session.waitForExit().status == 0)
    }

    @Test("a signed webhook reaches two dashboards' Event Logs within a second; unsigned, badly signed, stale or replayed ones are refused and reach nobody")
    func webhooks() async throws {
        let server = try await TeamServer.start(users: ["alice", "bob", "carol"], admins: ["alice"])
        defer { server.stop() }
        let alice = try await server.logIn("alice", canvasLayout: true)
        let secrets = try #require(try await DeploysEntry.publish(Self.deploys, entry: "http://127.0.0.1:9/", to: server, alice))
        // The app is granted to alice and bob; carol never allowed it.
        for user in ["alice", "bob"] {
            let granted = try await Command.run(["curl", "-sf", "-o", "/dev/null", "-X", "PUT", server.url + "/api/registry/apps/deploys/grant",
                                                 "-H", "Authorization: Bearer \(try await server.token(user))"])
            try #require(granted.status == 0, "\(granted.output)")
        }
        var dashboards: [TmuxSession] = []
        for user in ["alice", "bob", "carol"] {
            let session = try await server.dashboard(user == "alice" ? alice : try await server.logIn(user, canvasLayout: true))
            // Loaded from the server: its live stream is open.
            try await session.waitFor("bff.registry.loaded")
            dashboards.append(session)
        }

        let sent = ContinuousClock.now
        try await Self.sendHook(#"{"event":"deploys.build.finished","data":{"build":41}}"#, secret: secrets.hook, to: server)
        // One second for both, from the send.
        for session in dashboards.prefix(2) {
            try await session.waitFor(#"{"build":41}"#, timeout: .seconds(1) - (ContinuousClock.now - sent))
        }
        print("webhook to both screens: \(ContinuousClock.now - sent) (hook.sh, openssl and curl included)")

        let good = try await Self.signed(#"{"event":"deploys.build.finished","data":{"build":42}}"#, secret: secrets.hook)
        #expect(try await Self.post(good, to: server) == 202)
        #expect(try await Self.post(good, to: server) == 401, "a replay")
        let unsigned = Self.SignedHook(body: #"{"event":"deploys.build.finished","data":{"build":43}}"#, headers: [])
        #expect(try await Self.post(unsigned, to: server) == 401)
        let badlySigned = try await Self.signed(#"{"event":"deploys.build.finished","data":{"build":44}}"#, secret: "not-the-secret")
        #expect(try await Self.post(badlySigned, to: server) == 401)
        let stale = try await Self.signed(#"{"event":"deploys.build.finished","data":{"build":45}}"#, secret: secrets.hook,
                                          at: Int(Date().timeIntervalSince1970) - 600)
        #expect(try await Self.post(stale, to: server) == 401)

        // A last good hook: a stream carries events in the order the server took them, so once it
        // is on the screens every refused one would have been too.
        try await Self.sendHook(#"{"event":"deploys.build.finished","data":{"build":46}}"#, secret: secrets.hook, to: server)
        for session in dashboards.prefix(2) { try await session.waitFor(#"{"build":46}"#) }
        for (index, session) in dashboards.enumerated() {
            let text = try await session.screen().joined(separator: "\n")
            let expected = index < 2 ? 1 : 0
            for accepted in [41, 42, 46] {
                #expect(text.components(separatedBy: #"{"build":\#(accepted)}"#).count - 1 == expected, "\(text)")
            }
            for refused in 43...45 { #expect(!text.contains(#"{"build":\#(refused)}"#), "\(text)") }
            try await session.send("C-q")
            #expect(try await session.waitForExit().status == 0)
        }
    }

    @Test("entries that hang, flood, send garbage or escape sequences: the dashboard answers keys and nothing reaches the terminal raw")
    func hostileEntries() async throws {
        let server = try await TeamServer.start(users: ["alice"], admins: ["alice"], options: ["--health-interval", "1"])
        defer { server.stop() }
        let environment = try await server.logIn("alice", canvasLayout: false)
        let modes = ["hang", "flood", "garbage", "escapes"]
        var entries: [pid_t] = []
        defer { for pid in entries { kill(pid, SIGKILL); _ = waitpid(pid, nil, 0) } }
        for mode in modes {
            let (pid, port) = try await Self.startHostileEntry(mode)
            entries.append(pid)
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tc-hostile-\(UUID().uuidString.prefix(8))")
            defer { try? FileManager.default.removeItem(at: folder) }
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try """
                id: hostile-\(mode)
                name: Hostile \(mode)
                version: 1.0.0
                protocol: 1
                entry: http://127.0.0.1:\(port)/
                state: false
                minSize: { width: 10, height: 3 }
                """.write(to: folder.appendingPathComponent("app.yaml"), atomically: true, encoding: .utf8)
            _ = try await DeploysEntry.publish(folder, entry: "http://127.0.0.1:\(port)/", to: server, environment)
        }
        let layouts = URL(fileURLWithPath: environment["XDG_CONFIG_HOME"]! + "/termcanvas/layouts")
        try FileManager.default.createDirectory(at: layouts, withIntermediateDirectories: true)
        try """
            name: "default"
            focused: 1
            panes:
              - { id: 1, app: calendar, x: 0, y: 0, width: 6, height: 6 }
              - { id: 2, app: hostile-hang, x: 6, y: 0, width: 6, height: 6 }
              - { id: 3, app: hostile-flood, x: 0, y: 6, width: 4, height: 6 }
              - { id: 4, app: hostile-garbage, x: 4, y: 6, width: 4, height: 6 }
              - { id: 5, app: hostile-escapes, x: 8, y: 6, width: 4, height: 6 }
            """.write(to: layouts.appendingPathComponent("default.yaml"), atomically: true, encoding: .utf8)

        let session = try await server.dashboard(environment)
        try await session.waitFor("Hostile escapes 1.0.0 asks to run")
        for pane in 2...5 { try await session.send("M-\(pane)", "y") }
        try await session.waitFor("T␛]0;pwned")
        // The views, not the titles: the flood's keeps coming, the garbage's first stays.
        try await session.waitFor("flood view ")
        try await session.waitFor("garbage view 1")
        try await session.waitFor("Hostile hang 1.0.0 · down since", timeout: .seconds(15))
        // The hung entry's session is given up on (the proxy's timeout) and tried again later.
        try await session.waitFor("the app's entry is too slow; restarting in", timeout: .seconds(15))

        // The calendar answers at once beside them.
        try await session.send("M-1", "Right")
        try await session.waitFor("Monday, 23 November 2026", timeout: .seconds(2))
        let attributed = try await HostileInputTests.screenWithAttributes(session)
        #expect(HostileInputTests.foreignEscapes(attributed).isEmpty, "escape sequences on screen: \(HostileInputTests.foreignEscapes(attributed))")
        #expect(!(try await session.format("#{pane_title}")).contains("pwned"))
        let pid = try #require(await session.programPID())
        #expect(MicroAppProcessTests.residentKiB(pid) < 150 * 1024, "dashboard RSS \(MicroAppProcessTests.residentKiB(pid)) KiB")
        try await session.send("C-q")
        let exit = try await session.waitForExit()
        #expect(exit.status == 0 && exit.ttyRestored)
        #expect(!exit.stderr.contains("\u{1B}"), "\(exit.stderr.debugDescription)")
    }

    // MARK: Helpers

    /// `hostile.py` in `mode`, listening when this returns: the dashboard's first session must not
    /// find it still starting, or gone for want of its port (another one is then tried).
    static func startHostileEntry(_ mode: String) async throws -> (pid: pid_t, port: Int) {
        for _ in 0..<5 {
            let port = LoopbackPort.random()
            let pid = try Command.start(["python3", fixtures.appendingPathComponent("hostile.py").path, "--mode", mode, "--port", "\(port)"])
            for _ in 0..<100 {
                guard waitpid(pid, nil, WNOHANG) == 0 else { break }  // it exited: the port was taken
                // curl's 7: nothing listens yet. The hang entry never answers: its timeout (28) also means it listens.
                let probe = try await Command.run(["curl", "-s", "-o", "/dev/null", "--max-time", "0.5", "http://127.0.0.1:\(port)/health"])
                if probe.status != 7 { return (pid, port) }
                try await Task.sleep(for: .milliseconds(50))
            }
            if kill(pid, SIGKILL) == 0 { _ = waitpid(pid, nil, 0) }
        }
        throw TeamServerError.didNotStart(0)
    }

    /// Adds the pane of the catalog entry whose line holds `entry` (arrange mode, `a`, its
    /// number, Enter) and goes back to normal mode (Enter: an Escape followed by a key would
    /// read as Alt and that key); the new pane is focused.
    static func addFromCatalog(_ entry: String, _ session: TmuxSession) async throws -> (number: Int, catalogLine: String) {
        try await session.send("C-e")
        try await session.waitFor("ARRANGE")
        try await session.send("a")
        let catalog = try await session.waitFor(entry)
        let line = try #require(catalog.first { $0.contains(entry) })
        let index = try #require(number(before: entry, in: line))
        try await session.send(String(index), "Enter")
        _ = try await session.waitForScreen("the catalog closed") { screen in
            !screen.contains { $0.contains("Add a widget") }
        }
        try await session.send("Enter")
        // Numbers read from pane titles only, on a frame drawn after the catalog's: a screen caught
        // while the catalog was being erased could still show its "8 Deploys 1.1.0" line.
        let panes = try await session.waitForScreen("normal mode") { !$0.contains { $0.contains("ARRANGE") } }
        return (try #require(panes.flatMap { titleNumbers(of: entry, in: $0) }.max()), line)
    }

    /// The number just before `entry` in a catalog line.
    static func number(before entry: String, in line: String) -> Int? {
        guard let range = line.range(of: " " + entry) else { return nil }
        return line[..<range.lowerBound].split(separator: " ").last.flatMap { Int($0) }
    }

    /// The numbers of panes titled `entry` on a line of the screen (`─ 4 Deploys 1.1.0 · up ─`).
    static func titleNumbers(of entry: String, in line: String) -> [Int] {
        (1...9).filter { number in ["─", "━"].contains { line.contains("\($0) \(number) \(entry)") } }
    }

    /// `apps/deploys/hook.sh`, as a CI runs it.
    static func sendHook(_ body: String, secret: String, to server: TeamServer) async throws {
        let sent = try await Command.run([deploys.appendingPathComponent("hook.sh").path, body, server.url],
                                         environment: ["DEPLOYS_HOOK_SECRET": secret])
        try #require(sent.status == 0, "\(sent.output)")
    }

    struct SignedHook {
        var body: String
        var headers: [String]
    }

    /// A webhook signed as `hook.sh` signs it, kept to be sent again.
    static func signed(_ body: String, secret: String, at timestamp: Int = Int(Date().timeIntervalSince1970)) async throws -> SignedHook {
        let digest = try await Command.run(["sh", "-c", #"printf '%s.%s' "$1" "$2" | openssl dgst -sha256 -hmac "$3" | sed 's/^.* //'"#,
                                            "sh", "\(timestamp)", body, secret])
        let signature = digest.output.trimmingCharacters(in: .whitespacesAndNewlines)
        try #require(signature.count == 64, "\(digest.output)")
        return SignedHook(body: body, headers: ["X-Timestamp: \(timestamp)", "X-Signature: sha256=\(signature)"])
    }

    /// The status the server answers.
    static func post(_ hook: SignedHook, to server: TeamServer) async throws -> Int {
        let answer = try await Command.run(["curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", "-H", "Content-Type: application/json"]
                                           + hook.headers.flatMap { ["-H", $0] }
                                           + ["--data-binary", hook.body, server.url + "/api/hooks/deploys"])
        return Int(answer.output) ?? 0
    }

    /// A copy of an app's folder whose manifest says `version`.
    static func copy(of folder: URL, version: String) throws -> URL {
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("tc-app-\(UUID().uuidString.prefix(8))")
        try FileManager.default.copyItem(at: folder, to: copy)
        let manifest = copy.appendingPathComponent("app.yaml")
        let text = try String(contentsOf: manifest, encoding: .utf8)
        try text.replacingOccurrences(of: "version: 1.0.0", with: "version: \(version)").write(to: manifest, atomically: true, encoding: .utf8)
        return copy
    }
}

/// `apps/deploys/entry.py` run as its README says, on a loopback port of its own.
final class DeploysEntry: @unchecked Sendable {
    let port = LoopbackPort.random()
    private var pid: pid_t?
    var url: String { "http://127.0.0.1:\(port)/" }

    func start(secret: String) async throws {
        pid = try Command.start(["python3", RemoteAppsEndToEndTests.deploys.appendingPathComponent("entry.py").path, "--port", "\(port)"],
                                environment: ["DEPLOYS_ENTRY_SECRET": secret])
        try await Command.waitUntilAnswering(url + "health")
    }

    func stop() {
        guard let pid else { return }
        kill(pid, SIGKILL)
        _ = waitpid(pid, nil, 0)
        self.pid = nil
    }

    /// `termcanvas apps publish FOLDER --entry URL --bff URL` as a logged-in admin; the app's
    /// secrets when this was its first publish.
    static func publish(_ folder: URL, entry: String, to server: TeamServer, _ environment: [String: String]) async throws
        -> (hook: String, entry: String)? {
        let published = try await Command.run([Products.termcanvas.path, "apps", "publish", folder.path, "--entry", entry, "--bff", server.url],
                                              environment: environment)
        try #require(published.status == 0, "\(published.output)")
        func secret(_ name: String) -> String? {
            published.output.split(separator: "\n").first { $0.hasPrefix(name + " secret") }?.split(separator: " ").last.map(String.init)
        }
        guard let hook = secret("hook"), let entry = secret("entry") else { return nil }
        return (hook, entry)
    }
}

extension TeamServer {
    /// Waits until the registry reports `state` for the app.
    func waitForHealth(of app: String, _ state: String, as user: String) async throws {
        let token = try await token(user)
        var last = ""
        try await eventually("\(app)'s health \(state), not \(last)", every: .milliseconds(100)) {
            let answer = try await Command.run(["curl", "-sf", url + "/api/registry/apps/" + app, "-H", "Authorization: Bearer \(token)"])
            let detail = try? JSONSerialization.jsonObject(with: Data(answer.output.utf8)) as? [String: Any]
            let health = (detail?["app"] as? [String: Any])?["health"] as? [String: Any]
            last = health?["state"] as? String ?? answer.output
            return last == state
        }
    }
}
