import CanvasFiles
import FoundationEssentials
import Glibc
import PrivateFiles
import YAMLDocuments

/// Where the language model is and how to reach it: `ai.yaml` in TermCanvas's config folder, with
/// flags over it. Any OpenAI-compatible chat-completions endpoint will do (a hosted API such as
/// Cerebras', or a local llama.cpp or Ollama server).
///
/// The API key itself is never in `ai.yaml`: the settings name the environment variable holding
/// it, or a file of its own readable only by the user (`keyFile`), read afresh at each use, so a
/// key set after the dashboard started needs no restart.
public struct ModelSettings: Sendable, Equatable {
    /// The API's base, the part before `/chat/completions`, e.g. `https://api.cerebras.ai/v1`.
    public var baseURL: String
    public var model: String
    /// The environment variable holding the API key; nil for an endpoint that wants none.
    public var keyVariable: String?
    /// A file holding the API key (`~/` is the home folder), used when `keyVariable` is unset.
    public var keyFile: String?
    /// The longest silence within an answer (`timeout: 180` in seconds, or `3m`); nil keeps
    /// the client's (60 s). A local model can take minutes to read the generator's prompt.
    public var timeout: Duration?

    public static let fileName = "ai.yaml"
    /// What `timeout` may be.
    public static let timeouts = 1...3600

    public init(baseURL: String, model: String, keyVariable: String?, keyFile: String? = nil, timeout: Duration? = nil) {
        self.baseURL = baseURL
        self.model = model
        self.keyVariable = keyVariable
        self.keyFile = keyFile
        self.timeout = timeout
    }

    /// The fields of `ai.yaml`, or of flags; each may be missing.
    public struct Fields: Sendable, Equatable {
        public var baseURL: String?
        public var model: String?
        public var keyVariable: String?
        public var keyFile: String?
        public var timeout: String?

        public init(baseURL: String? = nil, model: String? = nil, keyVariable: String? = nil, keyFile: String? = nil, timeout: String? = nil) {
            self.baseURL = baseURL
            self.model = model
            self.keyVariable = keyVariable
            self.keyFile = keyFile
            self.timeout = timeout
        }

        /// `file`'s fields; none when it does not exist. Read as every TermCanvas file is
        /// (`TextFile`): bounded in bytes, and a folder, an unreadable file or one not UTF-8 said so.
        public static func read(_ file: URL) throws(ModelError) -> Fields {
            var info = stat()
            if lstat(file.path, &info) != 0, errno == ENOENT { return Fields() }
            let text: String
            do {
                text = try TextFile.read(file)
            } catch {
                throw .settings(error.description)
            }
            return try parse(text, file: file)
        }

        /// The fields of `ai.yaml`'s text: a mapping whose known keys have text values (others are
        /// ignored); nothing at all is no fields.
        static func parse(_ text: String, file: URL) throws(ModelError) -> Fields {
            let notFields = ModelError.settings("\(file.path): not YAML of baseURL, model, keyVariable, keyFile and timeout")
            let root: Node?
            do { root = try YAMLDocument.compose(text) } catch { throw notFields }
            guard let root else { return Fields() }
            guard case .mapping(let mapping) = root else { throw notFields }
            func field(_ key: String) throws(ModelError) -> String? {
                guard let node = mapping[key] else { return nil }
                guard let text = node.string else { throw .settings("\(file.path): \(key) must be a string") }
                return ["~", "null"].contains(text.lowercased()) ? nil : text  // YAML's null: the field left out
            }
            return Fields(baseURL: try field("baseURL"), model: try field("model"), keyVariable: try field("keyVariable"),
                          keyFile: try field("keyFile"), timeout: try field("timeout"))
        }

        /// These fields, with `other`'s where it has them.
        public func overridden(by other: Fields) -> Fields {
            Fields(baseURL: other.baseURL ?? baseURL, model: other.model ?? model, keyVariable: other.keyVariable ?? keyVariable,
                   keyFile: other.keyFile ?? keyFile, timeout: other.timeout ?? timeout)
        }
    }

