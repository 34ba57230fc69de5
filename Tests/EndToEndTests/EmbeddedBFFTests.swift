import CanvasCore
import TestSupport
import Foundation
import Testing

/// `termcanvas` with no `--bff`: it starts this user's local server by itself, and a second
/// dashboard shares it.
@Suite(.serialized)
struct EmbeddedBFFTests {
    /// Waits until a local server of `runtime` holds its lock and answers; returns its pid.
    private func waitForServer(runtime: String, timeout: Duration = .seconds(20)) async throws -> pid_t {
        // Answering, not only bound: the socket file exists a moment before the server listens.
        try await Command.waitUntilAnswering("http://local/health", unixSocket: runtime + "/termcanvas/bff.sock", within: timeout)
        return try #require(LocalServerProcess.pid(runtimeDirectory: runtime))
    }

    /// curl over the local server's unix socket with its token; returns status and body.
    private func request(_ runtime: String, _ method: String, _ path: String, body: String? = nil) async throws -> (Int, String) {
        let token = try String(contentsOfFile: runtime + "/termcanvas/bff.token", encoding: .utf8)
        var arguments = ["curl", "-s", "-w", "\n%{http_code}", "--unix-socket", runtime + "/termcanvas/bff.sock",
                         "-X", method, "-H", "Authorization: Bearer \(token)", "http://local\(path)"]
        if let body { arguments += ["-H", "Content-Type: application/json", "-d", body] }
        let output = try await Command.run(arguments).output
        let lines = output.split(separator: "\n", omittingEmptySubsequences: false)
        return (Int(lines.last ?? "") ?? 0, lines.dropLast().joined(separator: "\n"))
    }

    /// How many requests for `route` (a route pattern, e.g. `/api/events`) the local server of
    /// `runtime` has answered, from its `/metrics`.
    private func answered(_ runtime: String, route: String) async throws -> Int {
        let metrics = try await Command.run(["curl", "-sf", "--unix-socket", runtime + "/termcanvas/bff.sock", "http://local/metrics"])
        guard metrics.status == 0 else { return 0 }
        return metrics.output.split(separator: "\n")
            .filter { $0.hasPrefix("bff_http_requests_total{") && $0.contains("route=\"\(route)\"") }
            .compactMap { $0.split(separator: " ").last.flatMap { Double($0) } }
            .reduce(0) { $0 + Int($1) }
    }

    /// How often the dashboards of `environment` (they share one log file) have logged `line`.
    private func dashboardLogCount(_ environment: [String: String], _ line: String) -> Int {
        let log = (try? String(contentsOfFile: environment["XDG_STATE_HOME"]! + "/termcanvas/termcanvas.log", encoding: .utf8)) ?? ""
        return log.components(separatedBy: line).count - 1
    }

    private func mode(_ path: String) throws -> Int {
        try #require(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
    }

