extension HTTPClient {
    /// An HTTP method. Only the idempotent ones (`isIdempotent`) are retried without an
    /// `Idempotency-Key`.
    public struct Method: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        public static let get = Method(rawValue: "GET")
        public static let head = Method(rawValue: "HEAD")
        public static let post = Method(rawValue: "POST")
        public static let put = Method(rawValue: "PUT")
        public static let patch = Method(rawValue: "PATCH")
        public static let delete = Method(rawValue: "DELETE")
        public static let options = Method(rawValue: "OPTIONS")

        /// Repeating the request has the same effect as sending it once (RFC 9110 §9.2.2).
        public var isIdempotent: Bool { [Method.get, .head, .put, .delete, .options].contains(self) }

        public var description: String { rawValue }
    }

    /// One request: method, path (with any query), headers and body.
    public struct Request: Sendable {
        public var method: Method
        /// The path below the endpoint's base URL, starting with `/`; it may carry a query already.
        public var path: String
        /// Query parameters, percent-encoded and appended to `path` in this order.
        public var query: [(name: String, value: String)]
        public var headers: [(name: String, value: String)]
        public var body: [UInt8]?

        public init(
            _ method: Method, _ path: String, query: [(name: String, value: String)] = [],
            headers: [(name: String, value: String)] = [], body: [UInt8]? = nil
        ) {
            self.method = method
            self.path = path
            self.query = query
            self.headers = headers
            self.body = body
        }

        /// The value of the first header named `name` (case-insensitive).
        public func header(_ name: String) -> String? {
            headers.first { $0.name.lowercased() == name.lowercased() }?.value
        }

        /// Whether a transient failure may be retried: the method is idempotent, or the request
        /// carries an `Idempotency-Key` the server uses to apply it at most once.
        public var isRetryable: Bool { method.isIdempotent || header("Idempotency-Key") != nil }
    }

    /// A response: status, headers (of the final response, in order) and the whole body.
    public struct Response: Sendable {
        public var status: Int
        public var headers: [(name: String, value: String)]
        public var body: [UInt8]
        /// Whether the request went over a connection kept from an earlier one (no new connect).
        public var connectionReused: Bool

        public init(status: Int, headers: [(name: String, value: String)] = [], body: [UInt8] = [], connectionReused: Bool = false) {
            self.status = status
            self.headers = headers
            self.body = body
            self.connectionReused = connectionReused
        }

        /// The value of the first header named `name` (case-insensitive).
        public func header(_ name: String) -> String? {
            headers.first { $0.name.lowercased() == name.lowercased() }?.value
        }
    }
}
