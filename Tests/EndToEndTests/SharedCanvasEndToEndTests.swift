import CanvasCore
import Foundation
import Testing
import TestSupport

/// A shared canvas as two people see it: two dashboards in tmux, logged in as two users of one
/// real team server (`termcanvas serve`), the canvas stored and shared with `termcanvas layout`.
@Suite("Shared canvases end to end", .serialized)
struct SharedCanvasEndToEndTests {
    static let layout = """
        name: oncall
        panes:
          - { id: 1, app: calendar, x: 0, y: 0, width: 6, height: 12 }
          - { id: 2, app: eventlog, x: 6, y: 0, width: 6, height: 12 }
        """

    private func run(_ arguments: [String], _ environment: [String: String]) async throws -> String {
        let result = try await Command.run([Products.termcanvas.path] + arguments, environment: environment)
        try #require(result.status == 0, "termcanvas \(arguments.joined(separator: " ")): \(result.output)")
        return result.output
    }

    private func open(_ server: TeamServer, as environment: [String: String]) async throws -> TmuxSession {
        let session = try await TmuxSession([Products.termcanvas.path, "--bff", server.url, "--layout", "oncall", "--date", "2026-11-22"],
                                            size: Size(width: 100, height: 30), environment: environment)
        try await session.waitFor("November 2026")
        try await session.waitForLog("online: the live stream is connected")
        return session
    }

    /// Where each pane's title is on the first row, left to right.
    private func titles(_ screen: [String]) -> [String] {
        ["Calendar", "Event Log"].filter { screen.first?.contains($0) == true }
            .sorted { (screen[0].range(of: $0)?.lowerBound)! < (screen[0].range(of: $1)?.lowerBound)! }
    }

    @Test("share, a move on the viewer's screen within a second, who has it open, the viewer refused, an offline edit merged, a save on the server, the audit log")
    func twoUsersOneCanvas() async throws {
        let server = try await TeamServer.start(users: ["alice", "bob", "root"], admins: ["root"])
        defer { server.stop() }
        let alice = try await server.logIn("alice")
        let bob = try await server.logIn("bob")
        let bff = ["--bff", server.url]
        let file = try #require(alice["HOME"]) + "/oncall.yaml"
        try Self.layout.write(toFile: file, atomically: true, encoding: .utf8)
        #expect(try await run(["layout", "import", file] + bff, alice).hasPrefix("stored oncall on the server (canvas "))
        _ = try await run(["layout", "share", "oncall", "bob", "--role", "viewer"] + bff, alice)

        let editor = try await open(server, as: alice)
        let viewer = try await open(server, as: bob)
        try await editor.waitFor("oncall · shared")
        try await viewer.waitFor("oncall · read-only, shared by alice")

        // The editor moves the calendar onto the event log: they swap, on both screens.
        try await editor.send("C-e")
        try await editor.send("Right")
        let moved = try await editor.waitForScreen("the calendar moved") { titles($0) == ["Event Log", "Calendar"] }
        #expect(titles(moved) == ["Event Log", "Calendar"])
        // The move and who made it, within a second; they may reach the screen a frame apart.
        let seen = try await viewer.waitForScreen(timeout: .seconds(1), "the move and its author on the viewer") {
            titles($0) == ["Event Log", "Calendar"] && $0.last?.contains("alice moved 1 Calendar") == true
        }
        #expect(titles(seen) == ["Event Log", "Calendar"])
        #expect(seen.last?.contains("alice moved 1 Calendar") == true, "\(seen.last ?? "")")

        // Alice on another machine: the picker lists the canvas, and opening it shows the move.
        let elsewhere = try await TmuxSession([Products.termcanvas.path, "--bff", server.url, "--date", "2026-11-22"],
                                              size: Size(width: 100, height: 30), environment: try await server.logIn("alice"))
        try await elsewhere.waitFor("November 2026")
        try await elsewhere.waitForLog("online: the live stream is connected")
        try await elsewhere.send("C-o")
        try await elsewhere.waitFor("oncall — not opened here, on the server, open: alice, bob")
        try await elsewhere.sendLiteral("oncall")
        try await elsewhere.send("Enter")
        // The panes and the notice saying so may reach the screen a frame apart.
        let opened = try await elsewhere.waitForScreen("oncall opened elsewhere") {
            titles($0) == ["Event Log", "Calendar"] && $0.last?.contains("Opened oncall, shared") == true
        }
        #expect(opened.last?.contains("Opened oncall, shared") == true, "\(opened.last ?? "")")
        try await elsewhere.send("q")

        // The layout picker says who has it open.
        try await viewer.send("C-o")
        try await viewer.waitFor("oncall (current) — 2 panes, shared by alice, viewer, open: alice, bob")
        try await viewer.send("Escape")
        // Closed before the next key, which would otherwise join the Escape as Alt+key.
        try await viewer.waitForScreen("the picker closed") { !$0.joined().contains("Layouts") }

        // The viewer's arrange key is refused, and says why.
        try await viewer.send("C-e")
        let refused = try await viewer.waitFor("Read-only: alice shared oncall with you as a viewer; ask them to make you an editor")
        #expect(refused.last?.contains("NORMAL") == true)

        // Offline, the editor shrinks the calendar; once the server is back, the viewer sees it.
        // (A row ends where the last pane does: the calendar, on the right, ends one unit in.)
        server.stop()
        try await editor.waitForScreen("offline") { $0.joined().contains("offline") }
        try await editor.send("S-Left")
        try await editor.waitForScreen("the calendar narrower") { $0[0].count < 95 }
        try await server.restart()
        // Said as alice's change when the stream brings it first, or as caught up when the
        // viewer's catch-up, as its stream reconnects, brings it first.
        let merged = try await viewer.waitForScreen(timeout: .seconds(20), "the merged resize, said") { screen in
            screen[0].count < 95 && ["alice resized 1 Calendar", "Caught up: oncall changed on the server meanwhile"].contains { screen.last?.contains($0) == true }
        }
        #expect(merged[0].count < 95, "\(merged[0])")

        // Saved under a new name while connected, a layout is stored on the server as one's own.
        try await viewer.send("C-s")
        try await viewer.send("C-u")
        try await viewer.sendLiteral("bobs")
        try await viewer.send("Enter")
        try await viewer.waitFor("Saved bobs on the server")
        try await viewer.send("Tab")  // the notice goes with the next key; the status bar names the canvas
        try await viewer.waitFor("bobs · shared")
        #expect(LayoutListing.lists(try await run(["layout", "list"] + bff, bob), "bobs", "on the server"))

        // One change each, in order, none twice.
        let changes = try await server.canvasChanges("alice")
        #expect(changes == ["move 1", "resize 1"], "\(changes)")
        let audit = try await run(["audit"] + bff, try await server.logIn("root"))
        #expect(audit.contains("alice\tcanvas.created") && audit.contains("alice\tcanvas.shared"), "\(audit)")
    }
}

extension TeamServer {
    /// The changes of `user`'s first canvas on the server, as `op pane`.
    func canvasChanges(_ user: String) async throws -> [String] {
        let token = try await token(user)
        let answer = try await Command.run(["curl", "-sf", url + "/api/canvas/1/changes?after=0", "-H", "Authorization: Bearer \(token)"])
        let object = try JSONSerialization.jsonObject(with: Data(answer.output.utf8)) as? [String: Any]
        return (object?["items"] as? [[String: Any]])?.compactMap { item in
            (item["operation"] as? [String: Any]).map { "\($0["op"] ?? "?") \($0["pane"] ?? "?")" }
        } ?? []
    }
}
