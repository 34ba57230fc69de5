import CanvasCore
import CanvasTesting
import Foundation
import Testing

/// `termcanvas login URL --user NAME` and `termcanvas --bff URL` against a real team server.
struct LoginCommandTests {
    @Test func logInKeepTheTokenPrivateAndUseTheServer() async throws {
        let environment = try DashboardSessionTests.isolatedEnvironment()
        let home = environment["HOME"]!
        let binary = Products.termcanvas.path
        #expect(try await Command.run([binary, "user", "add", "alice", "--data-dir", home + "/bff"], environment: environment,
                                input: "correct horse\n").status == 0)
        let port = Int.random(in: 20_000...40_000)
        let server = try Command.start([binary, "serve", "--port", "\(port)", "--data-dir", home + "/bff"], environment: environment)
        defer { kill(server, SIGKILL) }
        var healthy = false
        for _ in 0..<200 {
            healthy = try await Command.run(["curl", "-sf", "http://127.0.0.1:\(port)/health"]).status == 0
            if healthy { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        try #require(healthy, "the server did not start on port \(port)")
        let url = "http://127.0.0.1:\(port)"
        let credential = home + "/config/termcanvas/credentials/http_127.0.0.1_\(port).json"

        // Without a login, --bff says what to do, before the terminal changes mode.
        let notYet = try await Command.run([binary, "--bff", url], environment: environment)
        #expect(notYet.status != 0)
        #expect(notYet.output.contains("no token for \(url): run `termcanvas login \(url) --user NAME` first"), "\(notYet.output)")

        let wrong = try await Command.run([binary, "login", url, "--user", "alice"], environment: environment, input: "wrong\n")
        #expect(wrong.status != 0)
        #expect(wrong.output.contains("wrong user name or password"), "\(wrong.output)")
        #expect(!FileManager.default.fileExists(atPath: credential))

        let login = try await Command.run([binary, "login", url + "/", "--user", "alice"], environment: environment, input: "correct horse\n")
        #expect(login.status == 0, "\(login.output)")
        let mode = try FileManager.default.attributesOfItem(atPath: credential)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        let stored = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: credential))) as? [String: String]
        #expect(stored?["server"] == url && stored?["user"] == "alice")
        let token = try #require(stored?["token"])
        let items = try await Command.run(["curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", "-H", "Authorization: Bearer \(token)",
                                     url + "/api/todo/items"])
        #expect(items.output == "200")

        // With the token, the dashboard uses the team server and starts no local one.
        let session = try await TmuxSession([binary, "--bff", url, "--date", "2026-11-22"], size: Size(width: 100, height: 30),
                                      environment: environment)
        try await session.waitFor("November 2026")
        try await Task.sleep(for: .milliseconds(300))
        #expect(LocalServerProcess.pid(runtimeDirectory: environment["XDG_RUNTIME_DIR"]!) == nil)

        let unreachable = try await Command.run([binary, "login", "http://127.0.0.1:1", "--user", "alice"], environment: environment,
                                          input: "x\n")
        #expect(unreachable.status != 0)
        #expect(unreachable.output.contains("could not log in to http://127.0.0.1:1"), "\(unreachable.output)")
    }
}
