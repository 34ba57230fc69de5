import AppModel
import CanvasCore
import CanvasFiles
import FoundationEssentials
import MicroAppHost
import MicroAppProtocol
import PrivateFiles

/// An app the model wrote that passed every check: its files' text, the view it drew on its trial
/// run, and what it asks for. Nothing of it is on disk: the trial's folder is gone once the trial
/// ends, so an app the user turns down (or a Ctrl-C at the question) leaves nothing behind.
public struct GeneratedApp: Sendable {
    public let manifest: AppManifest
    /// `app.yaml` as the model wrote it.
    public let manifestText: String
    public let script: String
    public let scriptName: String
    /// Its first view, at `previewSize`; the dashboard draws it for the review.
    public let preview: ViewUpdate

    public static let previewSize = Size(width: 60, height: 12)

    public var permissions: Permissions { manifest.requested }

    /// What the manifest asks for, a line each, for the user's review ("nothing" when nothing),
    /// and the limits it asks to be held to once installed (its trial ran within the host's).
    public var requestedInWords: [String] {
        (permissions.inWords.isEmpty ? ["nothing"] : permissions.inWords) + [manifest.limits.inWords]
    }

    /// Checks `answer`: its format, its manifest (errors name the field), and a trial run with no
    /// permission granted that must answer `initialize` and draw a view.
    /// - Parameter willRun: Called once the format and manifest passed, as the trial run starts.
    static func check(_ answer: String, for request: GenerationRequest, environment: [String: String],
                      trialLimit: Duration, willRun: () -> Void = {}) async throws(GenerationProblem) -> GeneratedApp {
        let language = request.language
        let files = try AnswerFormat.parse(answer, scriptName: language.scriptName)
        let manifest: AppManifest
        do {
            manifest = try AppManifestFile.parse(files.manifest, file: AnswerFormat.manifestName)
        } catch {
            throw GenerationProblem("\(error)")
        }
        try checkRunsOnlyWhatIsShown(manifest, language: language)
        if let id = request.id, manifest.id != id { throw GenerationProblem("app.yaml: id must be \(id), not \(manifest.id)") }
        if request.takenIDs.contains(manifest.id) {
            throw GenerationProblem("app.yaml: the id \(manifest.id) is taken by an installed app; the app needs an id of its own")
        }
        let workspace = FileManager.default.temporaryDirectory.appendingPathComponent("\(workspacePrefix)\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: workspace) }
        let folder = workspace.appendingPathComponent(manifest.id)
        let app: InstalledApp
        do {
            try PrivatePath.makeDirectory(folder)
            for (name, text) in [(AnswerFormat.manifestName, files.manifest), (language.scriptName, files.script)] {
                let file = folder.appendingPathComponent(name)
                try PrivatePath.makeFile(file)
                try Data(text.utf8).write(to: file)
            }
            app = try AppFolders.read(folder, isShipped: false)
        } catch {
            throw GenerationProblem("the app could not be written to \(folder.path): \(error)")
        }
        let size = ViewSize(width: previewSize.width, height: previewSize.height)
        willRun()
        switch await MicroAppTrial.run(app, size: size, environment: environment, logFile: workspace.appendingPathComponent("trial.log"),
                                       limit: trialLimit) {
        case .view(let view, _):
            return GeneratedApp(manifest: manifest, manifestText: files.manifest, script: files.script, scriptName: language.scriptName,
                                preview: view)
        case .failed(let reason, let log):
            let tail = log.suffix(1500)
            throw GenerationProblem("on its trial run \(reason)" + (tail.isEmpty ? "" : "; its stderr and log ended with:\n\(tail)"))
        }
    }

    /// The user reviews the manifest and one script: nothing else may run, and the app may see
    /// none of the dashboard's variables (the model's API key is one).
    private static func checkRunsOnlyWhatIsShown(_ manifest: AppManifest, language: ScriptLanguage) throws(GenerationProblem) {
        guard manifest.entry == nil, manifest.sample == nil else {
            throw GenerationProblem("app.yaml: a protocol app is wanted, without entry: or sample:")
        }
        // The interpreter and the script, with at most harmless options between them (python3 -u).
        let exec = manifest.exec
        guard exec.first == language.exec.first, exec.last == language.scriptName,
              exec.dropFirst().dropLast().allSatisfy(language.allowedOptions.contains)
        else {
            throw GenerationProblem("app.yaml: exec must be [\(language.exec.joined(separator: ", "))]")
        }
        guard manifest.environment.isEmpty else { throw GenerationProblem("app.yaml: env must be left out: the app sees no variables") }
        guard manifest.workingDirectory == "." else { throw GenerationProblem("app.yaml: workdir must be left out") }
    }

    /// Writes the app into `appsDirectory/ID/` (private, as every file TermCanvas writes): the
    /// reviewed manifest and script, and the description that made it.
    /// - Returns: the installed folder.
    public func install(into appsDirectory: URL, description: String) throws -> URL {
        let target = appsDirectory.appendingPathComponent(manifest.id)
        guard !FileManager.default.fileExists(atPath: target.path) else {
            throw GenerationProblem("an app \(manifest.id) is already installed in \(target.path); remove it first (termcanvas apps remove \(manifest.id))")
        }
        let files = [AnswerFormat.manifestName: Data(manifestText.utf8), scriptName: Data(script.utf8), Self.promptFile: Data(description.utf8)]
        try PrivatePath.makeDirectory(appsDirectory)
        do {
            try PrivatePath.makeDirectory(target)
            for (name, data) in files {
                let file = target.appendingPathComponent(name)
                try PrivatePath.makeFile(file)
                try data.write(to: file)
            }
        } catch {
            try? FileManager.default.removeItem(at: target)  // no half-installed app
            throw error
        }
        return target
    }

    /// The start of a trial folder's name in the temporary directory.
    static let workspacePrefix = "termcanvas-new-"

    /// Removes trial folders a killed run left (a Ctrl-C during a trial): those older than any
    /// trial lasts, so another run's trial under way is left alone.
    static func removeAbandonedWorkspaces(in temporary: URL = FileManager.default.temporaryDirectory,
                                          olderThan age: Duration = .seconds(600)) {
        let files = FileManager.default
        let cutoff = Date().addingTimeInterval(-Double(age.components.seconds))
        for name in (try? files.contentsOfDirectory(atPath: temporary.path)) ?? [] where name.hasPrefix(workspacePrefix) {
            let folder = temporary.appendingPathComponent(name)
            guard let modified = (try? files.attributesOfItem(atPath: folder.path))?[.modificationDate] as? Date, modified < cutoff else { continue }
            try? files.removeItem(at: folder)
        }
    }

    /// Beside the manifest of a generated app: the description it was made from.
    public static let promptFile = "generated-from.txt"
}
