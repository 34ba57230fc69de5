import CanvasFiles
import CanvasUI
import CommandSupport
import FoundationEssentials
import Logging
import MicroAppGenerator
import MicroAppHost
import ModelClient
import Widgets

/// Writing a micro-app from a description, as `apps new` and the dashboard's "New micro-app…"
/// both do: the model's settings read afresh (`ai.yaml`, then the options), the prompt with the
/// shipped example, and the ids already taken.
struct AppWriter {
    let generator: MicroAppGenerator
    let model: String
    let takenIDs: Set<String>

    init(paths: Paths, options: ModelSettings.Fields = ModelSettings.Fields(), language: ScriptLanguage,
         environment: [String: String], trialWithoutSandbox: Bool = false, logger: Logger) throws {
        let settingsFile = paths.configDirectory.appendingPathComponent(ModelSettings.fileName)
        let fields = try ModelSettings.Fields.read(settingsFile).overridden(by: options)
        let settings = try ModelSettings(fields, file: settingsFile)
        let client = ModelClient(settings: settings, key: try settings.key(in: environment), logger: logger)
        let folders = AppsCommand.folders(paths)
        var generator = MicroAppGenerator(model: client, prompt: try GenerationPrompt.shipped(in: folders.shipped, language: language))
        generator.trialWithoutSandbox = trialWithoutSandbox
        self.generator = generator
        model = settings.model
        takenIDs = Set(folders.scan().apps.map(\.id))
    }

    var attempts: Int { generator.retries + 1 }

    /// The generator's progress as the canvas and the command show it.
    func shown(_ progress: MicroAppGenerator.Progress) -> AppGenerationProgress {
        switch progress {
        case .asking(let attempt): .asking(model: model, attempt: attempt, of: attempts)
        case .text(let piece): .text(piece)
        case .checking: .checking
        case .running: .running
        case .problem(let problem): .problem(problem.description)
        }
    }
}

/// "New micro-app…" on the dashboard: what `termcanvas apps new` does (a Python app), handed to
/// the canvas for review. The app installed gets a catalog entry like every installed app's.
struct DashboardAppWriter: AppGenerating {
    let paths: Paths
    let environment: [String: String]
    let runtime: MicroAppRuntime
    let logger: Logger

    func problem() async -> String? {
        do {
            _ = try AppWriter(paths: paths, language: .python, environment: environment, logger: logger)
            return nil
        } catch {
            return "\(error)"
        }
    }

    func generate(_ description: String, progress: @escaping @Sendable (AppGenerationProgress) -> Void) async throws -> AppReview {
        let writer = try AppWriter(paths: paths, language: .python, environment: environment, logger: logger)
        let request = GenerationRequest(description: description, language: .python, takenIDs: writer.takenIDs)
        let generated = try await writer.generator.generate(request, environment: environment) { progress(writer.shown($0)) }
        let (appsDirectory, runtime) = (paths.appsDirectory, runtime)
        let manifest = generated.manifest
        return AppReview(
            id: manifest.id, name: manifest.name, version: manifest.version, preview: generated.previewLines,
            manifest: generated.manifestText, scriptName: generated.scriptName, script: generated.script,
            permissions: generated.requestedInWords,
            install: {
                let folder = try generated.install(into: appsDirectory, description: description)
                do {
                    let app = try AppFolders.read(folder, isShipped: false)
                    return await MicroAppWidget.descriptor(for: app, connect: { runtime.connection(for: $0) })
                } catch {
                    try? FileManager.default.removeItem(at: folder)  // installed whole, or not at all
                    throw error
                }
            })
    }
}

extension GeneratedApp {
    /// Its first view drawn as its pane would draw it, a line of text per row, for the review.
    var previewLines: [String] { ViewPreview.lines(preview, size: Self.previewSize) }
}
