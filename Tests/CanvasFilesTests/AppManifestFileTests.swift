import CanvasCore
@testable import CanvasFiles
import Foundation
import MicroAppProtocol
import TestSupport
import Testing

@Suite("Micro-app manifests: read whole, mistakes named by file, line and field")
struct AppManifestFileTests {
    static let file = "apps/probe/app.yaml"

    /// A full manifest, one key per line, so every line number below is exact.
    static let base = [
        "id: probe", //                                          1
        "name: Probe", //                                        2
        "version: 1.2.3", //                                     3
        "description: Tries things", //                          4
        "protocol: 1", //                                        5
        "exec: [python3, -u, probe.py]", //                      6
        "workdir: .", //                                         7
        "env: [LANG, PROBE_TOKEN]", //                           8
        "events:", //                                            9
        "  publishes: [probe.thing.done]", //                    10
        "  subscribes: [calendar.date.selected, todo.*]", //     11
        "backend: [/api/todo/items]", //                         12
        "state: true", //                                        13
        "limits: { startup: 500ms, memory: 128MiB, openFiles: 32, processes: 64, disk: 64MiB, cpu: 1h, publishesPerSecond: 5, state: 16KiB, log: 64KiB }", // 14
        "minSize: { width: 30, height: 8 }", //                  15
    ]

    func parse(_ lines: [String]) throws -> AppManifest {
        try AppManifestFile.parse(text(lines), file: Self.file)
    }

    func error(_ lines: [String]) -> FileError? {
        do {
            _ = try parse(lines)
            return nil
        } catch {
            return error as? FileError
        }
    }

