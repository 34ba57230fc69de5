import BFFTesting
import CanvasCore
import TestSupport
import Foundation
import Testing

/// `termcanvas apps new` as a user runs it, in tmux, against a scripted OpenAI-compatible server on
/// loopback answering with the generator tests' fixture.
@Suite("termcanvas apps new end to end", .serialized)
struct AppsNewEndToEndTests {
    static let answer = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../MicroAppGeneratorTests/Fixtures/answers/good.txt").standardizedFileURL

    /// A model that streams the fixture's answer to every request.
    static func model() throws -> RawServer {
        let text = try String(contentsOf: answer, encoding: .utf8)
        return try RawServer { connection, _ in
            connection.readRequest()
            connection.write("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\n")
            for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                let json = String(decoding: try! JSONEncoder().encode(String(line) + "\n"), as: UTF8.self)
                connection.write("data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\(json)}}]}\n\n")
            }
            connection.write("data: [DONE]\n\n")
            connection.close()
        }
    }

    /// An isolated user whose temporary files go to a folder of their own, to see what is left.
    static func environment() throws -> [String: String] {
        var environment = try DashboardSessionTests.isolatedHome().environment
        let temporary = environment["HOME"]! + "/tmp"
        try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: true)
        environment["TMPDIR"] = temporary
        return environment
    }

    static func appsNew(_ server: RawServer, _ environment: [String: String]) async throws -> TmuxSession {
        try await TmuxSession([Products.termcanvas.path, "apps", "new", "count my laps", "--base-url", "http://127.0.0.1:\(server.port)/v1",
                               "--model", "scripted"], size: Size(width: 100, height: 110), environment: environment)
    }

    @Test("F2 reads ai.yaml as it opens and takes a paste as text, line breaks included")
    func theBoxReadsItsSettingsAfreshAndTakesAPasteAsText() async throws {
        let environment = try Self.environment()
        let session = try await TmuxSession([Products.termcanvas.path, "--date", "2026-11-22"], size: Size(width: 120, height: 36),
                                            environment: environment)
        try await session.waitFor("November 2026")
        try await session.send("F2")
        try await session.waitFor("To fix first: no model endpoint")
        // Fixed while the dashboard runs, with the key in a private file: no restart.
        let config = environment["XDG_CONFIG_HOME"]! + "/termcanvas"
        try FileManager.default.createDirectory(atPath: config, withIntermediateDirectories: true)
        try "baseURL: http://127.0.0.1:9/v1\nmodel: scripted\nkeyFile: ~/ai.key\n".write(toFile: config + "/ai.yaml", atomically: true, encoding: .utf8)
        _ = FileManager.default.createFile(atPath: environment["HOME"]! + "/ai.key", contents: Data("sk-test\n".utf8),
                                           attributes: [.posixPermissions: 0o600])
        try await session.send("Escape")
        try await session.waitForScreen("the box closed") { !$0.joined().contains("New micro-app") }
        try await session.send("F2")
        try await session.waitFor("Describe the micro-app in words")
        #expect(!(try await session.screen().joined().contains("To fix first")))
        // A pasted line break does not send the description half-written.
        try await session.paste("count my\nlaps")
        try await session.waitFor("> count my laps")
        #expect(!(try await session.screen().joined().contains("writing")))
        try await session.send("Escape")
        try await session.waitForScreen("the box closed again") { !$0.joined().contains("New micro-app") }
        try await session.send("q")
        #expect(try await session.waitForExit().status == 0)
    }

    @Test("the preview, then Enter installs; the app's pane, added from the catalog, answers keys")
    func enterInstalls() async throws {
        let server = try Self.model()
        defer { server.stop() }
        let environment = try Self.environment()
        let session = try await Self.appsNew(server, environment)
        let screen = try await session.waitFor("Enter installs lap-counter", timeout: .seconds(30))
        #expect(screen.contains { $0.contains("│laps 0") }, "the preview: \(screen.joined(separator: "\n"))")
        #expect(screen.contains { $0.contains("── it asks for ──") })
        try await session.send("Enter")
        try await session.waitFor("Installed in")
        #expect(try await session.waitForExit().status == 0)
        let folder = environment["XDG_CONFIG_HOME"]! + "/termcanvas/apps/lap-counter"
        #expect(FileManager.default.fileExists(atPath: folder + "/app.py"))
        let listed = try await Command.run([Products.termcanvas.path, "apps", "list"], environment: environment)
        #expect(listed.output.contains("lap-counter\t1.0.0\tLap counter\tprotocol 1.0\tgenerated\tnot granted\tsandboxed: at most 512 MiB of memory, 256 processes, 256 MiB kept in its folders, 64 open files\t"), "\(listed.output)")
        #expect(listed.output.contains("count my laps"))

        let dashboard = try await TmuxSession([Products.termcanvas.path, "--date", "2026-11-22"], size: Size(width: 100, height: 30),
                                              environment: environment)
        try await dashboard.waitFor("Calendar")
        _ = try await RemoteAppsEndToEndTests.addFromCatalog("Lap counter", dashboard)
        try await dashboard.waitFor("Lap counter 1.0.0 asks to run")
        try await dashboard.send("y")
        try await dashboard.waitFor("laps 0")
        try await dashboard.send("+")
        try await dashboard.waitFor("laps 1")
        try await dashboard.send("C-q")
        #expect(try await dashboard.waitForExit().status == 0)
    }

    @Test("no key in the environment: an error naming the variable, and no request sent")
    func aMissingKeyIsNamed() async throws {
        let server = try Self.model()
        defer { server.stop() }
        let result = try await Command.run([Products.termcanvas.path, "apps", "new", "count my laps", "--base-url",
                                            "http://127.0.0.1:\(server.port)/v1", "--model", "scripted", "--key-variable", "TC_TEST_UNSET_KEY"],
                                           environment: try Self.environment())
        #expect(result.status != 0)
        #expect(result.output.contains("TC_TEST_UNSET_KEY"), "\(result.output)")
        #expect(server.connections == 0)
    }

    @Test("an endpoint's error, escape sequences and all, reaches the terminal as placeholders")
    func aHostileRefusalIsMadeSafe() async throws {
        let server = try RawServer { connection, _ in
            connection.readRequest()
            connection.respond(status: "400 Bad Request", headers: ["Content-Type: application/json"],
                               body: #"{"error":{"message":"bad \u001b]0;pwned\u0007\u001b[2J request"}}"#)
        }
        defer { server.stop() }
        let result = try await Command.run([Products.termcanvas.path, "apps", "new", "count my laps", "--base-url",
                                            "http://127.0.0.1:\(server.port)/v1", "--model", "scripted"], environment: try Self.environment())
        #expect(result.status != 0)
        #expect(result.output.contains("bad ␛]0;pwned␇␛[2J request"), "\(result.output)")
        #expect(!result.output.contains("\u{1B}"))
    }

    @Test("Esc discards: nothing is left on disk")
    func escapeDiscards() async throws {
        let server = try Self.model()
        defer { server.stop() }
        let environment = try Self.environment()
        let session = try await Self.appsNew(server, environment)
        try await session.waitFor("Enter installs lap-counter", timeout: .seconds(30))
        try await session.send("Escape")
        try await session.waitFor("Discarded: nothing was written.")
        #expect(try await session.waitForExit().status == 0)
        #expect(!FileManager.default.fileExists(atPath: environment["XDG_CONFIG_HOME"]! + "/termcanvas/apps"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: environment["TMPDIR"]!).isEmpty)
    }

    /// A dashboard whose `ai.yaml` points at `server`, as a user sets it up.
    static func dashboard(_ server: RawServer, _ environment: [String: String]) async throws -> TmuxSession {
        let settings = environment["XDG_CONFIG_HOME"]! + "/termcanvas/ai.yaml"
        try FileManager.default.createDirectory(atPath: (settings as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try "baseURL: http://127.0.0.1:\(server.port)/v1\nmodel: scripted\n".write(toFile: settings, atomically: true, encoding: .utf8)
        let session = try await TmuxSession([Products.termcanvas.path, "--date", "2026-11-22"], size: Size(width: 100, height: 30),
                                            environment: environment)
        try await session.waitFor("Calendar")
        return session
    }

    /// Types the description into the open "New micro-app" box; returns the screen of its review.
    @discardableResult
    static func describeAndReview(_ dashboard: TmuxSession) async throws -> [String] {
        try await dashboard.waitFor("Describe the micro-app in words")
        try await dashboard.sendLiteral("count my laps")
        try await dashboard.send("Enter")
        return try await dashboard.waitFor("New micro-app: Lap counter 1.0.0", timeout: .seconds(30))
    }

    /// The trial runs' temporary folders left in the session's `TMPDIR`.
    static func leftovers(_ environment: [String: String]) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: environment["TMPDIR"]!).filter { $0.hasPrefix("termcanvas-new-") }
    }

    @Test("from the dashboard's palette: the review, Enter adds the pane, which asks, runs and answers keys")
    func fromThePalette() async throws {
        let server = try Self.model()
        defer { server.stop() }
        let environment = try Self.environment()
        let dashboard = try await Self.dashboard(server, environment)
        try await dashboard.send("C-p")
        try await dashboard.sendLiteral("new micro")
        try await dashboard.send("Enter")
        let review = try await Self.describeAndReview(dashboard)
        #expect(review.contains { $0.contains("│laps 0") }, "the preview: \(review.joined(separator: "\n"))")
        #expect(review.contains { $0.contains("keep state with the layout") })
        #expect(review.contains { $0.contains("exec: [python3, app.py]") })
        try await dashboard.send("End")
        try await dashboard.waitFor("-32601")  // the script's last line
        try await dashboard.send("Enter")
        try await dashboard.waitFor("Lap counter 1.0.0 asks to run")
        try await dashboard.send("y")
        try await dashboard.waitFor("laps 0")
        try await dashboard.send("+")
        try await dashboard.waitFor("laps 1")
        let folder = environment["XDG_CONFIG_HOME"]! + "/termcanvas/apps/lap-counter"
        #expect(try String(contentsOfFile: folder + "/generated-from.txt", encoding: .utf8) == "count my laps")
        #expect(try Self.leftovers(environment).isEmpty)
        try await dashboard.send("C-q")
        #expect(try await dashboard.waitForExit().status == 0)
        // Neither the description nor the answer (its manifest, its script) is in the log.
        let log = try String(contentsOfFile: environment["XDG_STATE_HOME"]! + "/termcanvas/termcanvas.log", encoding: .utf8)
        #expect(log.contains("micro-app installed"))
        for secret in ["count my laps", "Lap counter", "def view"] { #expect(!log.contains(secret), "\(secret) logged") }
    }

    @Test("from the dashboard's catalog: Esc on the review leaves nothing on disk")
    func fromTheCatalogEscDiscards() async throws {
        let server = try Self.model()
        defer { server.stop() }
        let environment = try Self.environment()
        let dashboard = try await Self.dashboard(server, environment)
        try await dashboard.send("C-e")
        try await dashboard.waitFor("ARRANGE")
        try await dashboard.send("a")
        let catalog = try await dashboard.waitFor("New micro-app…")
        let line = try #require(catalog.first { $0.contains("New micro-app…") })
        let number = try #require(RemoteAppsEndToEndTests.number(before: "New micro-app…", in: line))
        try await dashboard.send(String(number), "Enter")
        try await Self.describeAndReview(dashboard)
        try await dashboard.send("Escape")
        try await dashboard.waitForScreen("the review closed") { !$0.contains { $0.contains("New micro-app") } }
        #expect(!FileManager.default.fileExists(atPath: environment["XDG_CONFIG_HOME"]! + "/termcanvas/apps"))
        #expect(try Self.leftovers(environment).isEmpty)
        try await dashboard.send("C-q")
        #expect(try await dashboard.waitForExit().status == 0)
    }
}
