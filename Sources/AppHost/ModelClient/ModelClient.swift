import FoundationEssentials
import HTTPClient
import Logging

/// Asks an OpenAI-compatible chat-completions endpoint for an answer, streamed: each piece of text
/// is handed on as it arrives.
///
/// A 429 or 5xx answer, or an endpoint not reached, is tried again (at most `Limits.attempts` in
/// all) after the server's `Retry-After` or a short backoff, but only while no text has been handed
/// on. Logs say how each attempt ended and how long it took; never the key, the prompt or the answer.
public final class ModelClient: Sendable {
    public struct Limits: Sendable {
        public var attempts: Int
        /// A `Retry-After` longer than this is not waited for: the error says how long to wait.
        public var longestWait: Duration
        public var connectTimeout: Duration
        /// The longest one attempt may take, streaming included.
        public var attemptTimeout: Duration
        /// The longest silence within an answer.
        public var idleTimeout: Duration
        /// The most text one answer may hold.
        public var maxAnswerBytes: Int

        public init(attempts: Int = 3, longestWait: Duration = .seconds(60), connectTimeout: Duration = .seconds(10),
                    attemptTimeout: Duration = .seconds(300), idleTimeout: Duration = .seconds(60), maxAnswerBytes: Int = 256 << 10) {
            self.attempts = attempts
            self.longestWait = longestWait
            self.connectTimeout = connectTimeout
            self.attemptTimeout = attemptTimeout
            self.idleTimeout = idleTimeout
            self.maxAnswerBytes = maxAnswerBytes
        }
    }

    public let settings: ModelSettings
    let limits: Limits
    /// Whether a key is sent: a refusal about authentication then means that key, else none.
    private let sendsKey: Bool
    private let http: HTTPClient
    private let logger: Logger

    /// - Parameters:
    ///   - key: The API key (from `ModelSettings.key(in:)`), sent as a bearer token.
    ///   - limits: Their idle limit gives way to `settings.timeout` (`timeout` in `ai.yaml`), and
    ///     one attempt may take at least five such silences.
    public init(settings: ModelSettings, key: String?, limits: Limits = Limits(), logger: Logger = Logger(label: "termcanvas.model")) {
        var limits = limits
        if let timeout = settings.timeout {
            limits.idleTimeout = timeout
            limits.attemptTimeout = max(limits.attemptTimeout, timeout * 5)
        }
        self.settings = settings
        self.limits = limits
        self.sendsKey = key != nil
        self.logger = logger
        let configuration = HTTPClient.Configuration(connectTimeout: limits.connectTimeout, totalTimeout: limits.attemptTimeout,
                                                     retry: .none, maxConnectionsPerHost: 2, maxResponseBytes: limits.maxAnswerBytes * 4)
        http = HTTPClient(endpoint: HTTPClient.Endpoint(baseURL: settings.baseURL), token: key, configuration: configuration, logger: logger)
    }

    /// The model's answer to `messages`; `onText` gets each piece as it arrives.
    public func complete(_ messages: [ChatMessage], onText: @Sendable (String) -> Void = { _ in }) async throws(ModelError) -> String {
        let body: [UInt8]
        do {
            body = Array(try JSONEncoder().encode(Completions.Request(model: settings.model, messages: messages, stream: true)))
        } catch {
            throw .malformed("the request could not be encoded")
        }
        let request = HTTPClient.Request(.post, "/chat/completions", headers: [(name: "Accept", value: "text/event-stream"),
                                                                              (name: "Content-Type", value: "application/json")], body: body)
        var attempt = 1
        while true {
            let started = ContinuousClock.now
            var answer = Answer(limit: limits.maxAnswerBytes)
            let outcome = await receive(request, into: &answer, onText: onText)
            let milliseconds = started.duration(to: .now).milliseconds(atLeast: 0)
            logger.info("model answer", metadata: ["attempt": "\(attempt)", "outcome": "\(outcome.summary)", "ms": "\(milliseconds)",
                                                   "bytes": "\(answer.bytes)"])
            switch outcome {
            case .answered:
                return answer.text
            case .failed(let error):
                throw error
            case .retryable(let error, let wait):
                guard attempt < limits.attempts, answer.bytes == 0 else { throw error }
                var random = SystemRandomNumberGenerator()
                let delay = wait ?? Backoff.delay(failures: attempt, base: .milliseconds(500), cap: limits.longestWait, using: &random)
                guard delay <= limits.longestWait else { throw error }
                do {
                    try await Task.sleep(for: delay)
                } catch {
                    throw .cancelled
                }
                attempt += 1
            }
        }
    }

