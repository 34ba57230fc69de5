import Foundation
import Yams

/// Where the language model is and how to reach it: `ai.yaml` in TermCanvas's config folder, with
/// flags over it. Any OpenAI-compatible chat-completions endpoint will do (a hosted API such as
/// Cerebras', or a local llama.cpp or Ollama server).
///
/// The API key itself is never in a file: the settings name the environment variable holding it.
public struct ModelSettings: Sendable, Equatable {
    /// The API's base, the part before `/chat/completions`, e.g. `https://api.cerebras.ai/v1`.
    public var baseURL: String
    public var model: String
    /// The environment variable holding the API key; nil for an endpoint that wants none.
    public var keyVariable: String?

    public static let fileName = "ai.yaml"

    public init(baseURL: String, model: String, keyVariable: String?) {
        self.baseURL = baseURL
        self.model = model
        self.keyVariable = keyVariable
    }

    /// The fields of `ai.yaml`, or of flags; each may be missing.
    public struct Fields: Sendable, Equatable, Decodable {
        public var baseURL: String?
        public var model: String?
        public var keyVariable: String?

        public init(baseURL: String? = nil, model: String? = nil, keyVariable: String? = nil) {
            self.baseURL = baseURL
            self.model = model
            self.keyVariable = keyVariable
        }

        /// `file`'s fields; none when it does not exist.
        public static func read(_ file: URL) throws(ModelError) -> Fields {
            let text: String
            do {
                text = try String(contentsOf: file, encoding: .utf8)
            } catch CocoaError.fileReadNoSuchFile {
                return Fields()
            } catch {
                throw .settings("\(file.path): cannot be read (\(error.localizedDescription))")
            }
            do {
                return try YAMLDecoder().decode(Fields?.self, from: text) ?? Fields()
            } catch {
                throw .settings("\(file.path): " + Self.problem(error))
            }
        }

        /// The field a decoding error is about, or what the file should be.
        private static func problem(_ error: any Error) -> String {
            switch error {
            case DecodingError.typeMismatch(_, let context) where !context.codingPath.isEmpty,
                 DecodingError.valueNotFound(_, let context) where !context.codingPath.isEmpty:
                context.codingPath.map(\.stringValue).joined(separator: ".") + " must be a string"
            default:
                "not YAML of baseURL, model and keyVariable"
            }
        }

        /// These fields, with `other`'s where it has them.
        public func overridden(by other: Fields) -> Fields {
            Fields(baseURL: other.baseURL ?? baseURL, model: other.model ?? model, keyVariable: other.keyVariable ?? keyVariable)
        }
    }

    /// Settings from fields that must name an endpoint and a model; `file` is named in the error.
    public init(_ fields: Fields, file: URL) throws(ModelError) {
        guard let baseURL = fields.baseURL?.trimmingCharacters(in: .whitespaces), !baseURL.isEmpty else {
            throw .settings("no model endpoint: set baseURL in \(file.path) (e.g. https://api.cerebras.ai/v1; apps new also takes --base-url)")
        }
        guard baseURL.hasPrefix("http://") || baseURL.hasPrefix("https://") else {
            throw .settings("baseURL must start with http:// or https://, got '\(baseURL)'")
        }
        guard let model = fields.model?.trimmingCharacters(in: .whitespaces), !model.isEmpty else {
            throw .settings("no model: set model in \(file.path) (apps new also takes --model)")
        }
        let variable = fields.keyVariable?.trimmingCharacters(in: .whitespaces)
        if let variable, !variable.isEmpty,
           !variable.unicodeScalars.allSatisfy({ $0 == "_" || ($0.isASCII && $0.properties.isAlphabetic) || ("0"..."9").contains($0) }) {
            throw .settings("keyVariable must be the name of an environment variable (letters, digits, _), got '\(variable)'")
        }
        self.init(baseURL: String(baseURL.reversed().drop { $0 == "/" }.reversed()), model: model,
                  keyVariable: variable?.isEmpty == false ? variable : nil)
    }

    /// The API key from `environment`; nil when the endpoint wants none.
    /// - Throws: `.noKey` when the named variable is unset or empty.
    public func key(in environment: [String: String]) throws(ModelError) -> String? {
        guard let keyVariable else { return nil }
        guard let key = environment[keyVariable], !key.isEmpty else { throw .noKey(variable: keyVariable) }
        return key
    }
}
