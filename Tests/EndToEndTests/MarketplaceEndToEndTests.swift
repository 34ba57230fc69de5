import BFFTesting
import CanvasCore
import Foundation
import TestSupport
import Testing

/// The marketplace as a team meets it: `apps/sysmon` published as a package to a real team server,
/// found in a second user's catalog with what it asks for, installed from there and run; a newer
/// version asking for more, taken by `apps update` after it asks; a tampered archive refused; two
/// registries followed at once; suggestions from counts and from a sentence.
@Suite("The marketplace end to end", .serialized)
struct MarketplaceEndToEndTests {
    static let sysmon = RemoteAppsEndToEndTests.deploys.deletingLastPathComponent().appendingPathComponent("sysmon")

    static func termcanvas(_ arguments: [String], _ environment: [String: String], input: String? = nil) async throws -> Command.Result {
        try await Command.run([Products.termcanvas.path] + arguments, environment: environment, input: input)
    }

    /// A copy of `apps/sysmon` as the package `loadwatch` (a shipped app's id is not a package's
    /// to take) at `version`, also reading `~/notes` when `more`.
    static func loadwatch(version: String, more: Bool) throws -> URL {
        let copy = try RemoteAppsEndToEndTests.copy(of: sysmon, version: version)
        let manifest = copy.appendingPathComponent("app.yaml")
        var text = try String(contentsOf: manifest, encoding: .utf8).replacingOccurrences(of: "id: sysmon", with: "id: loadwatch")
            .replacingOccurrences(of: "publishes: [sysmon.cpu.high]", with: "publishes: [loadwatch.cpu.high]")
        if more { text = text.replacingOccurrences(of: "files: { read: [/proc] }", with: "files: { read: [/proc, ~/notes] }") }
        try text.write(to: manifest, atomically: true, encoding: .utf8)
        return copy
    }

    /// Changes one byte of a stored archive in the server's database, as an intruder there would.
    static func tamper(_ server: TeamServer, app: String, version: String) async throws {
        let script = """
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1], timeout=10)
            blob = bytearray(db.execute("SELECT archive FROM registry_versions WHERE app_id=? AND version=?", (sys.argv[2], sys.argv[3])).fetchone()[0])
            blob[600] ^= 1
            db.execute("UPDATE registry_versions SET archive=? WHERE app_id=? AND version=?", (bytes(blob), sys.argv[2], sys.argv[3]))
            db.commit()
            """
        let changed = try await Command.run(["python3", "-c", script, server.home + "/bff/bff.sqlite", app, version])
        try #require(changed.status == 0, "\(changed.output)")
    }

    /// Makes the server say that `version` already asked to read `~/notes`, as a hostile registry
    /// would to slip a new permission past `apps update`.
    static func claimNotesWereAsked(_ server: TeamServer, app: String, version: String) async throws {
        let script = """
            import json, sqlite3, sys
            db = sqlite3.connect(sys.argv[1], timeout=10)
            permissions = json.loads(db.execute("SELECT permissions FROM registry_versions WHERE app_id=? AND version=?", (sys.argv[2], sys.argv[3])).fetchone()[0])
            permissions["read"] = permissions["read"] + ["~/notes"]
            db.execute("UPDATE registry_versions SET permissions=? WHERE app_id=? AND version=?", (json.dumps(permissions), sys.argv[2], sys.argv[3]))
            db.commit()
            """
        let changed = try await Command.run(["python3", "-c", script, server.home + "/bff/bff.sqlite", app, version])
        try #require(changed.status == 0, "\(changed.output)")
    }

    /// Runs `statements` (SQL with `?` for the app and the version) on the server's database, as an
    /// intruder there would.
    static func rewrite(_ server: TeamServer, app: String, version: String, _ statements: [String]) async throws {
        let script = """
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1], timeout=10)
            for statement in sys.argv[4:]:
                db.execute(statement, (sys.argv[2], sys.argv[3]))
            db.commit()
            """
        let changed = try await Command.run(["python3", "-c", script, server.home + "/bff/bff.sqlite", app, version] + statements)
        try #require(changed.status == 0, "\(changed.output)")
    }

