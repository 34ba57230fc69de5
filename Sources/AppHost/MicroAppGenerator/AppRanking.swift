import FoundationEssentials
import ModelClient
import PlainText

/// `termcanvas apps suggest "a sentence"`: a language model ranks a registry's apps for a need,
/// told their ids, names and descriptions only. Its answer is read for ids of those apps and
/// nothing else: no word of it reaches the terminal.
public enum AppRanking {
    /// An app as the model is told of it.
    public struct Candidate: Sendable, Equatable {
        public let id: String
        public let name: String
        public let description: String

        public init(id: String, name: String, description: String) {
            self.id = id
            self.name = name
            self.description = description
        }
    }

    /// The most apps named in one question, and the most ranked in the answer.
    public static let candidatesAsked = 300
    public static let ranked = 5

    /// The ids among `candidates` that fit `need`, best first, at most `ranked`; empty when none fits.
    public static func rank(_ need: String, among candidates: [Candidate], model: ModelClient) async throws(ModelError) -> [String] {
        guard !candidates.isEmpty else { return [] }
        let asked = Array(candidates.prefix(candidatesAsked))
        return ids(in: try await model.complete(messages(need, asked)), among: asked)
    }

    static func messages(_ need: String, _ candidates: [Candidate]) -> [ChatMessage] {
        let list = candidates.map { "- \($0.id): \($0.name) — \($0.description)" }.joined(separator: "\n")
        return [
            ChatMessage(.system, """
                You pick terminal dashboard micro-apps for a user's need. Answer with the ids of at most \(ranked) apps \
                from the list that fit the need, best first, one id per line and nothing else. If none fits, answer NONE.
                """),
            ChatMessage(.user, "Need: \(need)\n\nApps:\n\(list)"),
        ]
    }

    /// The ids of `candidates` the answer names, in its order, each once.
    static func ids(in answer: String, among candidates: [Candidate]) -> [String] {
        let known = Set(candidates.map(\.id))
        var found: [String] = []
        for word in answer.split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == ".") }) {
            let id = String(word).trimming(["."])
            if known.contains(id), !found.contains(id) { found.append(id) }
        }
        return Array(found.prefix(ranked))
    }
}
