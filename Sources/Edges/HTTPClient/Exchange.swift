import PlainText

/// One attempt of a request, ready for libcurl: the full URL, header lines and limits.
/// Built on the caller's side (validation happens there), run on the worker thread.
struct Exchange: Sendable {
    var method: HTTPClient.Method
    var url: String
    var unixSocketPath: String?
    var trustedCertificates: String?
    /// `Name: value` lines, already checked for line breaks.
    var headerLines: [String]
    var body: [UInt8]?
    var connectTimeoutMilliseconds: Int
    /// 0 for none (event streams, which use the idle timeout instead).
    var totalTimeoutMilliseconds: Int
    /// For event streams: end with `.timeout` when nothing at all arrives for this long.
    var idleTimeout: Duration?
    var maxResponseBytes: Int
}

extension Exchange {
    /// Checks and assembles a request against `endpoint`.
    /// - Throws: `.invalidRequest` for a path that does not start with `/`, control characters in
    ///   the path, or a header name or value that would break the request apart.
    static func build(
        _ request: HTTPClient.Request, endpoint: HTTPClient.Endpoint, token: String?,
        connectTimeout: Duration, totalTimeout: Duration?, idleTimeout: Duration? = nil, maxResponseBytes: Int
    ) throws(HTTPClientError) -> Exchange {
        guard request.path.hasPrefix("/") else { throw .invalidRequest("path must start with '/': \(request.path)") }
        guard !request.path.utf8.contains(where: { $0 <= 0x20 || $0 == 0x7F || $0 == UInt8(ascii: "#") }) else {
            throw .invalidRequest("path must not contain spaces, control characters or '#'")
        }
        guard !request.method.rawValue.isEmpty, request.method.rawValue.utf8.allSatisfy(Self.isTokenByte) else {
            throw .invalidRequest("method is not a valid token")
        }
        var base = request.endpointBase(endpoint.baseURL)
        base += request.path
        if !request.query.isEmpty {
            let encode = { (text: String) in PercentEncoding.encode(text, keeping: PercentEncoding.unreserved) }
            let query = request.query.map { "\(encode($0.name))=\(encode($0.value))" }.joined(separator: "&")
            base += (request.path.contains("?") ? "&" : "?") + query
        }

        var lines: [String] = []
        for (name, value) in request.headers {
            guard !name.isEmpty, name.utf8.allSatisfy(Self.isTokenByte) else { throw .invalidRequest("header name is not a valid token") }
            guard !value.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0 }) else {
                throw .invalidRequest("header \(name) contains a line break")
            }
            lines.append("\(name): \(value)")
        }
        let names = Set(request.headers.map { $0.name.lowercased() })
        if let token, !names.contains("authorization") {
            guard !token.utf8.contains(where: { $0 < 0x21 || $0 == 0x7F }) else {
                // Never echo the token itself.
                throw .invalidRequest("bearer token contains spaces or control characters")
            }
            lines.append("Authorization: Bearer \(token)")
        }
        if request.body != nil {
            // libcurl would otherwise label a body as a form, and ask large ones to wait for 100-continue.
            if !names.contains("content-type") { lines.append("Content-Type:") }
            if !names.contains("expect") { lines.append("Expect:") }
        }
        return Exchange(
            method: request.method, url: base, unixSocketPath: endpoint.unixSocketPath, trustedCertificates: endpoint.trustedCertificates, headerLines: lines, body: request.body,
            connectTimeoutMilliseconds: connectTimeout.milliseconds(),
            totalTimeoutMilliseconds: totalTimeout.map { $0.milliseconds() } ?? 0,
            idleTimeout: idleTimeout,
            maxResponseBytes: maxResponseBytes
        )
    }

    /// RFC 9110 token characters: letters, digits and ``!#$%&'*+-.^_`|~``.
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
        default: "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }
}

private extension HTTPClient.Request {
    /// The base URL without a trailing slash, so `base + path` has exactly one.
    func endpointBase(_ baseURL: String) -> String {
        var base = baseURL
        while base.hasSuffix("/") { base.removeLast() }
        return base
    }
}