    /// Issue 52: the digest was the registry's word. Each version is signed by its publisher; the
    /// first install pins the key; a version signed by another is refused, both keys named, unless
    /// the user says so in a terminal; a rotation the pinned key signed is taken; an archive and its
    /// digest changed together on the server, or a signature taken away, are refused.
    @Test("signed packages: the first install pins the publisher's key; another key is refused naming both; a rotation is taken; a changed archive with its digest, or a signature taken away, is refused")
    func signedPackages() async throws {
        let server = try await TeamServer.start(users: ["alice", "bob", "mallory"], admins: ["alice"])
        defer { server.stop() }
        let alice = try await server.logIn("alice")
        let mallory = try await server.logIn("mallory")
        let bob = try await server.logIn("bob")
        func publish(_ version: String, as user: [String: String]) async throws -> Command.Result {
            let folder = try Self.loadwatch(version: version, more: false)
            defer { try? FileManager.default.removeItem(at: folder) }
            return try await Self.termcanvas(["apps", "publish", folder.path, "--bff", server.url], user)
        }
        func fingerprint(_ user: [String: String]) async throws -> String {
            let shown = try await Self.termcanvas(["apps", "keys", "show"], user)
            let line = try #require(shown.output.split(separator: "\n").first { $0.hasPrefix("fingerprint") }, "\(shown.output)")
            return String(line.dropFirst("fingerprint".count).trimmingCharacters(in: .whitespaces))
        }

        // Alice's first publish makes her key, and says so.
        let first = try await publish("1.0.0", as: alice)
        #expect(first.status == 0 && first.output.contains("Made your publisher key, ed25519 "), "\(first.output)")
        let aliceKey = try await fingerprint(alice)
        #expect(first.output.contains("signed by \(aliceKey)"))
        let keyFile = try FileManager.default.attributesOfItem(atPath: alice["XDG_CONFIG_HOME"]! + "/termcanvas/publisher.key")
        #expect((keyFile[.posixPermissions] as? Int) == 0o600)

        // Issue 55, item 8: a script's install without --yes printed the page, "Not installed." and
        // exited 0; it fails, naming --yes.
        let unanswered = try await Self.termcanvas(["apps", "install", "loadwatch", "--bff", server.url], bob, input: "")
        #expect(unanswered.status == 1 && unanswered.output.contains("loadwatch was not installed: no yes came")
                    && unanswered.output.contains("--yes` installs it without asking"), "\(unanswered.output)")

        // Bob's install shows the key and pins it.
        let installed = try await Self.termcanvas(["apps", "install", "loadwatch", "--yes", "--bff", server.url], bob)
        #expect(installed.status == 0, "\(installed.output)")
        #expect(installed.output.contains("signed by its publisher's key \(aliceKey), new to you: kept"), "\(installed.output)")

        // Mallory, made a publisher of it, publishes 1.1.0 with her own key: bob's update names both and asks; n refuses.
        #expect(try await Self.termcanvas(["apps", "publishers", "loadwatch", "--add", "mallory", "--bff", server.url], alice).status == 0)
        #expect(try await publish("1.1.0", as: mallory).status == 0)
        let malloryKey = try await fingerprint(mallory)
        let update = try await TmuxSession([Products.termcanvas.path, "apps", "update"], size: Size(width: 150, height: 20), environment: bob)
        let asked = try await update.waitFor("y takes it and keeps the new key")
        #expect(asked.contains { $0.contains("signed by \(malloryKey)") } && asked.contains { $0.contains("not by \(aliceKey), the key you kept") }, "\(asked)")
        try await update.send("n")
        let refused = try await update.waitForExit()
        #expect(refused.status != 0 && refused.stderr.contains("you kept \(aliceKey). Nothing was installed"), "\(refused.stderr)")
        // Without a terminal (or with --yes) another key is never taken.
        let unattended = try await Self.termcanvas(["apps", "update", "--yes"], bob)
        #expect(unattended.status != 0 && unattended.output.contains("signed by another key than the one you kept"), "\(unattended.output)")
        #expect(try await Self.termcanvas(["apps", "list"], bob).output.contains("loadwatch\t1.0.0"))