    /// The text received so far, bounded.
    struct Answer {
        let limit: Int
        var text = ""
        var bytes: Int { text.utf8.count }

        mutating func append(_ piece: String) throws(ModelError) {
            guard bytes + piece.utf8.count <= limit else { throw .malformed("the answer is longer than \(limit) bytes") }
            text += piece
        }
    }

    enum Outcome {
        case answered
        case failed(ModelError)
        case retryable(ModelError, wait: Duration?)

        /// For the log: how it ended, without the endpoint's words (which may echo the prompt).
        var summary: String {
            switch self {
            case .answered: "answered"
            case .failed(let error), .retryable(let error, _): error.kind
            }
        }
    }

    /// One attempt.
    private func receive(_ request: HTTPClient.Request, into answer: inout Answer, onText: (String) -> Void) async -> Outcome {
        var reader: StreamReader?
        for await part in http.stream(request, idleTimeout: limits.idleTimeout) {
            do throws(ModelError) {
                switch part {
                case .head(let headers):
                    let type = headers.first { $0.name.lowercased() == "content-type" }?.value.lowercased() ?? ""
                    reader = StreamReader(isEventStream: type.hasPrefix("text/event-stream"), maxBytes: limits.maxAnswerBytes * 4)
                case .bytes(let bytes):
                    for piece in try reader?.feed(bytes) ?? [] {
                        try answer.append(piece)
                        onText(piece)
                    }
                case .refused(let response):
                    return refusal(response)
                case .end(nil):
                    for piece in try reader?.finish() ?? [] {
                        try answer.append(piece)
                        onText(piece)
                    }
                    guard reader?.sawAnswer == true else { return .failed(.malformed("the answer ended before any completion")) }
                    return .answered
                case .end(let error?):
                    return failure(error)
                }
            } catch {
                return .failed(error)
            }
        }
        return .failed(.cancelled)
    }

    /// What an answer other than 2xx means, in words that name the fix: a proxy such as LiteLLM
    /// says of a key it does not know `400 … No connected db.`, of a model it has not
    /// `Invalid model name`, and of a model server behind it that is down a 500.
    private func refusal(_ response: HTTPClient.Response) -> Outcome {
        let failure = try? JSONDecoder().decode(Completions.Failure.self, from: Data(response.body))
        let message = Self.bounded(failure?.text ?? String(decoding: response.body.prefix(Self.messageBytes), as: UTF8.self))
        let status = response.status
        if [401, 403].contains(status) || failure?.isAboutTheKey == true {
            return .failed(sendsKey ? .keyRefused(variable: settings.keyVariable, status: status) : .keyNeeded(status: status))
        }
        switch status {
        case 404:
            return .failed(.unknownModel(settings.model, message: message))
        case 400 where failure?.isUnknownModel == true:
            return .failed(.unknownModel(settings.model, message: message))
        case 500...599 where failure?.isUpstreamUnreachable == true:
            return .retryable(.upstreamUnreachable(status: status, message: message), wait: nil)
        case 429, 503:
            let seconds = response.header("Retry-After").flatMap { RetryAfter.seconds($0) }
            return .retryable(.busy(status: status, retryAfterSeconds: seconds), wait: seconds.map { Duration.seconds($0) })
        case 500, 502, 504:
            return .retryable(.serverError(status: status, message: message), wait: nil)
        default:
            return .failed(.refused(status: status, message: message))
        }
    }

    /// The most of an endpoint's message an error says.
    static let messageBytes = 300

    /// `message` cut to `messageBytes`, with `…` where it was cut.
    static func bounded(_ message: String) -> String {
        guard message.utf8.count > messageBytes else { return message }
        var cut = ""
        for character in message {
            guard cut.utf8.count + character.utf8.count <= messageBytes - 3 else { break }
            cut.append(character)
        }
        return cut + "…"
    }

    private func failure(_ error: HTTPClientError) -> Outcome {
        switch error {
        case .unreachable(let reason): .retryable(.unreachable(baseURL: settings.baseURL, reason: reason), wait: nil)
        case .timeout: .failed(.timeout(seconds: Int((limits.idleTimeout + .milliseconds(999)).components.seconds)))
        case .cancelled: .failed(.cancelled)
        case .invalidRequest(let reason): .failed(.settings("cannot send to \(settings.baseURL): \(reason)"))
        case .status(let code, _, _): .failed(.refused(status: code, message: ""))
        case .undecodable(_, _, let reason): .failed(.malformed(reason))
        }
    }
}
