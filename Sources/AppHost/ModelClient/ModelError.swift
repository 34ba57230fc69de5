/// Why the model gave no answer, each saying what to fix. None carries a key, a prompt or an
/// answer: these errors are logged and shown.
public enum ModelError: Error, Sendable, Equatable {
    /// `ai.yaml` or a flag is missing or wrong.
    case settings(String)
    case noKey(variable: String)
    /// The endpoint refused the key sent (401, 403, or an answer about authentication at any
    /// status: LiteLLM says `400 … No connected db.` of a key it does not know).
    case keyRefused(variable: String?, status: Int)
    /// The endpoint wants a key and none was sent.
    case keyNeeded(status: Int)
    /// The endpoint does not know the model (404, or a 400 about the model).
    case unknownModel(String, message: String)
    /// Nothing answers at the base URL.
    case unreachable(baseURL: String, reason: String)
    /// No whole answer within the time limit, or a silence longer than `seconds`, the idle
    /// limit (`timeout` in `ai.yaml`).
    case timeout(seconds: Int)
    /// Still 429 or 503 after the retries, or a `Retry-After` too long to wait for.
    case busy(status: Int, retryAfterSeconds: Int?)
    /// Still a 500, 502 or 504 after the retries, with the endpoint's message.
    case serverError(status: Int, message: String)
    /// The endpoint (a proxy such as LiteLLM) is up but cannot reach the model behind it.
    case upstreamUnreachable(status: Int, message: String)
    /// Another non-2xx answer, with the endpoint's message.
    case refused(status: Int, message: String)
    /// An answer that is not an OpenAI-style completion, or one larger than the limit.
    case malformed(String)
    /// The asking task was cancelled.
    case cancelled
}

extension ModelError {
    /// What kind of failure, without the endpoint's words: for the log.
    var kind: String {
        switch self {
        case .settings: "settings"
        case .noKey: "no key"
        case .keyRefused(_, let status): "key refused \(status)"
        case .keyNeeded(let status): "key needed \(status)"
        case .unknownModel: "unknown model"
        case .unreachable: "unreachable"
        case .timeout: "timeout"
        case .busy(let status, _): "busy \(status)"
        case .serverError(let status, _): "server error \(status)"
        case .upstreamUnreachable(let status, _): "upstream unreachable \(status)"
        case .refused(let status, _): "refused \(status)"
        case .malformed: "malformed"
        case .cancelled: "cancelled"
        }
    }
}

extension ModelError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .settings(let message):
            message
        case .noKey(let variable):
            "no API key: the environment variable \(variable) (keyVariable in ai.yaml) is not set; a keyFile in ai.yaml needs no restart"
        case .keyRefused(let variable, let status):
            "the endpoint refused the API key (HTTP \(status))" + (variable.map { ": check the key in \($0) (keyVariable in ai.yaml)" } ?? ": check keyFile in ai.yaml")
        case .keyNeeded(let status):
            "the endpoint wants an API key and none was sent (HTTP \(status)): set keyVariable (an environment variable's name) or keyFile in ai.yaml"
        case .unknownModel(let model, let message):
            "the endpoint has no model '\(model)' (set model in ai.yaml; apps new also takes --model): \(message)"
        case .unreachable(let baseURL, let reason):
            "the model endpoint \(baseURL) cannot be reached (\(reason)): is it running, and is baseURL in ai.yaml right?"
        case .timeout(let seconds):
            "the model endpoint sent nothing for \(seconds) s: a local model can need longer to read the prompt; timeout: SECONDS in ai.yaml waits longer"
        case .busy(let status, let retryAfter):
            "the model endpoint is busy (HTTP \(status))" + (retryAfter.map { "; it asks to wait \($0) s" } ?? "; try again later")
        case .serverError(let status, let message):
            "the model endpoint failed (HTTP \(status)) at every try: \(message)"
        case .upstreamUnreachable(let status, let message):
            "the model endpoint answers but cannot reach its model (HTTP \(status)): is the model server behind it running? It said: \(message)"
        case .refused(let status, let message):
            "the model endpoint refused the request (HTTP \(status)): \(message)"
        case .malformed(let reason):
            "the model endpoint's answer is not a chat completion: \(reason)"
        case .cancelled:
            "cancelled"
        }
    }
}
