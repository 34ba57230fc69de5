/// One message of a conversation with the model.
public struct ChatMessage: Sendable, Equatable, Codable {
    public enum Role: String, Sendable, Codable {
        case system, user, assistant
    }

    public var role: Role
    public var content: String

    public init(_ role: Role, _ content: String) {
        self.role = role
        self.content = content
    }
}

/// The wire format of OpenAI-style chat completions, as much of it as TermCanvas reads.
enum Completions {
    struct Request: Encodable {
        let model: String
        let messages: [ChatMessage]
        let stream: Bool
    }

    /// One event of a streamed answer: its piece of text in `delta`.
    struct Chunk: Decodable {
        struct Choice: Decodable {
            struct Delta: Decodable { let content: String? }
            let delta: Delta?
            /// A server that ignores `stream` sends the whole message instead.
            let message: Delta?
        }

        let choices: [Choice]?
        let error: Failure?

        /// Empty for a chunk of no text (a role, a finish reason, usage figures).
        var text: String { choices?.first.flatMap { $0.delta?.content ?? $0.message?.content } ?? "" }
    }

    /// An error body: OpenAI's `{"error": {"message", "code"}}`, or a bare `{"message", "code"}`
    /// (Cerebras, others).
    struct Failure: Decodable {
        let message: String?
        let code: String?
        let error: Nested?

        struct Nested: Decodable {
            let message: String?
            let code: String?
            /// LiteLLM's kind of error: `auth_error` for a key it does not take.
            let type: String?

            init(message: String?, code: String?, type: String? = nil) {
                (self.message, self.code, self.type) = (message, code, type)
            }

            /// Each field if it is text: a server's number or null in one keeps the others.
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                self.init(message: try? container.decode(String.self, forKey: .message), code: try? container.decode(String.self, forKey: .code),
                          type: try? container.decode(String.self, forKey: .type))
            }

            private enum CodingKeys: String, CodingKey { case message, code, type }
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            message = try? container.decode(String.self, forKey: .message)
            code = try? container.decode(String.self, forKey: .code)
            // OpenAI nests an object; some servers put a string in `error`.
            if let nested = try? container.decode(Nested.self, forKey: .error) {
                error = nested
            } else {
                error = (try? container.decode(String.self, forKey: .error)).map { Nested(message: $0, code: nil) }
            }
        }

        private enum CodingKeys: String, CodingKey { case message, code, error }

        var text: String? { error?.message ?? message }

        /// The endpoint says it has no such model (not, say, that the prompt is too long for it).
        var isUnknownModel: Bool {
            if (error?.code ?? code) == "model_not_found" { return true }
            let text = (self.text ?? "").lowercased()
            return text.contains("model") && (text.contains("does not exist") || text.contains("not found") || text.contains("unknown model")
                || text.contains("invalid model"))
        }

        /// The endpoint says the key is wrong or missing, whatever the status.
        var isAboutTheKey: Bool {
            let text = (self.text ?? "").lowercased()
            return error?.type == "auth_error" || text.contains("authentication error") || text.contains("invalid api key")
                || text.contains("no api key")
        }

        /// A proxy says the model server behind it cannot be reached.
        var isUpstreamUnreachable: Bool {
            let text = (self.text ?? "").lowercased()
            return ["apiconnectionerror", "connection error", "connection refused", "cannot connect"].contains { text.contains($0) }
        }
    }
}
