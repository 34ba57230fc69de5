import FoundationEssentials
import ModelClient

/// What the model is told: the protocol, an example, the format, and the user's description.
public struct GenerationPrompt: Sendable {
    /// What a writer of an app needs of `docs/microapp-protocol.md`: the messages, the view-node
    /// reference, the permissions and the manifest (see `essentials(of:)`).
    public let protocolDocument: String
    /// A shipped app in the chosen language: its manifest and its script.
    public let example: (manifest: String, script: String)

    public init(protocolDocument: String, example: (manifest: String, script: String)) {
        self.protocolDocument = protocolDocument
        self.example = example
    }

    /// The protocol document and the example app for `language`, from TermCanvas's shipped files
    /// (the checkout or `share/termcanvas` holding `apps/` and `docs/`).
    public static func shipped(in appFolders: [URL], language: ScriptLanguage) throws(GenerationProblem) -> GenerationPrompt {
        for apps in appFolders {
            let example = apps.appendingPathComponent(language.example.app)
            let document = apps.deletingLastPathComponent().appendingPathComponent("docs/microapp-protocol.md")
            guard let text = try? String(contentsOf: document, encoding: .utf8),
                  let manifest = try? String(contentsOf: example.appendingPathComponent("app.yaml"), encoding: .utf8),
                  let script = try? String(contentsOf: example.appendingPathComponent(language.example.script), encoding: .utf8)
            else { continue }
            return GenerationPrompt(protocolDocument: essentials(of: text), example: (manifest, script))
        }
        throw GenerationProblem("TermCanvas's docs/microapp-protocol.md and apps/\(language.example.app) were not found beside it")
    }

    /// Sections of the protocol document for hosts and operators, not for a writer of one
    /// local app. Left out, the prompt is some 17 KB (4 000 tokens) shorter: 66 KB with sysmon.
    static let sectionsLeftOut = ["### The design rule:", "### 6.4 ", "### 6.5 ", "### 6.6 ", "### 6.7 ", "### 7.2 ", "### 7.3 ", "### 7.4 ", "## 8. ", "## 9. ", "## Appendix"]

    /// `document` without `sectionsLeftOut` (a `##` heading leaves out its `###` sections too).
    static func essentials(of document: String) -> String {
        var kept: [Substring] = []
        var inLeftOutSection = false, inLeftOutSubsection = false
        for line in document.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("## ") {
                inLeftOutSection = sectionsLeftOut.contains { line.hasPrefix($0) }
                inLeftOutSubsection = false
            } else if line.hasPrefix("### ") {
                inLeftOutSubsection = sectionsLeftOut.contains { line.hasPrefix($0) }
            }
            if !inLeftOutSection && !inLeftOutSubsection { kept.append(line) }
        }
        return kept.joined(separator: "\n")
    }

    public func messages(for request: GenerationRequest) -> [ChatMessage] {
        let language = request.language
        let id = request.id.map { "`\($0)`" } ?? "a short lowercase id of letters, digits and dashes that names what it does"
        let system = """
            You write TermCanvas micro-apps: programs that show a small view in a pane of a terminal \
            dashboard. An app speaks the TermCanvas micro-app protocol (JSON-RPC 2.0, one JSON message \
            per line on stdin and stdout) and describes its view with view nodes; the host draws it. \
            The protocol document and one complete app follow.

            Write one micro-app, in \(language.name), for the user's description. Answer with exactly \
            two files in this format and nothing else:

            \(AnswerFormat.marker(AnswerFormat.manifestName))
            (the manifest)
            \(AnswerFormat.marker(language.scriptName))
            (the script)
            \(AnswerFormat.end)

            Rules:
            - The manifest's id is \(id); version: 1.0.0; protocol: 1; exec: [\(language.exec.joined(separator: ", "))]; \
            no env: and no workdir:.
            - Answer `initialize` at once and send a `view` right after it; send a new view whenever what it shows changes.
            - Ask for permissions (publishes, subscribes, backend, state) only when the description needs them. \
            The app is first run with none granted: it must still draw a view when a request is refused.
            - Never print anything but protocol messages on stdout; never write terminal escape sequences. \
            Diagnostics go to stderr.
            - No network access of its own, no files outside its folder, no other programs to install.

            ---- docs/microapp-protocol.md ----
            \(protocolDocument)
            ---- an example app: app.yaml ----
            \(example.manifest)
            ---- an example app: its script ----
            \(example.script)
            """
        return [ChatMessage(.system, system), ChatMessage(.user, request.description)]
    }

    /// What the model is told when its answer could not be used.
    static func retry(after problem: GenerationProblem) -> String {
        "That answer could not be used: \(problem). Answer again with both whole files in the same format."
    }
}

/// What the user asked for.
public struct GenerationRequest: Sendable, Equatable {
    public var description: String
    /// The app's id, when the user chose it.
    public var id: String?
    public var language: ScriptLanguage
    /// Ids of the apps already installed or shipped, which the new one must not take.
    public var takenIDs: Set<String>

    public init(description: String, id: String? = nil, language: ScriptLanguage = .python, takenIDs: Set<String> = []) {
        self.description = description
        self.id = id
        self.language = language
        self.takenIDs = takenIDs
    }
}
