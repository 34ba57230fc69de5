import FoundationEssentials
import MicroAppHost
import ModelClient

/// Asks the model for a micro-app and checks it (`GeneratedApp.check`); a problem is sent back
/// to the model with the error, at most `retries` times, before it is reported.
public struct MicroAppGenerator: Sendable {
    /// What happens as it works, for a progress display.
    public enum Progress: Sendable {
        case asking(attempt: Int)
        /// A piece of the model's answer, as it arrives (not yet made safe for a terminal).
        case text(String)
        /// The answer's format and manifest are checked.
        case checking
        /// They passed: the app runs once, with no permission.
        case running
        case problem(GenerationProblem)
    }

    public let model: ModelClient
    public let prompt: GenerationPrompt
    public var retries = 2
    /// How long the trial run may take to draw a view.
    public var trialLimit: Duration = .seconds(10)
    /// What contains the trial run on this machine.
    public var sandbox: SandboxSupport = .current
    /// Run the trial even where nothing contains it (the user said so: `--trial-without-sandbox`).
    public var trialWithoutSandbox = false

    public init(model: ModelClient, prompt: GenerationPrompt) {
        self.model = model
        self.prompt = prompt
    }

    /// - Throws: `ModelError` when the model cannot be asked; `GenerationProblem` with the last
    ///   problem when no answer passed, or at once when the trial run could not be contained.
    public func generate(_ request: GenerationRequest, environment: [String: String],
                         progress: @escaping @Sendable (Progress) -> Void = { _ in }) async throws -> GeneratedApp {
        if !sandbox.isEnforced, !trialWithoutSandbox {
            throw GenerationProblem("""
                apps are \(sandbox.summary): the trial run would run the model's code with all your rights. \
                Run it anyway with termcanvas apps new … --trial-without-sandbox, on a machine you can afford to lose.
                """)
        }
        GeneratedApp.removeAbandonedWorkspaces()
        var messages = prompt.messages(for: request)
        var attempt = 1
        while true {
            progress(.asking(attempt: attempt))
            let answer = try await model.complete(messages) { progress(.text($0)) }
            progress(.checking)
            do {
                return try await GeneratedApp.check(answer, for: request, environment: environment, trialLimit: trialLimit) {
                    progress(.running)
                }
            } catch {
                progress(.problem(error))
                guard attempt <= retries else { throw error }
                messages += [ChatMessage(.assistant, answer), ChatMessage(.user, GenerationPrompt.retry(after: error))]
                attempt += 1
            }
        }
    }
}
