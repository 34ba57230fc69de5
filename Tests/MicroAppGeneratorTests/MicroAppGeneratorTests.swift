import BFFTesting
import CanvasFiles
import Foundation
import MicroAppGenerator
import MicroAppHost
import ModelClient
import Testing
import Widgets

/// The generator against a scripted OpenAI-compatible server on loopback that answers, connection
/// by connection, with fixture files (`Fixtures/answers/`), streamed in pieces as a model does.
@Suite("MicroAppGenerator: an app from a sentence, checked and run before anyone is asked", .serialized)
struct MicroAppGeneratorTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/answers")
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// A server giving `answers[i]` (a fixture's name) to the i-th request (the last one to any after).
    static func server(_ answers: [String]) throws -> RawServer {
        try server(texts: try answers.map { try String(contentsOf: fixtures.appendingPathComponent($0 + ".txt"), encoding: .utf8) })
    }

    /// A server giving `texts[i]` to the i-th request (the last one to any after).
    static func server(texts: [String]) throws -> RawServer {
        try RawServer { connection, index in
            connection.readRequest()
            connection.write("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\n")
            var rest = Substring(texts[min(index, texts.count - 1)])
            while !rest.isEmpty {
                let piece = String(rest.prefix(40))
                rest = rest.dropFirst(40)
                let json = String(decoding: try! JSONEncoder().encode(piece), as: UTF8.self)
                connection.write("data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\(json)}}]}\n\n")
            }
            connection.write("data: [DONE]\n\n")
            connection.close()
        }
    }

    static func generator(_ server: RawServer) throws -> MicroAppGenerator {
        let model = ModelClient(settings: ModelSettings(baseURL: "http://127.0.0.1:\(server.port)/v1", model: "scripted", keyVariable: nil),
                                key: nil)
        var generator = MicroAppGenerator(model: model, prompt: try GenerationPrompt.shipped(in: [repository.appendingPathComponent("apps")],
                                                                                           language: .python))
        generator.trialLimit = .seconds(8)
        return generator
    }

    /// The trial runs' folders in the temporary directory.
    static func trialFolders() throws -> Set<String> {
        Set(try FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory()).filter { $0.hasPrefix("termcanvas-new-") })
    }

    static let request = GenerationRequest(description: "count my laps", language: .python)
    static var environment: [String: String] { ProcessInfo.processInfo.environment }

    @Test func aGoodAnswerIsRunPreviewedAndInstalledPrivately() async throws {
        let server = try Self.server(["good"])
        defer { server.stop() }
        let before = try Self.trialFolders()
        let generated = try await Self.generator(server).generate(Self.request, environment: Self.environment)
        #expect(generated.manifest.id == "lap-counter")
        let preview = ViewPreview.lines(generated.preview, size: GeneratedApp.previewSize)
        #expect(preview.first?.hasPrefix("laps 0") == true, "\(preview)")
        #expect(generated.script.contains("def view():"))
        #expect(!generated.script.contains("```"))
        #expect(generated.permissions.publish.isEmpty && generated.permissions.http.isEmpty && generated.permissions.subscribe.isEmpty)
        // The request carried the protocol document, the example and the description.
        let body = try #require(server.requestBodies.first)
        #expect(body.contains("view nodes") && body.contains("sysmon") && body.contains("count my laps"))
        // The document's sections for an app's writer only: the messages, every view node, the
        // deadlines, permissions and the manifest's keys; not remote apps, versioning or restarts.
        for kept in ["## 3. Host", "### 4.3 `http`", "#### `sparkline`", "### 6.2 Deadlines", "### 6.3 Permissions", "### 7.1 Keys"] {
            #expect(body.contains(kept), "\(kept)")
        }
        for leftOut in ["## 8. Over HTTP", "## 9. Versioning", "### 6.4 Crashes", "### 7.4 Where apps", "## Appendix"] {
            #expect(!body.contains(leftOut), "\(leftOut)")
        }
        // About 17k tokens: the document grew by an app's settings and the events it starts knowing.
        #expect(body.utf8.count < 70_000, "\(body.utf8.count) bytes")
        #expect(try Self.trialFolders() == before, "nothing on disk before it is installed")

        let apps = FileManager.default.temporaryDirectory.appendingPathComponent("tc-gen-\(UUID().uuidString.prefix(8))/apps")
        defer { try? FileManager.default.removeItem(at: apps.deletingLastPathComponent()) }
        let folder = try generated.install(into: apps, description: "count my laps")
        // What the user reviewed, and the description: nothing a trial run may have written.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["app.py", "app.yaml", GeneratedApp.promptFile])
        let installed = try AppFolders.read(folder, isShipped: false)
        #expect(installed.manifest == generated.manifest)
        #expect(try String(contentsOf: folder.appendingPathComponent(GeneratedApp.promptFile), encoding: .utf8) == "count my laps")
        for path in [folder.path, folder.appendingPathComponent("app.py").path, folder.appendingPathComponent("app.yaml").path] {
            let mode = try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
            #expect(mode & 0o077 == 0, "\(path) is \(String(mode, radix: 8))")
        }
    }

    @Test func aMalformedAnswerIsSentBackWithItsProblemThenTheGoodOneIsTaken() async throws {
        let server = try Self.server(["malformed", "good"])
        defer { server.stop() }
        _ = try await Self.generator(server).generate(Self.request, environment: Self.environment)
        #expect(server.connections == 2)
        let second = try #require(server.requestBodies.last)
        #expect(second.contains("could not be used"))
        #expect(second.contains("has no '=== FILE: app.yaml ===' line"))
    }

    @Test(arguments: [("crashes", "exited"), ("silent", "")])
    func anAppThatCrashesOrNeverAnswersIsCaughtAndReported(fixture: String, reason: String) async throws {
        let server = try Self.server([fixture])
        defer { server.stop() }
        var generator = try Self.generator(server)
        generator.trialLimit = .seconds(3)
        let before = try Self.trialFolders()
        let error = await #expect(throws: GenerationProblem.self) { try await generator.generate(Self.request, environment: Self.environment) }
        #expect(server.connections == 3, "the first answer and two more after the problem")
        #expect(error?.description.contains("trial run") == true, "\(String(describing: error))")
        if fixture == "crashes" {
            #expect(error?.description.contains(reason) == true && error?.description.contains("NameError") == true,
                    "\(String(describing: error))")
            #expect(server.requestBodies.last?.contains("NameError") == true, "the app's stderr is sent back")
        }
        #expect(try Self.trialFolders().subtracting(before).isEmpty, "nothing left on disk")
    }

    /// The model's answer as an attacker writes it: at start, the intruder fixture's attempts on
    /// this user's key, HOME and processes, its findings drawn as the view the user previews.
    static func hostileAnswer(targets: [String: Any]) throws -> String {
        let intruder = repository.appendingPathComponent("Tests/EndToEndTests/Fixtures/apps/intruder/intruder.py")
        let json = String(decoding: try JSONSerialization.data(withJSONObject: targets), as: UTF8.self)
        let script = try String(contentsOf: intruder, encoding: .utf8)
            .replacingOccurrences(of: "json.loads(os.environ.get(\"INTRUDER_TARGETS\", \"{}\"))", with: "json.loads('\(json)')")
        return """
            === FILE: app.yaml ===
            ```yaml
            id: quick-notes
            name: Quick notes
            version: 1.0.0
            description: Notes, quickly
            protocol: 1
            exec: [python3, app.py]
            limits: { memory: 16GiB, processes: 4096, disk: 64GiB }
            ```
            === FILE: app.py ===
            ```python
            \(script)
            ```
            === END ===
            """
    }

    @Test(.enabled(if: SandboxSupport.current.isEnforced))
    func aHostileAnswersTrialRunGetsNothingOfTheUsers() async throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("tc-trial-home-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: home) }
        try FileManager.default.createDirectory(at: home.appendingPathComponent(".ssh"), withIntermediateDirectories: true)
        let key = home.appendingPathComponent(".ssh/id_ed25519")
        try Data("-----BEGIN OPENSSH PRIVATE KEY-----\nsecret\n".utf8).write(to: key)
        let dropped = home.appendingPathComponent("PWNED-BY-TRIAL")
        let sharedMemoryKey = Int32.random(in: 0x1000_0000...0x7000_0000)
        let sharedMemory = shmget(sharedMemoryKey, 4096, IPC_CREAT | 0o600)
        defer { shmctl(sharedMemory, IPC_RMID, nil) }
        // Its answer asks for 16 GiB, 4096 processes and 64 GiB of disk; the trial run's are the
        // host's 32 MiB of disk, which four files of 12 MiB, unlinked while open, pass.
        let targets: [String: Any] = ["ssh": key.path, "token": key.path, "socket": home.appendingPathComponent("bff.sock").path, "port": 9,
                                      "other_port": 9, "dashboard": Int(getpid()), "sibling": Int(getpid()),
                                      "shm_key": Int(sharedMemoryKey), "unlinked_files": 4, "unlinked_mib_each": 12,
                                      "granted_writes": ["write_user_home": dropped.path], "granted_reads": ["list_user_ssh": key.path]]
        let server = try Self.server(texts: [try Self.hostileAnswer(targets: targets)])
        defer { server.stop() }
        var environment = Self.environment
        environment["HOME"] = home.path
        let generated = try await Self.generator(server).generate(Self.request, environment: environment)
        guard case .text(let text, _, _) = generated.preview.root else { throw GenerationProblem("no text: \(generated.preview.root)") }
        let got = Dictionary(text.split(separator: " ").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1)
            return (String(parts[0]), String(parts.last ?? ""))
        }, uniquingKeysWith: { $1 })
        let refused = ["read_ssh", "list_user_ssh", "unix_socket", "tcp_connect", "tcp_bind", "udp_send",
                       "signal_dashboard", "signal_keeper", "ptrace_sibling", "read_environ", "unshare", "mount", "prlimit_dashboard",
                       "setpriority_dashboard", "sysv_shm", "memfd"]
            + (SandboxSupport.current.hasWorld ? ["unlinked_past_limit", "read_shadow", "set_hostname", "capabilities"] : [])
        for attempt in refused { #expect(got[attempt].map { $0 != "ok" } == true, "\(attempt): \(got[attempt] ?? "missing") in \(text)") }
        // Its HOME was its own: written, and gone with the trial; the user's (in /tmp here, its own tmpfs there) untouched.
        #expect(got["write_home"] == "ok")
        #expect(!FileManager.default.fileExists(atPath: dropped.path))
        #expect(!text.contains("secret"))
    }

    @Test func withoutASandboxTheTrialRunRefusesToStartUnlessTold() async throws {
        let server = try Self.server(["good"])
        defer { server.stop() }
        var generator = try Self.generator(server)
        generator.sandbox = SandboxSupport(world: .refused(reason: "namespaces are refused (simulated)", remedy: "allow them"),
                                           landlock: .unavailable("this kernel has no Landlock (simulated)"))
        let error = await #expect(throws: GenerationProblem.self) { try await generator.generate(Self.request, environment: Self.environment) }
        #expect(error?.description.contains("not sandboxed on this system: namespaces are refused (simulated); no Landlock: this kernel has no Landlock (simulated)") == true)
        #expect(error?.description.contains("--trial-without-sandbox") == true)
        #expect(server.connections == 0, "the model is not even asked")
        generator.trialWithoutSandbox = true
        let generated = try await generator.generate(Self.request, environment: Self.environment)
        #expect(generated.manifest.id == "lap-counter")
    }
}
