import ArgumentParser
import CanvasUI
import CommandSupport
import FoundationEssentials
import MicroAppGenerator
import ModelClient
import PlainText

extension ScriptLanguage: ExpressibleByArgument {}

extension AppsCommand {
    /// `termcanvas apps new "DESCRIPTION"`: a micro-app written by a language model, checked and
    /// run once with no permission before the user sees it, installed only when the user says so.
    struct New: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "new",
            abstract: "Ask a language model for a micro-app; check it, preview it, and install it when you press Enter.",
            discussion: """
                The model is any OpenAI-compatible chat-completions endpoint, set in \
                $XDG_CONFIG_HOME/termcanvas/ai.yaml (baseURL, model, and keyVariable: the name of the \
                environment variable holding the API key) or with the options below. The app is run once in a \
                sandbox, with no permission and a HOME of its own, before you see it; Esc leaves nothing on disk.
                """
        )

        @Argument(help: "What the app should do, in words.") var description: String
        @Option(help: "The app's id (default: the model chooses one).") var id: String?
        @Option(help: "The script's language: python or sh.") var lang: ScriptLanguage = .python
        @Option(name: .customLong("base-url"), help: "The endpoint's base URL, e.g. https://api.cerebras.ai/v1 (over ai.yaml).")
        var baseURL: String?
        @Option(help: "The model's name (over ai.yaml).") var model: String?
        @Option(name: .customLong("key-variable"), help: "The environment variable holding the API key (over ai.yaml).")
        var keyVariable: String?
        @Option(name: .customLong("key-file"), help: "A file holding the API key, readable by you only (over ai.yaml).")
        var keyFile: String?
        @Flag(help: "Install without asking.") var yes = false
        @Flag(name: .customLong("trial-without-sandbox"),
              help: "Run the trial even where this system cannot sandbox it (no Landlock): the model's code then runs with all your rights.")
        var trialWithoutSandbox = false

        func validate() throws {
            guard !description.trimmingWhitespace(andNewlines: true).isEmpty else {
                throw ValidationError("describe the app in words, e.g. termcanvas apps new \"a stopwatch with laps\"")
            }
            if let id, id.isEmpty || !id.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }) {
                throw ValidationError("--id must be lowercase letters, digits and dashes")
            }
        }

        func run() async throws {
            do {
                try await generateAndAsk()
            } catch let error as ValidationError {
                throw error
            } catch {
                // The model's and the app's words may be in it: never raw onto the terminal.
                throw CommandError(TerminalText.safeLines("\(error)"))
            }
        }

        private func generateAndAsk() async throws {
            let paths = AppsCommand.paths
            let environment = ProcessInfo.processInfo.environment
            let logger = LogSetup.bootstrapFile(at: paths.logFile, label: "termcanvas.apps")
            let writer = try AppWriter(paths: paths, options: ModelSettings.Fields(baseURL: baseURL, model: model, keyVariable: keyVariable, keyFile: keyFile),
                                       language: lang, environment: environment, trialWithoutSandbox: trialWithoutSandbox, logger: logger)
            if let id, writer.takenIDs.contains(id) {
                throw CommandError("an app \(id) is already installed; `termcanvas apps remove \(id)` first, or choose another --id")
            }
            let request = GenerationRequest(description: description, id: id, language: lang, takenIDs: writer.takenIDs)
            let generated = try await writer.generator.generate(request, environment: environment) { progress in
                Self.show(writer.shown(progress))
            }
            Self.present(generated)
            Self.say("\nEnter installs \(generated.manifest.id) into \(paths.appsDirectory.path)/; Esc discards it. ")
            guard yes || Confirmation.ask() else {
                Self.say("\nDiscarded: nothing was written.\n")
                return
            }
            let folder = try generated.install(into: paths.appsDirectory, description: description)
            Self.say("\nInstalled in \(folder.path). Add its pane from the catalog (a in arrange mode); it asks before it runs.\n")
        }

        /// The conversation (progress, the answer as it streams, the preview, the question) goes to
        /// standard output unbuffered, in order; errors go to standard error as for every command.
        private static func say(_ text: String) {
            Console.output(text)
        }

        /// Each status on a line of its own: those that follow the model's answer (which need not end
        /// its last line) start a new one.
        private static func show(_ progress: AppGenerationProgress) {
            switch progress {
            case .text(let piece): say(TerminalText.safeLines(piece))
            case .asking(_, 1, _), .problem: say(TerminalText.safeLines(progress.status ?? "") + "\n")
            case .asking, .checking: say("\n" + TerminalText.safeLines(progress.status ?? "") + "\n")
            case .running: say(TerminalText.safeLines(progress.status ?? "") + "\n")
            }
        }

        /// The preview, the script and what the app asks for, all made safe for the terminal.
        private static func present(_ generated: GeneratedApp) {
            let manifest = generated.manifest
            let width = GeneratedApp.previewSize.width
            var lines = ["", "\(manifest.name) \(manifest.version) (\(manifest.id)): its first view", "┌" + String(repeating: "─", count: width) + "┐"]
            lines += generated.previewLines.map { line in
                let safe = TerminalText.safe(line)
                return "│" + safe + String(repeating: " ", count: max(0, width - DisplayWidth.of(safe))) + "│"
            }
            lines += ["└" + String(repeating: "─", count: width) + "┘", "", "── app.yaml ──", generated.manifestText,
                      "── \(generated.scriptName) ──", generated.script]
            lines += ["── it asks for ──"] + generated.requestedInWords
            say(lines.map(TerminalText.safeLines).joined(separator: "\n") + "\n")
        }
    }
}