    /// Settings from fields that must name an endpoint and a model; `file` is named in the error.
    public init(_ fields: Fields, file: URL) throws(ModelError) {
        guard let baseURL = fields.baseURL?.trimmingWhitespace(), !baseURL.isEmpty else {
            throw .settings("no model endpoint: set baseURL in \(file.path) (e.g. https://api.cerebras.ai/v1; apps new also takes --base-url)")
        }
        guard baseURL.hasPrefix("http://") || baseURL.hasPrefix("https://") else {
            throw .settings("baseURL must start with http:// or https://, got '\(baseURL)'")
        }
        guard let model = fields.model?.trimmingWhitespace(), !model.isEmpty else {
            throw .settings("no model: set model in \(file.path) (apps new also takes --model)")
        }
        let variable = fields.keyVariable?.trimmingWhitespace()
        if let variable, !variable.isEmpty,
           !variable.unicodeScalars.allSatisfy({ $0 == "_" || ($0.isASCII && $0.properties.isAlphabetic) || ("0"..."9").contains($0) }) {
            throw .settings("keyVariable must be the name of an environment variable (letters, digits, _), got '\(variable)'")
        }
        let keyFile = fields.keyFile?.trimmingWhitespace()
        self.init(baseURL: String(baseURL.reversed().drop { $0 == "/" }.reversed()), model: model,
                  keyVariable: variable?.isEmpty == false ? variable : nil, keyFile: keyFile?.isEmpty == false ? keyFile : nil,
                  timeout: try fields.timeout.map { text throws(ModelError) in try Self.timeout(text, file: file) })
    }

    /// `180`, `180s` or `3m`, within `timeouts` seconds.
    static func timeout(_ text: String, file: URL) throws(ModelError) -> Duration {
        let text = text.trimmingWhitespace().lowercased()
        let (digits, unit) = text.hasSuffix("m") ? (text.dropLast(), 60) : (text.hasSuffix("s") ? text.dropLast() : Substring(text), 1)
        guard digits.count <= 6, let count = Int(digits), timeouts.contains(count * unit) else {
            throw .settings("\(file.path): timeout must be seconds from \(timeouts.lowerBound) to \(timeouts.upperBound) (e.g. 180, or 3m), got '\(text)'")
        }
        return .seconds(count * unit)
    }

    /// The API key: `keyVariable`'s in `environment`, else `keyFile`'s; nil when the settings
    /// name neither (an endpoint that wants none).
    /// - Throws: `.noKey` when the variable is unset and there is no key file; `.settings` when
    ///   the key file is missing, empty, not the user's, or readable by others.
    public func key(in environment: [String: String]) throws(ModelError) -> String? {
        if let keyVariable, let key = environment[keyVariable], !key.isEmpty { return key }
        if let keyFile { return try Self.key(inFile: keyFile, home: environment["HOME"] ?? UserHome.path) }
        if let keyVariable { throw .noKey(variable: keyVariable) }
        return nil
    }

    /// The first line of a private file.
    private static func key(inFile path: String, home: String) throws(ModelError) -> String {
        let file = path.hasPrefix("~/") ? home + path.dropFirst(1) : path
        var info = stat()
        guard stat(file, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            throw .settings("keyFile \(path) (in ai.yaml) is not a file")
        }
        guard info.st_uid == getuid(), info.st_mode & 0o077 == 0 else {
            throw .settings("keyFile \(path) (in ai.yaml) must be yours and readable by you only: chmod 600 \(path)")
        }
        guard info.st_size <= 4096, let data = FileManager.default.contents(atPath: file),
              let key = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline).first?
                  .trimmingWhitespace(), !key.isEmpty else {
            throw .settings("keyFile \(path) (in ai.yaml) holds no key")
        }
        return key
    }
}