    /// Issue 40, item 13: the settings an app declares, a choice or true/false, each with its default.
    @Test func settingsAreDeclaredWithChoicesAndDefaults() throws {
        let manifest = try parse(Self.base + [
            "settings:",
            "  - { name: units, type: choice, choices: [metric, imperial], default: imperial, help: Units of measure }",
            "  - { name: seconds, type: bool }",
        ])
        #expect(manifest.settings == [AppManifest.Setting(name: "units", help: "Units of measure", choices: ["metric", "imperial"], defaultValue: "imperial"),
                                      AppManifest.Setting(name: "seconds", help: "", choices: ["true", "false"], defaultValue: "true")])
        #expect(manifest.settingValues(["units": "metric", "city": "Oslo"]) == .object(["units": "metric", "seconds": "true", "city": "Oslo"]))
        #expect(manifest.settingValues(["units": "kelvin"]) == .object(["units": "imperial", "seconds": "true"]))
    }

    @Test(arguments: [
        ("  - { name: units, type: colour }", "apps/probe/app.yaml:17:26: settings[0].type: expected choice or bool, got 'colour'"),
        ("  - { name: units, type: choice, choices: [metric] }", "apps/probe/app.yaml:17:43: settings[0].choices: expected 2 to 16 different choices"),
        ("  - { name: units, type: bool, default: maybe }", "apps/probe/app.yaml:17:41: settings[0].default: expected one of true, false, got 'maybe'"),
        ("  - { name: 'two words', type: bool }", "apps/probe/app.yaml:17:13: settings[0].name: expected a name of its own in a-z, A-Z, 0-9, - and _ (at most 32), got 'two words'"),
    ])
    func settingMistakesSayWhereAndWhat(_ example: (String, String)) {
        #expect(error(Self.base + ["settings:", example.0])?.description == example.1)
    }

    /// Issue 40, item 12: one run names every mistake, each with its line, in file order.
    @Test func everyMistakeIsNamedInOneRun() throws {
        var lines = Self.base
        lines[2] = "version: 1.2"
        lines[5] = "exec: node app.js"
        lines[9] = "  publishes: [timer.thing.done]"
        lines[13] = "limits: { memory: 1MiB }"
        lines.append("colour: blue")
        do {
            _ = try parse(lines)
            Issue.record("parsed")
        } catch let errors as FileErrors {
            #expect(errors.errors.map(\.line) == [3, 6, 10, 14, 16])
            #expect(errors.errors.map(\.field) == ["version", "exec", "events.publishes[0]", "limits.memory", "colour"])
            #expect(errors.description.components(separatedBy: "\n").count == 5)
            #expect(errors.description.contains("apps/probe/app.yaml:6:7: exec: is one string; write the program and its arguments as a list: [node, app.js]"))
        }
    }

    @Test func everyFieldIsRead() throws {
        let manifest = try parse(Self.base)
        var limits = AppManifest.Limits()
        limits.startupSeconds = 0.5
        limits.memoryBytes = 128 << 20
        limits.openFiles = 32
        limits.processes = 64
        limits.diskBytes = 64 << 20
        limits.cpuSeconds = 3600
        limits.publishesPerSecond = 5
        limits.stateBytes = 16 << 10
        limits.logBytes = 64 << 10
        #expect(manifest == AppManifest(
            id: "probe", name: "Probe", version: "1.2.3", description: "Tries things", protocolVersion: ProtocolVersion(major: 1, minor: 0),
            exec: ["python3", "-u", "probe.py"], workingDirectory: ".", environment: ["LANG", "PROBE_TOKEN"],
            publishes: ["probe.thing.done"], subscribes: ["calendar.date.selected", "todo.*"], backend: ["/api/todo/items"],
            keepsState: true, limits: limits, minimumSize: ViewSize(width: 30, height: 8)))
    }

    @Test func permissionsNameWhatOfTheMachineTheAppGets() throws {
        let manifest = try parse(Self.base + ["permissions:", "  files: { read: [~/notes, /proc], write: [~/out/today.txt] }",
                                              "  network: { connect: [443, 8080] }", "  run: [jq, ~/bin/tool]"])
        #expect(manifest.machine == MachineAccess(read: ["~/notes", "/proc"], write: ["~/out/today.txt"], connect: [443, 8080],
                                                  run: ["jq", "~/bin/tool"]))
        #expect(manifest.requested.inWords.suffix(4) == [
            "reads ~/notes, /proc", "reads and writes ~/out/today.txt",
            "connects to ports 443, 8080 (any address; and looks up names)", "runs the programs jq, ~/bin/tool",
        ])
        #expect(try parse(Self.base).machine == .none)
    }

    @Test func aSampleAppHasNoProtocolAndKeepsNoState() throws {
        let manifest = try parse(["id: disk", "name: Disk", "version: 1.0.0", "sample: { every: 5s, show: gauge }", "exec: [df, -P]"])
        #expect(manifest.sample == AppManifest.Sample(everySeconds: 5, show: .gauge))
        #expect(manifest.protocolVersion == nil)
        #expect(manifest.exec == ["df", "-P"])
        #expect(!manifest.keepsState)
    }

    @Test(arguments: [
        (replacing(base, line: 1, with: "id: Probe"), "apps/probe/app.yaml:1:5: id: expected 1 to 32 of a-z, 0-9 and -, starting with a letter, got 'Probe'"),
        (replacing(base, line: 1, with: "id: todo"), "apps/probe/app.yaml:1:5: id: 'todo' is a built-in widget; choose another id"),
        (removing(base, line: 2), "apps/probe/app.yaml:1:1: name: is missing"),
        (replacing(base, line: 3, with: "version: 1.0"), "apps/probe/app.yaml:3:10: version: expected a semantic version such as 1.0.0, got '1.0'"),
        (replacing(base, line: 3, with: "version: 2.0.0-rc.01"),
         "apps/probe/app.yaml:3:10: version: expected a semantic version such as 1.0.0, got '2.0.0-rc.01'"),
        (replacing(base, line: 3, with: "version: 1.0.01"), "apps/probe/app.yaml:3:10: version: expected a semantic version such as 1.0.0, got '1.0.01'"),
        (replacing(base, line: 2, with: "name: \"Probe\\tTab\""),
         "apps/probe/app.yaml:2:7: name: expected 1 to 40 characters on one line, without control characters"),
        (replacing(base, line: 10, with: "  publishes: [probe.thing.\(String(repeating: "x", count: 90))]"),
         "apps/probe/app.yaml:10:15: events.publishes[0]: expected a name source.entity.action in a-z, 0-9, - and _, got 'probe.thing.\(String(repeating: "x", count: 90))'"),
        (replacing(base, line: 10, with: "  publishes: [\((0..<33).map { "probe.thing.n\($0)" }.joined(separator: ", "))]"),
         "apps/probe/app.yaml:10:14: events.publishes: expected at most 32 names"),
        (replacing(base, line: 12, with: "backend: [/api/\(String(repeating: "x", count: 196))]"),
         "apps/probe/app.yaml:12:11: backend[0]: expected a path under /api/ such as /api/todo/items, got '/api/\(String(repeating: "x", count: 196))'"),
        (replacing(base, line: 5, with: "protocol: one"), "apps/probe/app.yaml:5:11: protocol: expected a protocol version such as 1, got 'one'"),
        (removing(base, line: 5), "apps/probe/app.yaml:1:1: protocol: is missing (or give sample: for an app without the protocol)"),
        (replacing(base, line: 6, with: "exec: []"), "apps/probe/app.yaml:6:7: exec: expected the program and its arguments, e.g. [python3, app.py]"),
        // Issue 40: no shell splits it, so it would run as a program named "node app.js".
        (replacing(base, line: 6, with: "exec: node app.js"),
         "apps/probe/app.yaml:6:7: exec: is one string; write the program and its arguments as a list: [node, app.js]"),
        (replacing(base, line: 8, with: "env: [LANG, 'A-B']"), "apps/probe/app.yaml:8:13: env[1]: expected a variable name such as LANG, got 'A-B'"),
        (replacing(base, line: 10, with: "  publishes: [calendar.date.selected]"),
         "apps/probe/app.yaml:10:15: events.publishes[0]: an app publishes only its own events: expected probe.entity.action"),
        (replacing(base, line: 10, with: "  publishes: [probe.done]"),
         "apps/probe/app.yaml:10:15: events.publishes[0]: expected a name source.entity.action in a-z, 0-9, - and _, got 'probe.done'"),
        (replacing(base, line: 11, with: "  subscribes: ['todo.*.x']"),
         "apps/probe/app.yaml:11:16: events.subscribes[0]: expected a name or a pattern such as calendar.* or *, got 'todo.*.x'"),
        (replacing(base, line: 12, with: "backend: [/api/../etc]"),
         "apps/probe/app.yaml:12:11: backend[0]: expected a path under /api/ such as /api/todo/items, got '/api/../etc'"),
        (replacing(base, line: 13, with: "state: maybe"), "apps/probe/app.yaml:13:8: state: expected true or false, got 'maybe'"),
        (replacing(base, line: 14, with: "limits: { startup: forever }"),
         "apps/probe/app.yaml:14:20: limits.startup: expected a duration from 100ms to 60s such as 5s or 500ms, got 'forever'"),
        (replacing(base, line: 14, with: "limits: { memory: 1TiB }"),
         "apps/probe/app.yaml:14:19: limits.memory: expected a size from 16MiB to 16GiB such as 64KiB or 256MiB, got '1TiB'"),
        (replacing(base, line: 14, with: "limits: { processes: 100000 }"),
         "apps/probe/app.yaml:14:22: limits.processes: expected a whole number from 8 to 4096, got '100000'"),
        (replacing(base, line: 14, with: "limits: { nice: 5 }"),
         "apps/probe/app.yaml:14:11: limits.nice: unknown key; expected one of cpu, disk, log, memory, openFiles, processes, publishesPerSecond, startup, state"),
        (replacing(base, line: 15, with: "minSize: { width: 0 }"), "apps/probe/app.yaml:15:19: minSize.width: expected a whole number from 1 to 500, got '0'"),
        (base + ["sample: { every: 5s }"], "apps/probe/app.yaml:16:9: sample: an app has either protocol or sample, not both"),
        (base + ["colour: red"], "apps/probe/app.yaml:16:1: colour: unknown key; expected one of backend, description, entry, env, events, exec, id, limits, minSize, name, permissions, protocol, sample, settings, state, version, workdir"),
        (["a: &x 1", "b: *x"], "apps/probe/app.yaml:2:4: aliases (*name) are not allowed in this file; write the value out"),
        // Brackets nested deep: an error, not a deep recursion (libyaml itself stops at 1000).
        ([String(repeating: "[", count: 100)],
         "apps/probe/app.yaml:1:65: lists and mappings are nested more than 64 deep; this file needs far fewer"),
    ])
    func mistakesSayWhereAndWhat(lines: [String], message: String) {
        #expect(error(lines)?.description == message)
    }

    @Test(arguments: [
        (AppManifestFileTests.base + ["permissions: { files: { read: [~/../etc] } }"],
         "apps/probe/app.yaml:16:32: permissions.files.read[0]: expected a folder or file as ~/path or /path, without . or .. parts, got '~/../etc'"),
        (AppManifestFileTests.base + ["permissions: { files: { write: [~] } }"],
         "apps/probe/app.yaml:16:33: permissions.files.write[0]: expected a folder or file as ~/path or /path, without . or .. parts, got '~'"),
        (AppManifestFileTests.base + ["permissions: { files: { read: [notes] } }"],
         "apps/probe/app.yaml:16:32: permissions.files.read[0]: expected a folder or file as ~/path or /path, without . or .. parts, got 'notes'"),
        (AppManifestFileTests.base + ["permissions: { files: { read: [/usr/./lib] } }"],
         "apps/probe/app.yaml:16:32: permissions.files.read[0]: expected a folder or file as ~/path or /path, without . or .. parts, got '/usr/./lib'"),
        (AppManifestFileTests.base + ["permissions: { network: { connect: [0] } }"],
         "apps/probe/app.yaml:16:37: permissions.network.connect[0]: expected a whole number from 1 to 65535, got '0'"),
        (AppManifestFileTests.base + ["permissions: { network: { bind: [80] } }"],
         "apps/probe/app.yaml:16:27: permissions.network.bind: unknown key; expected one of connect"),
        (AppManifestFileTests.base + ["permissions: { run: ['../bin/sh'] }"],
         "apps/probe/app.yaml:16:22: permissions.run[0]: expected a program name such as jq, or its path as ~/path or /path, got '../bin/sh'"),
        (AppManifestFileTests.base + ["permissions: { files: { read: [\((0..<17).map { "/p\($0)" }.joined(separator: ", "))] } }"],
         "apps/probe/app.yaml:16:31: permissions.files.read: expected at most 16 entries"),
    ])
    func permissionMistakesSayWhereAndWhat(lines: [String], message: String) {
        #expect(error(lines)?.description == message)
    }

    @Test func foldersAreScannedUserFirstAndBadManifestsReported() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("tc-apps-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        func install(_ folder: String, _ lines: [String]) throws {
            let url = root.appendingPathComponent(folder)
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            try text(lines).write(to: url.appendingPathComponent("app.yaml"), atomically: true, encoding: .utf8)
        }
        try install("user/probe", Self.base)
        try install("shipped/probe", replacing(Self.base, line: 3, with: "version: 0.9.0"))
        try install("shipped/broken", ["id: broken"])
        let found = AppFolders(user: root.appendingPathComponent("user"), shipped: [root.appendingPathComponent("shipped")]).scan()
        #expect(found.apps.map { "\($0.id) \($0.manifest.version) \($0.isShipped)" } == ["probe 1.2.3 false"])
        // Every mistake of the broken one, each a problem of its own.
        #expect(found.problems.map { $0.components(separatedBy: "app.yaml:1:1: ").last } == ["name: is missing", "version: is missing",
            "exec: is missing (or give entry: for a remote app)", "protocol: is missing (or give sample: for an app without the protocol)"])
        // The manifest's SHA-256 in lower-case hex, as sha256sum prints it.
        let expected = try await Command.run(["sha256sum", root.appendingPathComponent("user/probe/app.yaml").path]).output.prefix(64)
        #expect(found.apps.first?.digest == String(expected))
    }
}
