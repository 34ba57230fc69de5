import CanvasCore
import CanvasFiles
import Foundation
import MicroAppHost
import MicroAppModel
import MicroAppProtocol
import PrivateFiles
import Widgets

/// An app the model wrote that passed every check: its files in a private temporary folder, the
/// view it drew on its trial run, and what it asks for. Nothing of it is installed yet.
public struct GeneratedApp: Sendable {
    public let app: InstalledApp
    public let script: String
    public let scriptName: String
    /// Its first view, drawn at `previewSize`.
    public let preview: [String]
    /// The temporary folder holding `app` (its files) and the trial's log.
    let workspace: URL

    public static let previewSize = Size(width: 60, height: 12)

    public var permissions: Permissions { app.manifest.requested }

    /// Checks `answer`: its format, its manifest (errors name the field), and a trial run with no
    /// permission granted that must answer `initialize` and draw a view.
    static func check(_ answer: String, for request: GenerationRequest, environment: [String: String],
                      trialLimit: Duration) async throws(GenerationProblem) -> GeneratedApp {
        let language = request.language
        let files = try AnswerFormat.parse(answer, scriptName: language.scriptName)
        let manifest: AppManifest
        do {
            manifest = try AppManifestFile.parse(files.manifest, file: AnswerFormat.manifestName)
        } catch {
            throw GenerationProblem("\(error)")
        }
        if let id = request.id, manifest.id != id { throw GenerationProblem("app.yaml: id must be \(id), not \(manifest.id)") }
        guard manifest.entry == nil, manifest.sample == nil else {
            throw GenerationProblem("app.yaml: a protocol app is wanted, without entry: or sample:")
        }
        // The interpreter and the script, with options between them (python3 -u) at most.
        let exec = manifest.exec
        guard exec.first == language.exec.first, exec.last == language.scriptName, exec.dropFirst().dropLast().allSatisfy({ $0.hasPrefix("-") })
        else {
            throw GenerationProblem("app.yaml: exec must be [\(language.exec.joined(separator: ", "))]")
        }
        let workspace = FileManager.default.temporaryDirectory.appendingPathComponent("termcanvas-new-\(UUID().uuidString.prefix(8))")
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
            try? FileManager.default.removeItem(at: workspace)
            throw GenerationProblem("the app could not be written to \(folder.path): \(error)")
        }
        let size = ViewSize(width: previewSize.width, height: previewSize.height)
        switch await MicroAppTrial.run(app, size: size, environment: environment, logFile: workspace.appendingPathComponent("trial.log"),
                                       limit: trialLimit) {
        case .view(let view, _):
            return GeneratedApp(app: app, script: files.script, scriptName: language.scriptName,
                                preview: ViewPreview.lines(view, size: previewSize), workspace: workspace)
        case .failed(let reason, let log):
            try? FileManager.default.removeItem(at: workspace)
            let tail = log.suffix(1500)
            throw GenerationProblem("on its trial run \(reason)" + (tail.isEmpty ? "" : "; its stderr and log ended with:\n\(tail)"))
        }
    }

    /// Copies the app into `appsDirectory/ID/` (private, as every file TermCanvas writes), with the
    /// description that made it, and removes the temporary folder.
    /// - Returns: the installed folder.
    public func install(into appsDirectory: URL, description: String) throws -> URL {
        let target = appsDirectory.appendingPathComponent(app.id)
        guard !FileManager.default.fileExists(atPath: target.path) else {
            throw GenerationProblem("an app \(app.id) is already installed in \(target.path); `termcanvas apps remove \(app.id)` first, or pass --id")
        }
        try PrivatePath.makeDirectory(appsDirectory)
        try FileManager.default.copyItem(at: app.folder, to: target)
        let prompt = target.appendingPathComponent(Self.promptFile)
        try PrivatePath.makeFile(prompt)
        try Data(description.utf8).write(to: prompt)
        discard()
        return target
    }

    /// Removes the temporary folder: nothing of the app is left on disk.
    public func discard() {
        try? FileManager.default.removeItem(at: workspace)
    }

    /// Beside the manifest of a generated app: the description it was made from.
    public static let promptFile = "generated-from.txt"
}
