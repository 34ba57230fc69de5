import CanvasCore
import TestSupport
import Foundation
import Testing

/// The micro-apps as a user sees them: real dashboards in tmux, each against a real team server
/// (`termcanvas serve`) on a loopback port with a real database, logged in with `termcanvas login`.
@Suite("Todo, calendar and chat end to end", .serialized)
struct MicroAppsEndToEndTests {
    static let size = Size(width: 120, height: 40)

    /// Every pane is up and its title says nothing of connecting or being offline.
    static func isOnline(_ screen: [String]) -> Bool {
        let text = screen.joined()
        return text.contains("Chat #general") && text.contains("November 2026") && !text.contains("· connecting") && !text.contains("· offline")
    }

    /// Waits until the dashboard is online. For its first second a title says nothing of a server
    /// still starting (`SyncMachine.quietStart`), so a quiet title means online only once the
    /// log says the live stream is connected.
    static func waitUntilOnline(_ session: TmuxSession) async throws {
        try await session.waitFor("Chat #general")
        try await session.waitForLog("online: the live stream is connected")
        try await session.waitForScreen("online") { isOnline($0) }
    }

    @Test("two dashboards: chat within a second, todos both ways, the calendar filters the todos")
    func twoDashboards() async throws {
        let server = try await TeamServer.start(users: ["alice"])
        defer { server.stop() }
        let environment = try await server.logIn("alice")
        let one = try await server.dashboard(environment)
        let two = try await server.dashboard(environment)
        for session in [one, two] { try await Self.waitUntilOnline(session) }

        // Chat: typed in one, on the other's screen within a second of showing in the first.
        try await one.send("M-3")
        try await one.sendLiteral("hello from one")
        try await one.send("Enter")
        try await one.waitFor("alice: hello from one")
        try await two.waitFor("alice: hello from one", timeout: .seconds(1))

        // Todo: added in one, shown in the other.
        try await one.send("M-1")
        try await one.send("n")
        try await one.sendLiteral("Buy milk @2026-11-23")
        try await one.send("Enter")
        try await one.waitFor("[ ] Buy milk")
        try await two.waitFor("[ ] Buy milk", timeout: .seconds(2))
        // The calendar marks its day.
        try await two.waitFor("•23")

        // Selecting a day in the calendar filters the todos; `c` clears the filter.
        try await two.send("M-2")
        try await two.send("Right")
        try await two.waitFor("Todo · Mon 23 Nov")
        try await two.send("Right")
        try await two.waitFor("Todo · Tue 24 Nov")
        try await two.waitFor("Nothing due that day")
        try await two.send("M-1")
        try await two.send("c")
        try await two.waitFor("[ ] Buy milk")

        // Ticked in two, ticked in one.
        try await two.send("Space")
        try await one.waitFor("[x] Buy milk", timeout: .seconds(2))
        #expect(try await server.todoTitles("alice") == ["Buy milk"])
    }

    @Test("the server down: a todo added offline reaches it exactly once when it is back, and the mark goes")
    func offlineOutbox() async throws {
        let server = try await TeamServer.start(users: ["alice"])
        defer { server.stop() }
        let environment = try await server.logIn("alice")
        let session = try await server.dashboard(environment)
        try await Self.waitUntilOnline(session)

        server.stop()
        try await session.waitForScreen("the todo pane offline") { $0.contains { $0.contains("Todo") && $0.contains("offline") } }
        try await session.send("n")
        try await session.sendLiteral("Written offline")
        try await session.send("Enter")
        // Kept locally with its pending mark, the pane saying it waits to be sent.
        var screen = try await session.waitFor("[ ] Written offline …")
        // (The title goes on, `· 1 unsent`, cut with … in this pane's width.)
        #expect(screen.contains { $0.contains("Todo · 1 open · offline") && $0.contains("· 1 u") }, "\(screen.joined(separator: "\n"))")

        try await server.restart()
        screen = try await session.waitForScreen(timeout: .seconds(15), "back online") { screen in
            let text = screen.joined()
            return !text.contains("· offline") && !text.contains("unsent") && text.contains("[ ] Written offline")
        }
        #expect(!screen.contains { $0.contains("Written offline …") })
        #expect(try await server.todoTitles("alice") == ["Written offline"])
    }

