import CanvasCore

/// Writes a micro-app from a description and checks it before anyone sees it. The dashboard's
/// implementation asks a language model (`termcanvas apps new` in the palette); the canvas only
/// shows the progress, the result for review, and installs it when the user says so.
public protocol AppGenerating: Sendable {
    /// Writes and checks an app; `progress` reports as it goes (from any thread).
    /// - Throws: an error whose description says what to fix (no key, the model's endpoint down,
    ///   every answer failed its checks).
    func generate(_ description: String, progress: @escaping @Sendable (AppGenerationProgress) -> Void) async throws -> AppReview
    /// What would stop it now (no endpoint, no key), with its settings read afresh; nil when
    /// nothing does. Asked each time "New micro-app…" opens.
    func problem() async -> String?
}

/// How far writing an app got, for the progress display.
public enum AppGenerationProgress: Sendable, Equatable {
    /// The model is asked (again, with the problem, after the first attempt).
    case asking(model: String, attempt: Int, of: Int)
    /// A piece of the model's answer as it arrives: untrusted text, drawn safe by `Buffer`.
    case text(String)
    /// The answer's format and manifest are checked.
    case checking
    /// They passed: the app runs once with no permission.
    case running
    /// The answer failed a check; it is sent back to the model while attempts remain.
    case problem(String)

    /// The line that says where writing the app is; nil for a piece of the answer.
    public var status: String? {
        switch self {
        case .asking(let model, let attempt, let attempts):
            attempt == 1 ? "Asking \(model)…" : "Asking \(model) again (\(attempt) of \(attempts)), with the problem…"
        case .text: nil
        case .checking: "Checking the answer's format and manifest…"
        case .running: "Running the app once, with no permission…"
        case .problem(let text): "Problem: \(text)"
        }
    }
}

/// An app written and checked, waiting for the user: what they review. Nothing of it is on disk
/// until `install` runs, so turning it down is forgetting it.
public struct AppReview: Sendable {
    public let id: String
    public let name: String
    public let version: String
    /// Its first view, drawn headless on its trial run.
    public let preview: [String]
    public let manifest: String
    public let scriptName: String
    public let script: String
    /// What the manifest asks for, one line each ("nothing" when it asks for nothing).
    public let permissions: [String]
    /// Installs the app; returns its catalog entry. The pane it gets asks for permission as
    /// every micro-app's does.
    public let install: @Sendable () async throws -> WidgetDescriptor

    public init(id: String, name: String, version: String, preview: [String], manifest: String, scriptName: String, script: String,
                permissions: [String], install: @escaping @Sendable () async throws -> WidgetDescriptor) {
        self.id = id
        self.name = name
        self.version = version
        self.preview = preview
        self.manifest = manifest
        self.scriptName = scriptName
        self.script = script
        self.permissions = permissions
        self.install = install
    }
}

/// News of the app being written, for the host (`HostMessage.appGeneration`).
public enum AppGenerationUpdate: Sendable {
    case progress(AppGenerationProgress)
    case ready(AppReview)
    case failed(String)
    case installed(WidgetDescriptor)
    case installFailed(String)
    /// What would stop writing an app, found as the box opened; nil: nothing.
    case checked(problem: String?)
}