        // Alice rotates her key; 1.2.0, signed by the new one, is taken: the old key handed over.
        let rotated = try await Self.termcanvas(["apps", "keys", "new", "--rotate"], alice)
        #expect(rotated.status == 0 && rotated.output.contains("signed over from \(aliceKey)"), "\(rotated.output)")
        let newKey = try await fingerprint(alice)
        #expect(newKey != aliceKey)
        #expect(try await publish("1.2.0", as: alice).status == 0)
        let taken = try await Self.termcanvas(["apps", "update", "--yes"], bob)
        #expect(taken.status == 0 && taken.output.contains("new key \(newKey), handed over by the key you kept, \(aliceKey)"), "\(taken.output)")
        #expect(taken.output.contains("Updated loadwatch to 1.2.0"))

        // An intruder in the server's database gives 1.3.0 the archive and digest of 1.2.0's: refused.
        #expect(try await publish("1.3.0", as: alice).status == 0)
        try await Self.rewrite(server, app: "loadwatch", version: "1.3.0", [
            """
            UPDATE registry_versions SET (archive, digest, size) = (SELECT archive, digest, size FROM registry_versions o
                WHERE o.app_id = registry_versions.app_id AND o.version = '1.2.0') WHERE app_id = ? AND version = ?
            """,
        ])
        let forged = try await Self.termcanvas(["apps", "update", "--yes"], bob)
        #expect(forged.status != 0 && forged.output.contains("its signature is not its publisher key's of this version and archive"), "\(forged.output)")
        // And with the signature taken away: what bob has was signed, so an unsigned version is not taken.
        try await Self.rewrite(server, app: "loadwatch", version: "1.3.0", ["UPDATE registry_versions SET signature = NULL WHERE app_id = ? AND version = ?"])
        let stripped = try await Self.termcanvas(["apps", "update", "--yes"], bob)
        #expect(stripped.status != 0 && stripped.output.contains("it is not signed, but what you have was signed by \(newKey)"), "\(stripped.output)")
        #expect(try await Self.termcanvas(["apps", "list"], bob).output.contains("loadwatch\t1.2.0"))
    }

    /// Issue 52: a registry frozen in the past or rolled back went unnoticed. Its answers are
    /// signed with a revision and an expiry; an answer kept and served again after the app changed
    /// is refused, naming both revisions.
    @Test("a registry answer replayed from before (an older revision than one seen) is refused")
    func replayedRegistryAnswer() async throws {
        let server = try await TeamServer.start(users: ["alice", "bob"], admins: ["alice"])
        defer { server.stop() }
        let alice = try await server.logIn("alice")
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("tc-replay-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let port = LoopbackPort.random()
        let proxy = try Command.start(["python3", RemoteAppsEndToEndTests.fixtures.deletingLastPathComponent().appendingPathComponent("registry/replaying-proxy.py").path,
                                       "\(port)", server.url, "/api/registry/apps/loadwatch", work.path + "/kept.json", work.path + "/replay"])
        defer { kill(proxy, SIGKILL) }
        let mirror = "http://127.0.0.1:\(port)"
        try await Command.waitUntilAnswering(mirror + "/health")
        let bob = try DashboardSessionTests.isolatedHome(canvasLayout: false).environment
        let login = try await Command.run([Products.termcanvas.path, "login", mirror, "--user", "bob"], environment: bob, input: "password-bob\n")
        try #require(login.status == 0, "\(login.output)")

        let first = try Self.loadwatch(version: "1.0.0", more: false)
        defer { try? FileManager.default.removeItem(at: first) }
        #expect(try await Self.termcanvas(["apps", "publish", first.path, "--bff", server.url], alice).status == 0)
        // Bob installs through the mirror, which keeps the answer (revision 1).
        let installed = try await Self.termcanvas(["apps", "install", "loadwatch", "--yes"], bob)
        #expect(installed.status == 0, "\(installed.output)")
        let second = try Self.loadwatch(version: "1.1.0", more: false)
        defer { try? FileManager.default.removeItem(at: second) }
        #expect(try await Self.termcanvas(["apps", "publish", second.path, "--bff", server.url], alice).status == 0)
        // Bob sees 1.1.0 (revision 2).
        let checked = try await Self.termcanvas(["apps", "update", "--check"], bob)
        #expect(checked.status == 0 && checked.output.contains("loadwatch 1.0.0 → 1.1.0"), "\(checked.output)")
        // The mirror now serves revision 1 again: refused, though it is signed and not expired.
        try Data().write(to: work.appendingPathComponent("replay"))
        let replayed = try await Self.termcanvas(["apps", "update", "--check"], bob)
        #expect(replayed.status != 0 && replayed.output.contains("it shows revision 1, older than revision 2 you saw there before"),
                "\(replayed.output)")
        // Its signature taken away as well: a registry that signed before must sign.
        let edited = try await Command.run(["python3", "-c", """
            import json, sys
            kept = json.load(open(sys.argv[1]))
            kept["headers"] = [h for h in kept["headers"] if h[0].lower() != "termcanvas-registry-signature"]
            json.dump(kept, open(sys.argv[1], "w"))
            """, work.path + "/kept.json"])
        try #require(edited.status == 0, "\(edited.output)")
        let stripped = try await Self.termcanvas(["apps", "update", "--check"], bob)
        #expect(stripped.status != 0 && stripped.output.contains("it is not signed by the registry's key, which signed its answers before"),
                "\(stripped.output)")
    }

    @Test("published by an admin, found in a user's catalog with its permissions, installed and run; 1.1.0 asks for more at apps update; a tampered archive is refused, its digest named")
    func publishInstallUpdateTamper() async throws {
        let server = try await TeamServer.start(users: ["alice", "bob", "carol"], admins: ["alice"])
        defer { server.stop() }
        let alice = try await server.logIn("alice")
        let first = try Self.loadwatch(version: "1.0.0", more: false)
        defer { try? FileManager.default.removeItem(at: first) }
        let published = try await Self.termcanvas(["apps", "publish", first.path, "--bff", server.url], alice)
        #expect(published.status == 0, "\(published.output)")
        #expect(published.output.contains("Published loadwatch 1.0.0 to 127.0.0.1:\(server.port) as a package"))
        #expect(published.output.contains("It asks to: publish loadwatch.cpu.high; keep state with the layout; reads /proc"))

        // Bob finds it in the catalog, with what it asks for, and installs it from there.
        let bob = try await server.logIn("bob", canvasLayout: true)
        let session = try await server.dashboard(bob)
        try await session.waitFor("bff.registry.loaded")
        try await session.send("C-e")
        try await session.waitFor("ARRANGE")
        try await session.send("a")
        let catalog = try await session.waitFor("From the registry")
        let line = try #require(catalog.first { $0.contains("(loadwatch) — from 127.0.0.1:\(server.port), asks to publish loadwatch.cpu.high") })
        let number = try #require(RemoteAppsEndToEndTests.number(before: "System monitor", in: line))
        try await session.send(String(number), "Enter")
        try await session.waitFor("Installed System monitor 1.0.0")
        let asking = try await session.waitFor("System monitor 1.0.0 · asks for permission")
        #expect(asking.contains { $0.contains("• reads /proc") })
        try await session.send("Escape")
        _ = try await session.waitForScreen("normal mode") { !$0.contains { $0.contains("ARRANGE") } }
        try await session.send("y")
        try await session.waitFor("CPU ")
        let listed = try await Self.termcanvas(["apps", "list"], bob)
        #expect(listed.output.contains("loadwatch\t1.0.0\tSystem monitor\tprotocol 1.0\tfrom 127.0.0.1:\(server.port)\tgranted"), "\(listed.output)")

        // 1.1.0 reads ~/notes too: apps update shows that, and asks.
        let newer = try Self.loadwatch(version: "1.1.0", more: true)
        defer { try? FileManager.default.removeItem(at: newer) }
        #expect(try await Self.termcanvas(["apps", "publish", newer.path, "--bff", server.url], alice).status == 0)
        // The server now lies that 1.0.0 read ~/notes already: what 1.1.0 adds is still measured
        // against the app.yaml bob installed.
        try await Self.claimNotesWereAsked(server, app: "loadwatch", version: "1.0.0")
        let update = try await TmuxSession([Products.termcanvas.path, "apps", "update"], size: Size(width: 120, height: 20), environment: bob)
        let shown = try await update.waitFor("Enter takes it and lets it do that too")
        #expect(shown.contains { $0.contains("loadwatch 1.0.0 → 1.1.0 from 127.0.0.1:\(server.port)") })
        #expect(shown.contains { $0.contains("+ reads ~/notes") })
        #expect(!shown.contains { $0.contains("+ reads /proc") }, "only what it adds")
        try await update.send("Enter")
        try await update.waitFor("Updated loadwatch to 1.1.0")
        #expect(try await update.waitForExit().status == 0)
        // Its pane restarts with the new version, which runs with its grant.
        _ = try await session.waitForScreen("the pane running 1.1.0") { screen in
            screen.contains { $0.contains("System monitor 1.1.0 ─") || $0.contains("System monitor 1.1.0 ━") }
        }

        // 1.1.0 withdrawn: it stays on bob's machine, and its pane's title says so.
        #expect(try await Self.termcanvas(["apps", "withdraw", "loadwatch@1.1.0", "--bff", server.url], alice).status == 0)
        try await session.waitFor("System monitor 1.1.0 (withdrawn)", timeout: .seconds(15))
        #expect(try await Self.termcanvas(["apps", "list"], bob).output.contains("from 127.0.0.1:\(server.port), withdrawn"))

        // Carol, who has none, is suggested it from counts.
        let carol = try await server.logIn("carol")
        let suggested = try await Self.termcanvas(["apps", "suggest", "--bff", server.url], carol)
        #expect(suggested.output.contains("loadwatch\t1.0.0\tSystem monitor\tinstalled by 1 teammate\t127.0.0.1:\(server.port)"), "\(suggested.output)")

        // A byte changed in the server's database: the install is refused, naming the page's digest.
        let page = try await Command.run(["curl", "-sf", server.url + "/api/registry/apps/loadwatch", "-H", "Authorization: Bearer \(try await server.token("carol"))"])
        let current = try await Command.run(["python3", "-c", "import json, sys; print(json.load(sys.stdin)['app']['package']['digest'])"],
                                            input: page.output)
        let digest = current.output.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(digest.count == 64, "\(current.output)")
        try await Self.tamper(server, app: "loadwatch", version: "1.0.0")
        let refused = try await Self.termcanvas(["apps", "install", "loadwatch", "--yes", "--bff", server.url], carol)
        #expect(refused.status == 1)
        #expect(refused.output.contains("refused loadwatch 1.0.0 from 127.0.0.1:\(server.port): its page says digest sha256:\(digest)"), "\(refused.output)")
        #expect(refused.output.contains("nothing was installed"))
        #expect(!FileManager.default.fileExists(atPath: carol["XDG_CONFIG_HOME"]! + "/termcanvas/apps/loadwatch"))

        try await session.send("C-q")
        #expect(try await session.waitForExit().status == 0)
    }

    @Test("two registries followed at once: search merges them and qualifies an id both have; install needs the qualified name, and --replace for a shipped app's id; updates come from the registry installed from; one down, the other's package is taken only by name")
    func twoRegistries() async throws {
        let team = try await TeamServer.start(users: ["alice"], admins: ["alice"])
        defer { team.stop() }
        let public_ = try await TeamServer.start(users: ["alice"], admins: ["alice"])
        defer { public_.stop() }
        let alice = try await team.logIn("alice")
        let login = try await Self.termcanvas(["login", public_.url, "--user", "alice"], alice, input: "password-alice\n")
        try #require(login.status == 0, "\(login.output)")
        let pomodoro = RemoteAppsEndToEndTests.deploys.deletingLastPathComponent().appendingPathComponent("pomodoro")
        for (server, app) in [(team, Self.sysmon), (team, pomodoro), (public_, pomodoro)] {
            let published = try await Self.termcanvas(["apps", "publish", app.path, "--bff", server.url], alice)
            #expect(published.status == 0, "\(published.output)")
        }
        let (teamName, publicName) = ("127.0.0.1:\(team.port)", "127.0.0.1:\(public_.port)")
        let search = try await Self.termcanvas(["apps", "search", "--kind", "package"], alice)
        #expect(search.status == 0, "\(search.output)")
        let lines = search.output.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("sysmon\t1.0.0\tpackage\t") && $0.hasSuffix("\t" + teamName) }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("\(teamName)/pomodoro\t") && $0.hasSuffix("\t" + teamName) }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("\(publicName)/pomodoro\t") && $0.hasSuffix("\t" + publicName) }, "\(lines)")
        // Issue 55: a built-in app is the same in every registry, so it is listed once.
        let all = try await Self.termcanvas(["apps", "search"], alice)
        let todos = all.output.split(separator: "\n").filter { $0.contains("todo\t") && $0.contains("\tbuiltin\t") }
        #expect(todos.count == 1 && todos.first?.hasPrefix("todo\t") == true, "\(all.output)")
        // On a terminal the rows have a header, and a description is cut with a mark to fit.
        let onScreen = try await TmuxSession([Products.termcanvas.path, "apps", "search"], size: Size(width: 160, height: 30), environment: alice)
        let screen = try await onScreen.waitFor("REGISTRY")
        #expect(screen.first?.hasPrefix("ID") == true && screen.first?.contains("DESCRIPTION") == true, "\(screen)")
        #expect(screen.contains { $0.hasPrefix("chat ") && $0.contains("Channels shared by everyone on this ser…") }, "\(screen)")

        // The catalog of a dashboard on the team server offers the public registry's packages too.
        let session = try await team.dashboard(alice)
        try await session.send("C-e")
        try await session.waitFor("ARRANGE")
        try await session.send("a")
        let catalog = try await session.waitForScreen(timeout: .seconds(15), "both registries' packages in the catalog") { screen in
            screen.contains { $0.contains("(\(publicName)/pomodoro) — from \(publicName)") }
        }
        #expect(catalog.contains { $0.contains("(\(teamName)/pomodoro) — from \(teamName)") }, "\(catalog)")
        #expect(catalog.contains { $0.contains("(sysmon) — from \(teamName)") }, "\(catalog)")
        try await session.send("Escape")
        try await session.waitForScreen("the catalog closed") { !$0.contains { $0.contains("Add a widget") } }
        try await session.send("Escape")
        _ = try await session.waitForScreen("normal mode") { !$0.contains { $0.contains("ARRANGE") } }
        try await session.send("C-q")
        #expect(try await session.waitForExit().status == 0)

        let ambiguous = try await Self.termcanvas(["apps", "install", "pomodoro", "--yes"], alice)
        #expect(ambiguous.status == 1)
        #expect(ambiguous.output.contains("pomodoro is in 2 registries: name one, as "), "\(ambiguous.output)")
        #expect(ambiguous.output.contains("\(teamName)/pomodoro") && ambiguous.output.contains("\(publicName)/pomodoro"))
        // pomodoro is shipped: a package of its id takes its place only by name and with --replace, after a warning.
        let reserved = try await Self.termcanvas(["apps", "install", "\(publicName)/pomodoro", "--yes"], alice)
        #expect(reserved.status == 1)
        #expect(reserved.output.contains("pomodoro is an app shipped with TermCanvas; \(publicName)'s package of that id is someone else's. "
                                         + "To run theirs in its place: termcanvas apps install \(publicName)/pomodoro --replace"), "\(reserved.output)")
        let installed = try await Self.termcanvas(["apps", "install", "\(publicName)/pomodoro", "--yes", "--replace"], alice)
        #expect(installed.status == 0, "\(installed.output)")
        #expect(installed.output.contains("Careful: this package takes the id of the shipped pomodoro; every pomodoro pane will run it instead."))
        #expect(installed.output.contains("Installed pomodoro 1.0.0 from \(publicName)"))

        // A newer pomodoro on the team server only: the one from the public registry is up to date.
        let newer = try RemoteAppsEndToEndTests.copy(of: pomodoro, version: "1.1.0")
        defer { try? FileManager.default.removeItem(at: newer) }
        #expect(try await Self.termcanvas(["apps", "publish", newer.path, "--bff", team.url], alice).status == 0)
        let update = try await Self.termcanvas(["apps", "update", "pomodoro"], alice)
        #expect(update.output.contains("pomodoro 1.0.0: up to date"), "\(update.output)")

        // Withdrawn at its registry: kept here, and said so.
        #expect(try await Self.termcanvas(["apps", "withdraw", "pomodoro@1.0.0", "--bff", public_.url], alice).status == 0)
        let marked = try await Self.termcanvas(["apps", "update"], alice)
        #expect(marked.output.contains("pomodoro 1.0.0: withdrawn from \(publicName); kept here, marked withdrawn"), "\(marked.output)")
        let listed = try await Self.termcanvas(["apps", "list"], alice)
        #expect(listed.output.contains("from \(publicName), withdrawn"), "\(listed.output)")

        // The team's server down: the package the public registry has is not taken in its place unnamed.
        let loadwatch = try Self.loadwatch(version: "1.0.0", more: false)
        defer { try? FileManager.default.removeItem(at: loadwatch) }
        #expect(try await Self.termcanvas(["apps", "publish", loadwatch.path, "--bff", public_.url], alice).status == 0)
        team.stop()
        let unasked = try await Self.termcanvas(["apps", "install", "loadwatch", "--yes"], alice)
        #expect(unasked.status == 1)
        #expect(unasked.output.contains("so loadwatch was not looked for everywhere. To take it from \(publicName), which has it: "
                                        + "termcanvas apps install \(publicName)/loadwatch"), "\(unasked.output)")
        #expect(!FileManager.default.fileExists(atPath: alice["XDG_CONFIG_HOME"]! + "/termcanvas/apps/loadwatch"))
        let named = try await Self.termcanvas(["apps", "install", "\(publicName)/loadwatch", "--yes"], alice)
        #expect(named.status == 0, "\(named.output)")
    }

    @Test("apps suggest \"a sentence\": the model is told the registries' ids, names and descriptions, and only ids of them are shown")
    func suggestionBySentence() async throws {
        let server = try await TeamServer.start(users: ["alice"], admins: ["alice"])
        defer { server.stop() }
        let alice = try await server.logIn("alice")
        #expect(try await Self.termcanvas(["apps", "publish", Self.sysmon.path, "--bff", server.url], alice).status == 0)
        let noModel = try await Self.termcanvas(["apps", "suggest", "watch my machine", "--bff", server.url], alice)
        #expect(noModel.status == 1 && noModel.output.contains("no language model is configured"), "\(noModel.output)")

        let model = try RawServer { connection, _ in
            connection.readRequest()
            connection.write("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\n")
            let answer = #"sysmon\nnot-an-app\n\u001b[2J todo"#
            connection.write("data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"\(answer)\"}}]}\n\ndata: [DONE]\n\n")
            connection.close()
        }
        defer { model.stop() }
        let config = alice["XDG_CONFIG_HOME"]! + "/termcanvas"
        try FileManager.default.createDirectory(atPath: config, withIntermediateDirectories: true)
        try "baseURL: http://127.0.0.1:\(model.port)/v1\nmodel: scripted\n".write(toFile: config + "/ai.yaml", atomically: true, encoding: .utf8)
        let ranked = try await Self.termcanvas(["apps", "suggest", "watch my machine", "--bff", server.url], alice)
        #expect(ranked.status == 0, "\(ranked.output)")
        let lines = ranked.output.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("1. sysmon\t1.0.0\tSystem monitor\t") == true, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("2. todo\t") && $0.hasSuffix("in the catalog (a)") }, "\(lines)")
        #expect(!ranked.output.contains("not-an-app") && !ranked.output.contains("\u{1B}"))
        let asked = try #require(model.requestBodies.first)
        #expect(asked.contains("Need: watch my machine") && asked.contains("- sysmon: System monitor"))
    }
}
