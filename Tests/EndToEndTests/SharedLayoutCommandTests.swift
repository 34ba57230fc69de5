import Foundation
import Testing
import TestSupport

/// `termcanvas layout move|share|unshare|members|list --bff` and `termcanvas audit`, run as a user
/// would against a real team server.
@Suite(.serialized)
struct SharedLayoutCommandTests {
    private func run(_ arguments: [String], _ environment: [String: String]) async throws -> (status: Int32, output: String) {
        let result = try await Command.run([Products.termcanvas.path] + arguments, environment: environment)
        return (result.status, result.output)
    }

    @Test func aLayoutMovesToTheServerIsSharedAndComesBackAndTheAuditLogSaysWho() async throws {
        let server = try await TeamServer.start(users: ["alice", "bob", "root"], admins: ["root"])
        defer { server.stop() }
        let alice = try await server.logIn("alice")
        let bob = try await server.logIn("bob")
        let root = try await server.logIn("root")
        let bff = ["--bff", server.url]

        let moved = try await run(["layout", "move", "default", "--to", "server"] + bff, alice)
        #expect(moved.status == 0 && moved.output.hasPrefix("moved default to the server (canvas "), "\(moved.output)")
        let listed = try await run(["layout", "list"] + bff, alice)
        #expect(LayoutListing.lists(listed.output, "default", panes: 3, "on the server"), "\(listed.output)")

        #expect(try await run(["layout", "share", "default", "bob", "--role", "editor"] + bff, alice).status == 0)
        #expect(LayoutListing.lists(try await run(["layout", "list"] + bff, bob).output, "default", panes: 3, "shared with you by alice (editor)"))
        #expect(try await run(["layout", "members", "default"] + bff, bob).output == "alice\towner\nbob\teditor\n")
        // Only the owner shares; the role is editor or viewer.
        let bobShares = try await run(["layout", "share", "default", "root"] + bff, bob)
        #expect(bobShares.status != 0 && bobShares.output.contains("no layout of yours named default"), "\(bobShares.output)")
        #expect(try await run(["layout", "share", "default", "bob", "--role", "owner"] + bff, alice).status != 0)

        #expect(try await run(["layout", "unshare", "default", "bob"] + bff, alice).status == 0)
        #expect(!(try await run(["layout", "list"] + bff, bob).output.contains("default\t-")))

        let back = try await run(["layout", "move", "default", "--to", "local"] + bff, alice)
        #expect(back.status == 0 && back.output == "moved default to this machine\n", "\(back.output)")
        let local = try await run(["layout", "list"] + bff, alice).output.split(separator: "\n")
        #expect(local.contains { $0.hasPrefix("default\t3 panes\t") && $0.hasSuffix("\tlocal") }, "\(local)")
        #expect(!local.contains { $0.hasSuffix("on the server") })

        let audit = try await run(["audit"] + bff, root)
        // Besides the logins (`user.login`), which the log records too.
        let actions = audit.output.split(separator: "\n").map { $0.split(separator: "\t").dropFirst().prefix(3).joined(separator: " ") }
            .filter { !$0.contains(" user.login ") }
        #expect(actions.map { $0.replacingOccurrences(of: #"canvas \d+"#, with: "canvas N", options: .regularExpression) } == [
            "alice canvas.deleted canvas N \"default\"", "alice canvas.unshared canvas N \"default\"",
            "alice canvas.shared canvas N \"default\"", "alice canvas.created canvas N \"default\"",
        ], "\(audit.output)")
        let notAdmin = try await run(["audit"] + bff, bob)
        #expect(notAdmin.status != 0 && notAdmin.output.contains("only an admin"), "\(notAdmin.output)")
    }

    @Test func aServerLayoutIsShownExportedItsChangesListedRevertedRenamedAndDeletedByItsOwner() async throws {
        let server = try await TeamServer.start(users: ["alice", "bob"])
        defer { server.stop() }
        let alice = try await server.logIn("alice")
        let bob = try await server.logIn("bob")
        let bff = ["--bff", server.url]
        let file = try #require(alice["HOME"]) + "/oncall.yaml"
        try SharedCanvasEndToEndTests.layout.write(toFile: file, atomically: true, encoding: .utf8)
        let stored = try await run(["layout", "import", file] + bff, alice)
        #expect(stored.status == 0 && stored.output.hasPrefix("stored oncall on the server (canvas "), "\(stored.output)")
        #expect(try await run(["layout", "share", "oncall", "bob", "--role", "editor"] + bff, alice).status == 0)

        let exported = try await run(["layout", "export", "oncall"] + bff, bob)
        #expect(exported.status == 0 && exported.output.contains("app: eventlog"), "\(exported.output)")
        let shown = try await run(["layout", "show", "oncall", "--size", "60x12"] + bff, bob)
        #expect(shown.status == 0 && shown.output.contains("1 Calendar") && shown.output.contains("2 Event Log"), "\(shown.output)")
        #expect(try await run(["layout", "show", "oncall"], bob).status != 0, "not on bob's machine")

        let token = try await server.token("alice")
        let edit = #"{"session":"cli-test","sequence":1,"operation":{"op":"move","pane":1,"to":{"x":6,"y":0}}}"#
        _ = try await Command.run(["curl", "-sf", "-X", "POST", server.url + "/api/canvas/1/changes", "-H", "Authorization: Bearer \(token)",
                                   "-H", "Content-Type: application/json", "-d", edit])
        let history = try await run(["layout", "history", "oncall"] + bff, bob)
        let change = history.output.split(separator: "\n")
        #expect(change == ["1\talice\tmoved pane 1 to 6,0"], "\(history.output)")
        // For scripts, the change as JSON, keys sorted.
        let asJSON = try await run(["layout", "history", "oncall", "--json"] + bff, bob).output
        #expect(asJSON.hasPrefix(#"{"author":"alice","operation":{"op":"move""#) && asJSON.contains(#""version":1"#), "\(asJSON)")

        // Bob (an editor) brings back version 0: the move taken back, as his edit.
        #expect(try await run(["layout", "revert", "oncall", "0"] + bff, bob).status == 0)
        let reverted = try await run(["layout", "history", "oncall"] + bff, bob).output.split(separator: "\n")
        #expect(reverted.count == 2 && reverted[1].hasPrefix("2\tbob\tmoved pane 1 to "), "\(reverted)")
        #expect(try await run(["layout", "export", "oncall"] + bff, bob).output == exported.output)

        let bobRenames = try await run(["layout", "rename", "oncall", "mine"] + bff, bob)
        #expect(bobRenames.status != 0 && bobRenames.output.contains("no layout of yours named oncall"), "\(bobRenames.output)")
        #expect(try await run(["layout", "rename", "oncall", "ops"] + bff, alice).status == 0)
        #expect(LayoutListing.lists(try await run(["layout", "list"] + bff, bob).output, "ops", "shared with you by alice (editor)"))

        let bobDeletes = try await run(["layout", "delete", "ops"] + bff, bob)
        #expect(bobDeletes.status != 0 && bobDeletes.output.contains("no layout of yours named ops"), "\(bobDeletes.output)")
        #expect(try await run(["layout", "delete", "ops"] + bff, alice).status == 0)
        #expect(!(try await run(["layout", "list"] + bff, bob).output.contains("ops")))
    }
}
