import Foundation
@testable import MicroAppGenerator
import Testing

/// The checks before the trial run: the user reviews one manifest and one script, so nothing
/// else may run and the app may see none of the dashboard's variables.
@Suite("GeneratedApp.check: nothing runs but what is shown")
struct GeneratedAppCheckTests {
    static func answer(_ manifestExtra: String, exec: String = "[python3, app.py]", id: String = "lap-counter") -> String {
        """
        === FILE: app.yaml ===
        id: \(id)
        name: Lap counter
        version: 1.0.0
        protocol: 1
        exec: \(exec)
        \(manifestExtra)
        === FILE: app.py ===
        print("never run")
        === END ===
        """
    }

    @Test(arguments: [
        (answer("env: [CEREBRAS_API_KEY]"), "env must be left out"),
        (answer("workdir: .."), "workdir must be left out"),
        (answer("", exec: #"[python3, -c, "import os", app.py]"#), "exec must be [python3, app.py]"),
        (answer("", exec: "[bash, app.py]"), "exec must be [python3, app.py]"),
        (answer("", id: "sysmon"), "the id sysmon is taken by an installed app; the app needs an id of its own"),
        ("no files at all", "has no '=== FILE: app.yaml ===' line"),
        (answer("sample: { every: 5s, show: text }"), "sample: an app has either protocol or sample"),
    ])
    func refusedBeforeAnythingRuns(answer: String, problem: String) async {
        let request = GenerationRequest(description: "laps", language: .python, takenIDs: ["sysmon"])
        // Issue 55, item 16: nothing says the app runs when it does not.
        var ran = false
        let error = await #expect(throws: GenerationProblem.self) {
            try await GeneratedApp.check(answer, for: request, environment: [:], trialLimit: .seconds(1)) { ran = true }
        }
        #expect(error?.description.contains(problem) == true, "\(String(describing: error))")
        #expect(!ran)
        #expect(error?.description.contains("choose another") == false)
    }

    @Test func trialFoldersAKilledRunLeftAreRemovedAndARunningTrialsAreNot() throws {
        let files = FileManager.default
        // A temporary directory of its own: the generator's tests beside it count what is in the shared one.
        let temporary = files.temporaryDirectory.appendingPathComponent("tc-sweep-\(UUID().uuidString.prefix(8))")
        defer { try? files.removeItem(at: temporary) }
        let abandoned = temporary.appendingPathComponent(GeneratedApp.workspacePrefix + "old")
        let running = temporary.appendingPathComponent(GeneratedApp.workspacePrefix + "new")
        for folder in [abandoned, running] { try files.createDirectory(at: folder.appendingPathComponent("app"), withIntermediateDirectories: true) }
        try files.setAttributes([.modificationDate: Date().addingTimeInterval(-3600)], ofItemAtPath: abandoned.path)
        GeneratedApp.removeAbandonedWorkspaces(in: temporary)
        #expect(!files.fileExists(atPath: abandoned.path))
        #expect(files.fileExists(atPath: running.path))
    }
}