    @Test("a chat message full of escape sequences shows placeholders and leaves the terminal alone")
    func hostileChat() async throws {
        let server = try await TeamServer.start(users: ["alice", "mallory"])
        defer { server.stop() }
        let environment = try await server.logIn("alice")
        let session = try await server.dashboard(environment)
        try await Self.waitUntilOnline(session)

        let mallory = try await server.token("mallory")
        let hostile = #"{"text":"pwn \u001b[2J\u001b]0;owned\u0007 \u009b31m red\u001b[0m \r\b end"}"#
        _ = try await Command.run(["curl", "-sf", "-X", "POST", server.url + "/api/chat/channels/general/messages",
                                   "-H", "Authorization: Bearer \(mallory)", "-H", "Content-Type: application/json", "-d", hostile])
        let screen = try await session.waitFor("mallory: pwn")
        let line = try #require(screen.first { $0.contains("mallory: pwn") })
        #expect(line.contains("pwn ␛[2J␛]0;owned␇ �31m red␛[0m ␍␈"), "\(line)")
        // The rest of the screen is intact: the clear-screen sequence did nothing.
        #expect(screen.contains { $0.contains("November 2026") })
        #expect(try await session.format("#{pane_title}") != "owned")
    }
}

/// A team server on a loopback port with its own data directory, started and stopped as a user
/// would (`termcanvas user add`, `serve`, `login`).
final class TeamServer: @unchecked Sendable {
    let home: String
    let port: Int
    /// More options of `serve`.
    private let options: [String]
    private var pid: pid_t?
    var url: String { "http://127.0.0.1:\(port)" }

    private init(home: String, port: Int, options: [String]) {
        self.home = home
        self.port = port
        self.options = options
    }

    /// - Parameter admins: those of `users` who may publish to the registry.
    static func start(users: [String], admins: Set<String> = [], options: [String] = []) async throws -> TeamServer {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("tc-team-\(UUID().uuidString.prefix(8))").path
        let server = TeamServer(home: home, port: LoopbackPort.random(), options: options)
        for user in users {
            let added = try await Command.run([Products.termcanvas.path, "user", "add", user, "--data-dir", home + "/bff"]
                                              + (admins.contains(user) ? ["--admin"] : []),
                                              environment: ["XDG_STATE_HOME": home + "/state"], input: "password-\(user)\n")
            try #require(added.status == 0, "\(added.output)")
        }
        try await server.restart()
        return server
    }

    /// Starts the server (again, on the same port and data).
    func restart() async throws {
        pid = try Command.start([Products.termcanvas.path, "serve", "--port", "\(port)", "--data-dir", home + "/bff"] + options,
                                environment: ["XDG_STATE_HOME": home + "/state"])
        try await Command.waitUntilAnswering(url + "/health")
    }

    func stop() {
        guard let pid else { return }
        kill(pid, SIGKILL)
        self.pid = nil
    }

    /// A user's own environment, logged in to this server; with `canvasLayout`, its dashboard
    /// shows a calendar and the Event Log rather than todo, calendar and chat.
    func logIn(_ user: String, canvasLayout: Bool = false) async throws -> [String: String] {
        let home = try DashboardSessionTests.isolatedHome(canvasLayout: canvasLayout)
        let environment = home.environment
        let login = try await Command.run([Products.termcanvas.path, "login", url, "--user", user], environment: environment,
                                          input: "password-\(user)\n")
        try #require(login.status == 0, "\(login.output)")
        return environment
    }

    func dashboard(_ environment: [String: String]) async throws -> TmuxSession {
        try await TmuxSession([Products.termcanvas.path, "--bff", url, "--date", "2026-11-22"],
                              size: MicroAppsEndToEndTests.size, environment: environment)
    }

    func token(_ user: String) async throws -> String {
        let answer = try await Command.run(["curl", "-sf", "-X", "POST", url + "/api/auth/token", "-H", "Content-Type: application/json",
                                            "-d", #"{"username":"\#(user)","password":"password-\#(user)"}"#])
        let object = try JSONSerialization.jsonObject(with: Data(answer.output.utf8)) as? [String: Any]
        return try #require(object?["token"] as? String)
    }

    /// The titles of `user`'s todos on the server.
    func todoTitles(_ user: String) async throws -> [String] {
        let answer = try await Command.run(["curl", "-sf", url + "/api/todo/items", "-H", "Authorization: Bearer \(try await token(user))"])
        let object = try JSONSerialization.jsonObject(with: Data(answer.output.utf8)) as? [String: Any]
        return (object?["items"] as? [[String: Any]])?.compactMap { $0["title"] as? String } ?? []
    }
}

enum TeamServerError: Error {
    case didNotStart(Int)
}
