import FoundationEssentials
import ServerAPI

/// Typed helpers: JSON bodies in, JSON responses decoded. A 2xx body that does not decode as the
/// asked type is `.undecodable` (with the status, the body and the decoder's reason).
extension HTTPClient {
    /// `GET path` decoded as `Value`.
    public func get<Value: Decodable>(
        _ path: String, query: [(name: String, value: String)] = [], as type: Value.Type = Value.self
    ) async throws(HTTPClientError) -> Value {
        let response = try await send(Request(.get, path, query: query, headers: [(name: "Accept", value: "application/json")]))
        return try Self.decode(Value.self, from: response)
    }

    /// `POST path` with `body` as JSON, the answer decoded as `Value`. Not retried unless
    /// `idempotencyKey` is given (sent as `Idempotency-Key`; the server must honour it).
    public func post<Body: Encodable, Value: Decodable>(
        _ path: String, body: Body, idempotencyKey: String? = nil, as type: Value.Type = Value.self
    ) async throws(HTTPClientError) -> Value {
        var request = try Self.jsonRequest(.post, path, body: body)
        if let idempotencyKey { request.headers.append((name: "Idempotency-Key", value: idempotencyKey)) }
        return try Self.decode(Value.self, from: try await send(request))
    }

    /// `PATCH path` with `body` as JSON, the answer decoded as `Value`. Not retried.
    public func patch<Body: Encodable, Value: Decodable>(
        _ path: String, body: Body, as type: Value.Type = Value.self
    ) async throws(HTTPClientError) -> Value {
        try Self.decode(Value.self, from: try await send(try Self.jsonRequest(.patch, path, body: body)))
    }

    /// `PUT path` with `body` as JSON, the answer decoded as `Value`. Not retried.
    public func put<Body: Encodable, Value: Decodable>(
        _ path: String, body: Body, as type: Value.Type = Value.self
    ) async throws(HTTPClientError) -> Value {
        try Self.decode(Value.self, from: try await send(try Self.jsonRequest(.put, path, body: body)))
    }

    /// `PUT path` with `body` as JSON; any 2xx is success and its body is ignored (a 204). Not retried.
    public func put<Body: Encodable>(_ path: String, json body: Body) async throws(HTTPClientError) {
        _ = try await send(try Self.jsonRequest(.put, path, body: body))
    }

    /// `POST path` with `body` as JSON; any 2xx is success and its body is ignored. Not retried.
    public func post<Body: Encodable>(_ path: String, json body: Body) async throws(HTTPClientError) {
        _ = try await send(try Self.jsonRequest(.post, path, body: body))
    }

    /// `DELETE path`; any 2xx is success and its body is ignored.
    public func delete(_ path: String) async throws(HTTPClientError) {
        _ = try await send(Request(.delete, path))
    }

    /// `PUT path` or `DELETE path` without a body, the answer decoded as `Value`.
    public func send<Value: Decodable>(
        _ method: Method, _ path: String, as type: Value.Type = Value.self
    ) async throws(HTTPClientError) -> Value {
        try Self.decode(Value.self, from: try await send(Request(method, path, headers: [(name: "Accept", value: "application/json")])))
    }

    /// `response`'s body decoded as JSON of `Value`.
    /// - Throws: `.undecodable` naming what did not fit.
    public static func decode<Value: Decodable>(_ type: Value.Type, from response: Response) throws(HTTPClientError) -> Value {
        do {
            return try JSONDecoder().decode(Value.self, from: Data(response.body))
        } catch {
            throw .undecodable(status: response.status, body: response.body, reason: describe(error))
        }
    }

    /// A request with `body` as JSON, accepting JSON, for a caller that reads the answer's status itself.
    public static func jsonRequest(_ method: Method, _ path: String, body: some Encodable) throws(HTTPClientError) -> Request {
        let data: Data
        do {
            data = try JSONEncoder().encode(body)
        } catch {
            throw .invalidRequest("body does not encode as JSON: \(error)")
        }
        return Request(
            method, path,
            headers: [(name: "Content-Type", value: "application/json"), (name: "Accept", value: "application/json")],
            body: [UInt8](data)
        )
    }

    /// A short reason for a decoding failure: what was expected where.
    static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "\(error)" }
        func path(_ keys: [any CodingKey]) -> String {
            keys.isEmpty ? "top level" : keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
        }
        switch error {
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty ? "not JSON" : "\(path(context.codingPath)): \(context.debugDescription)"
        case .keyNotFound(let key, let context):
            return "missing key \(path(context.codingPath + [key]))"
        case .typeMismatch(let type, let context):
            return "\(path(context.codingPath)): expected \(type)"
        case .valueNotFound(let type, let context):
            return "\(path(context.codingPath)): null where \(type) was expected"
        @unknown default:
            return "\(error)"
        }
    }
}

extension HTTPClientError {
    /// `.status` for a non-2xx response, with the BFF's `{"error", "field"}` body decoded when it is one.
    static func status(for response: HTTPClient.Response) -> HTTPClientError {
        let apiError = try? JSONDecoder().decode(APIError.self, from: Data(response.body))
        return .status(code: response.status, body: response.body, apiError: apiError)
    }
}