    /// A start's `canvasLoadTime` and each pane's `microAppLoadTime` are in the log and, after it,
    /// in `termcanvas stats`.
    @Test func aStartsLoadTimesAreLoggedAndShownByStats() async throws {
        // The default preset: todo, calendar and chat.
        let home = try DashboardSessionTests.isolatedHome(canvasLayout: false)
        defer { home.remove() }
        let environment = home.environment
        defer { LocalServerProcess.stop(runtimeDirectory: environment["XDG_RUNTIME_DIR"]!) }
        let before = try await Command.run([Products.termcanvas.path, "stats"], environment: environment)
        #expect(before.status == 0)
        #expect(before.output.contains("No start measured yet"))
        let session = try await TmuxSession([Products.termcanvas.path, "--date", "2026-11-22"], size: Size(width: 100, height: 30),
                                            environment: environment)
        try await eventually("the canvas loaded", within: .seconds(20), every: .milliseconds(50)) {
            dashboardLogCount(environment, "canvas loaded") == 1
        }
        // It reached the local server over the unix socket without libcurl: its thirty libraries
        // and TLS stacks cost ~8 MB of resident memory (issue 28).
        try await eventually("the live stream connected", within: .seconds(20), every: .milliseconds(50)) {
            dashboardLogCount(environment, "online: the live stream is connected") == 1
        }
        let pid = try #require(await session.programPID())
        // Read by cat: Foundation reads a /proc file only as far as its first page.
        let maps = try await Command.run(["cat", "/proc/\(pid)/maps"]).output
        #expect(maps.contains("libncursesw"), "\(maps)")
        #expect(!maps.contains("libcurl"), "the dashboard loaded libcurl to talk to its local server")
        try await session.send("q")
        #expect(try await session.waitForExit().status == 0)
        let log = try String(contentsOfFile: environment["XDG_STATE_HOME"]! + "/termcanvas/termcanvas.log", encoding: .utf8)
        for app in ["todo", "calendar", "chat"] {
            #expect(log.split(separator: "\n").contains { $0.contains("pane loaded") && $0.contains("app=\(app)") })
        }
        let stats = try await Command.run([Products.termcanvas.path, "stats"], environment: environment)
        #expect(stats.status == 0)
        let lines = stats.output.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("canvasLoadTime") == true, "\(stats.output)")
        #expect(lines.contains("microAppLoadTime"))
        for app in ["todo", "calendar", "chat"] {
            #expect(lines.contains { $0.hasPrefix("  \(app) ") && $0.contains(" ms") }, "\(stats.output)")
        }
    }

    @Test func theFirstDashboardStartsTheLocalServerAndTheSecondSharesIt() async throws {
        let home = try DashboardSessionTests.isolatedHome()
        defer { home.remove() }
        let environment = home.environment
        let runtime = try #require(environment["XDG_RUNTIME_DIR"])
        defer { LocalServerProcess.stop(runtimeDirectory: runtime) }
        let first = try await TmuxSession([Products.termcanvas.path, "--date", "2026-11-22"], size: Size(width: 100, height: 30),
                                    environment: environment)
        try await first.waitFor("November 2026")
        let server = try await waitForServer(runtime: runtime)

        // Private: the directory is the user's alone and the token file is theirs to read.
        #expect(try mode(runtime + "/termcanvas") == 0o700)
        #expect(try mode(runtime + "/termcanvas/bff.token") == 0o600)
        // The token opens the local user's account; without it the server refuses.
        let (created, item) = try await request(runtime, "POST", "/api/todo/items", body: #"{"title":"shared"}"#)
        #expect(created == 201, "\(item)")
        let anonymous = try await Command.run(["curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", "--unix-socket",
                                         runtime + "/termcanvas/bff.sock", "http://local/api/todo/items"]).output
        #expect(anonymous == "401")

        // The first dashboard follows the server's event stream.
        try await eventually("the first dashboard's event stream", within: .seconds(20), every: .milliseconds(50)) {
            try await answered(runtime, route: "/api/events") >= 1
        }
        let streams = try await answered(runtime, route: "/api/events")
        #expect(dashboardLogCount(environment, "local BFF ready") == 1)

        // A second dashboard finds the running server instead of starting another: once it says
        // its server is ready and that server has answered its event stream too (a server of its
        // own would have), the first server is still the one.
        let second = try await TmuxSession([Products.termcanvas.path, "--date", "2026-11-22"], size: Size(width: 100, height: 30),
                                     environment: environment)
        try await second.waitFor("November 2026")
        try await eventually("the second dashboard on the first server", within: .seconds(20), every: .milliseconds(50)) {
            guard dashboardLogCount(environment, "local BFF ready") == 2 else { return false }
            return try await answered(runtime, route: "/api/events") > streams
        }
        #expect(LocalServerProcess.pid(runtimeDirectory: runtime) == server)
        let log = try String(contentsOfFile: environment["XDG_STATE_HOME"]! + "/termcanvas/bff.log", encoding: .utf8)
        #expect(log.components(separatedBy: "local server starting").count - 1 == 1)
        let (listed, items) = try await request(runtime, "GET", "/api/todo/items")
        #expect(listed == 200)
        #expect(items.contains(#""title":"shared""#))
        // The dashboards' own log says where the server is, and never the token.
        let token = try String(contentsOfFile: runtime + "/termcanvas/bff.token", encoding: .utf8)
        let dashboardLog = try String(contentsOfFile: environment["XDG_STATE_HOME"]! + "/termcanvas/termcanvas.log", encoding: .utf8)
        #expect(dashboardLog.contains("local BFF ready"))
        #expect(!dashboardLog.contains(token) && !log.contains(token))
        try await quit(first, second)
    }

    /// Quits the dashboards before the test stops their server: a dashboard that is still running
    /// when its server goes starts a new one, which would outlive the test.
    private func quit(_ sessions: TmuxSession...) async throws {
        for session in sessions {
            try await session.send("C-q")
            #expect(try await session.waitForExit().status == 0)
        }
    }

    @Test func aDeadServerIsReplacedAndTheDataIsKept() async throws {
        let home = try DashboardSessionTests.isolatedHome()
        defer { home.remove() }
        let environment = home.environment
        let runtime = try #require(environment["XDG_RUNTIME_DIR"])
        defer { LocalServerProcess.stop(runtimeDirectory: runtime) }
        let first = try await TmuxSession([Products.termcanvas.path, "--date", "2026-11-22"], size: Size(width: 100, height: 30),
                                    environment: environment)
        try await first.waitFor("November 2026")
        let crashed = try await waitForServer(runtime: runtime)
        #expect(try await request(runtime, "POST", "/api/todo/items", body: #"{"title":"kept"}"#).0 == 201)
        try await first.send("q")
        _ = try await first.waitForExit()

        // Killed without a chance to clean up: its socket file stays behind.
        kill(crashed, SIGKILL)
        try await eventually("the killed server's lock released") { LocalServerProcess.pid(runtimeDirectory: runtime) == nil }
        #expect(FileManager.default.fileExists(atPath: runtime + "/termcanvas/bff.sock"))

        let next = try await TmuxSession([Products.termcanvas.path, "--date", "2026-11-22"], size: Size(width: 100, height: 30),
                                   environment: environment)
        try await next.waitFor("November 2026")
        let replacement = try await waitForServer(runtime: runtime)
        #expect(replacement != crashed)
        let (status, items) = try await request(runtime, "GET", "/api/todo/items")
        #expect(status == 200)
        #expect(items.contains(#""title":"kept""#))
        try await quit(next)
    }
}
