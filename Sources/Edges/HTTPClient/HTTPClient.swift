import Logging
import Synchronization

/// The product's HTTP client: REST and server-sent events to the BFF, on libcurl for servers over
/// the network and on plain HTTP/1.1 for the local server's unix socket.
///
/// One client per server. Its requests share one engine driven by one worker thread (see
/// `CurlEngine` for why; `SocketEngine` is the unix socket's, so the dashboard's usual start never
/// loads libcurl), so connections are kept and reused across requests, any number of requests run
/// at once, and no call ever blocks the caller's thread: `send` suspends until the worker hands
/// the result back, so it is safe to call from the main actor.
///
/// ```swift
/// let local = HTTPClient(endpoint: .unixSocket(socketPath), token: localToken)    // the embedded BFF
/// let team = HTTPClient(endpoint: HTTPClient.Endpoint(baseURL: "https://bff.example.org"), token: token)
/// let items = try await team.get(APIPath.todoItems, as: Page<TodoItem>.self)
/// for await update in local.events() { … }
/// ```
///
/// - Timeouts: `Configuration.connectTimeout` bounds each connect; `totalTimeout` bounds each call
///   as a whole, retries included. Either running out is `.timeout`.
/// - Retries: idempotent requests only (or those with an `Idempotency-Key` header), only after
///   transient failures, with exponential backoff and jitter; `Retry-After` is honoured. See
///   `RetryPolicy`.
/// - Auth: with a `token`, every request carries `Authorization: Bearer TOKEN`. The token is never
///   logged (the client logs method, path, status, timing and attempt only).
/// - Errors: always an `HTTPClientError` value.
/// - Cancellation: cancelling the calling task removes the transfer at once; the call throws
///   `.cancelled`.
/// - Event streams: `events(path:lastEventID:reconnect:)`.
///
/// Dropping the last reference to the client stops its worker thread and cancels what is in flight
/// (calls in progress and open event streams keep the client alive).
public final class HTTPClient: Sendable {
    public let endpoint: Endpoint
    public let configuration: Configuration
    /// Nil when the engine cannot run (libcurl missing, no file descriptors left): every request
    /// then fails with `unusable`, saying why.
    let engine: (any TransferEngine)?
    let logger: Logger
    private let bearer: Mutex<String?>

    /// - Parameters:
    ///   - endpoint: The server: base URL, and a unix socket for the local BFF.
    ///   - token: The bearer token to send, if any; change it later with `token`.
    ///   - configuration: Timeouts, retries, connection and size limits.
    ///   - logger: Where requests are logged (debug) and retries (info); never tokens or bodies.
    public init(
        endpoint: Endpoint, token: String? = nil, configuration: Configuration = Configuration(),
        logger: Logger = Logger(label: "termcanvas.http")
    ) {
        self.endpoint = endpoint
        self.configuration = configuration
        self.logger = logger
        bearer = Mutex(token)
        engine = if let socket = endpoint.plainSocketPath {
            SocketEngine(socketPath: socket, maxConnections: configuration.maxConnectionsPerHost)
        } else {
            CurlEngine(maxConnectionsPerHost: configuration.maxConnectionsPerHost)
        }
    }

    deinit {
        engine?.shutDown()
    }

    /// Call at the end of a process that may have made a client: waits until a client being made
    /// on another thread has loaded libcurl, and makes any later one unusable, so the process's
    /// exit handlers never clean up OpenSSL under a thread still initialising it.
    public static func closeForExit() {
        CurlEngine.closeForExit()
    }

    /// Why a request cannot be sent at all: libcurl is missing or broken, or the process has no
    /// file descriptors left. Not `.unreachable`, which would read as a server that is down.
    var unusable: HTTPClientError {
        if endpoint.plainSocketPath != nil {
            return .invalidRequest("the HTTP client could not open its wake-up pipe (no file descriptors left)")
        }
        return .invalidRequest(CurlEngine.unavailability ?? "libcurl could not create a multi handle")
    }

    /// The bearer token sent with every request from now on (nil for none), e.g. after logging in.
    public var token: String? {
        get { bearer.withLock { $0 } }
        set { bearer.withLock { $0 = newValue } }
    }

    /// Sends `request` and returns its 2xx response, retrying per `configuration.retry`.
    ///
    /// - Throws: `.status` for any other status (after retries), `.unreachable`, `.timeout`,
    ///   `.cancelled`, or `.invalidRequest` before anything is sent. Redirects are not followed.
    public func send(_ request: Request) async throws(HTTPClientError) -> Response {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: configuration.totalTimeout)
        let policy = configuration.retry
        var random = SystemRandomNumberGenerator()
        var attempt = 1
        while true {
            guard !Task.isCancelled else { throw .cancelled }
            let remaining = clock.now.duration(to: deadline)
            guard remaining > .zero else { throw .timeout }
            let budget = policy.attemptTimeout.map { min($0, remaining) } ?? remaining
            let exchange = try Exchange.build(
                request, endpoint: endpoint, token: token, connectTimeout: min(configuration.connectTimeout, budget),
                totalTimeout: budget, maxResponseBytes: configuration.maxResponseBytes
            )
            let started = clock.now
            let result = await engine?.perform(exchange) ?? .failure(unusable)
            let milliseconds = started.duration(to: clock.now).milliseconds(atLeast: 0)

            let error: HTTPClientError
            var retryAfter: Duration?
            switch result {
            case .success(let response) where (200..<300).contains(response.status):
                logger.debug("http", metadata: Self.metadata(request, attempt: attempt, milliseconds: milliseconds, outcome: "\(response.status)"))
                return response
            case .success(let response):
                error = .status(for: response)
                if response.status == 429 || response.status == 503 {
                    retryAfter = response.header("Retry-After").flatMap { RetryAfter.seconds($0) }.map { .seconds($0) }
                }
            case .failure(let failure):
                error = failure
            }
            logger.debug("http", metadata: Self.metadata(request, attempt: attempt, milliseconds: milliseconds, outcome: "\(error)"))

            guard attempt < policy.maxAttempts, request.isRetryable, error.isTransient else { throw error }
            let wait = retryAfter ?? policy.backoff(afterAttempt: attempt, using: &random)
            // A retry that could not finish in time only delays the error.
            guard clock.now.advanced(by: wait) < deadline else { throw error }
            logger.info("http retry", metadata: Self.metadata(request, attempt: attempt + 1, milliseconds: wait.milliseconds(atLeast: 0), outcome: "\(error)"))
            do {
                try await Task.sleep(for: wait)
            } catch {
                throw .cancelled
            }
            attempt += 1
        }
    }

    /// Log metadata of one attempt: never headers (the token) or bodies.
    private static func metadata(_ request: Request, attempt: Int, milliseconds: Int, outcome: String) -> Logger.Metadata {
        ["method": "\(request.method)", "path": "\(request.path)", "attempt": "\(attempt)", "ms": "\(milliseconds)", "outcome": "\(outcome)"]
    }
}
