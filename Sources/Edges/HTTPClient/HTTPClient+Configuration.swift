extension HTTPClient {
    /// Where the server is: a base URL (`http://127.0.0.1:7450`, optionally with a path prefix) and,
    /// for the local BFF, a unix socket to connect to instead of the URL's host and port (the URL
    /// then only supplies the `Host` header and the path prefix).
    public struct Endpoint: Sendable, Equatable {
        public var baseURL: String
        public var unixSocketPath: String?
        /// For `https`: a PEM file of the certificates to trust instead of the system's (a
        /// team's own certificate authority, or a server's self-signed certificate).
        public var trustedCertificates: String?

        public init(baseURL: String, unixSocketPath: String? = nil, trustedCertificates: String? = nil) {
            self.baseURL = baseURL
            self.unixSocketPath = unixSocketPath
            self.trustedCertificates = trustedCertificates
        }

        /// `http://127.0.0.1:PORT`.
        public static func loopback(port: Int) -> Endpoint {
            Endpoint(baseURL: "http://127.0.0.1:\(port)")
        }

        /// The unix socket to speak plain HTTP over with `SocketEngine`, or nil for libcurl.
        var plainSocketPath: String? {
            baseURL.hasPrefix("http://") ? unixSocketPath : nil
        }

        /// The server listening on the unix socket at `path`.
        public static func unixSocket(_ path: String) -> Endpoint {
            Endpoint(baseURL: "http://localhost", unixSocketPath: path)
        }
    }

    /// Timeouts, retries and limits for every request of one client.
    public struct Configuration: Sendable {
        /// The longest one attempt may take to establish a connection.
        public var connectTimeout: Duration
        /// The longest a call to `send` (or a typed helper) takes, retries and their backoff
        /// included; each attempt gets what is left (or `retry.attemptTimeout`, when shorter).
        /// A server that accepts but never answers yields `.timeout` after this long.
        public var totalTimeout: Duration
        public var retry: RetryPolicy
        /// Connections kept open to one server at most; further concurrent requests queue inside
        /// libcurl until one is free. Each open event stream holds one of them.
        public var maxConnectionsPerHost: Int
        /// Responses larger than this fail with `.undecodable` rather than fill memory.
        public var maxResponseBytes: Int

        public init(
            connectTimeout: Duration = .seconds(3),
            totalTimeout: Duration = .seconds(15),
            retry: RetryPolicy = RetryPolicy(),
            maxConnectionsPerHost: Int = 8,
            maxResponseBytes: Int = 16 << 20
        ) {
            self.connectTimeout = connectTimeout
            self.totalTimeout = totalTimeout
            self.retry = retry
            self.maxConnectionsPerHost = maxConnectionsPerHost
            self.maxResponseBytes = maxResponseBytes
        }
    }

    /// When and how soon to try a request again.
    ///
    /// Only requests that are safe to repeat are retried (`Request.isRetryable`: GET, HEAD, PUT,
    /// DELETE, OPTIONS, or any request carrying an `Idempotency-Key` header), and only after a
    /// transient failure (`HTTPClientError.isTransient`: unreachable, timeout, 429, 502, 503, 504).
    /// The wait before attempt `n + 1` is `initialBackoff × 2^(n-1)`, capped at `maxBackoff`, with
    /// "equal jitter" (half fixed, half random) so clients that failed together do not come back
    /// together; a `Retry-After` of whole seconds on a 429 or 503 replaces it. No retry starts when
    /// its wait would end past the call's `totalTimeout`: the error is returned at once instead.
    public struct RetryPolicy: Sendable, Equatable {
        /// Attempts in all, the first included; 1 turns retries off.
        public var maxAttempts: Int
        public var initialBackoff: Duration
        public var maxBackoff: Duration
        /// The longest one attempt may take; nil lets an attempt use all of the remaining
        /// `totalTimeout`. Set it to retry requests that hang (a timed-out attempt is retried when
        /// budget remains).
        public var attemptTimeout: Duration?

        public init(
            maxAttempts: Int = 3,
            initialBackoff: Duration = .milliseconds(200),
            maxBackoff: Duration = .seconds(5),
            attemptTimeout: Duration? = nil
        ) {
            self.maxAttempts = max(1, maxAttempts)
            self.initialBackoff = initialBackoff
            self.maxBackoff = maxBackoff
            self.attemptTimeout = attemptTimeout
        }

        /// One attempt only.
        public static let none = RetryPolicy(maxAttempts: 1)

        /// The wait after failed attempt `attempt` (1 for the first), with jitter from `random`.
        public func backoff(afterAttempt attempt: Int, using random: inout some RandomNumberGenerator) -> Duration {
            Backoff.delay(failures: attempt, base: initialBackoff, cap: maxBackoff, using: &random)
        }
    }

    /// How an event stream comes back after it drops.
    ///
    /// The wait before reconnecting is the server's `retry:` (or `initialDelay` until the server
    /// sent one) doubled per consecutive failure, capped at `maxDelay`, with equal jitter. A
    /// successful connection resets the count.
    public struct ReconnectPolicy: Sendable, Equatable {
        public var initialDelay: Duration
        /// The longest wait between attempts, also when the server's `retry:` asks for longer.
        public var maxDelay: Duration
        /// A stream that receives nothing (not even the BFF's keep-alive comment, sent every 25 s)
        /// for this long is taken for dead and reconnected.
        public var idleTimeout: Duration

        public init(initialDelay: Duration = .seconds(1), maxDelay: Duration = .seconds(30), idleTimeout: Duration = .seconds(60)) {
            self.initialDelay = initialDelay
            self.maxDelay = maxDelay
            self.idleTimeout = idleTimeout
        }
    }
}
