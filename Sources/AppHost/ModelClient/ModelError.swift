/// Why the model gave no answer, each saying what to fix. None carries a key, a prompt or an
/// answer: these errors are logged and shown.
public enum ModelError: Error, Sendable, Equatable {
    /// `ai.yaml` or a flag is missing or wrong.
    case settings(String)
    case noKey(variable: String)
    /// The endpoint refused the key (401, 403).
    case keyRefused(variable: String?, status: Int)
    /// The endpoint does not know the model (404, or a 400 about the model).
    case unknownModel(String, message: String)
    /// Nothing answers at the base URL.
    case unreachable(baseURL: String, reason: String)
    /// No whole answer within the time limit, or a silence longer than the idle limit.
    case timeout
    /// Still 429 or 5xx after the retries, or a `Retry-After` too long to wait for.
    case busy(status: Int, retryAfterSeconds: Int?)
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
        case .unknownModel: "unknown model"
        case .unreachable: "unreachable"
        case .timeout: "timeout"
        case .busy(let status, _): "busy \(status)"
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
            "the endpoint refused the API key (HTTP \(status))" + (variable.map { ": check \($0)" } ?? ": set keyVariable in ai.yaml")
        case .unknownModel(let model, let message):
            "the endpoint has no model '\(model)' (set model in ai.yaml; apps new also takes --model): \(message)"
        case .unreachable(let baseURL, let reason):
            "the model endpoint \(baseURL) cannot be reached (\(reason)): is it running, and is baseURL in ai.yaml right?"
        case .timeout:
            "the model endpoint did not answer in time"
        case .busy(let status, let retryAfter):
            "the model endpoint is busy (HTTP \(status))" + (retryAfter.map { "; it asks to wait \($0) s" } ?? "; try again later")
        case .refused(let status, let message):
            "the model endpoint refused the request (HTTP \(status)): \(message)"
        case .malformed(let reason):
            "the model endpoint's answer is not a chat completion: \(reason)"
        case .cancelled:
            "cancelled"
        }
    }
}
