import FoundationEssentials

/// A JSON-RPC 2.0 request id.
public enum RPCID: Hashable, Sendable, CustomStringConvertible {
    case number(Int)
    case string(String)

    init?(_ json: JSONValue) {
        if let number = json.int {
            self = .number(number)
        } else if let string = json.string {
            self = .string(string)
        } else {
            return nil
        }
    }

    var json: JSONValue {
        switch self {
        case .number(let number): .number(Double(number))
        case .string(let string): .string(string)
        }
    }

    public var description: String {
        switch self {
        case .number(let number): "\(number)"
        case .string(let string): string
        }
    }
}

/// A JSON-RPC 2.0 error object.
public struct RPCError: Error, Hashable, Sendable {
    public let code: Int
    public let message: String

    public init(code: Int, message: String) {
        self.code = code
        self.message = message
    }

    public static let invalidRequest = -32600
    public static let methodNotFound = -32601
    public static let invalidParams = -32602
    /// The app asked for what its manifest does not declare or the user did not grant.
    public static let notPermitted = -32001
    /// The app's backend could not be reached (no server, a timeout, a refused token).
    public static let backendUnavailable = -32002
    /// Too many requests at once or per second.
    public static let tooManyRequests = -32003

    var json: JSONValue { .object(["code": .number(Double(code)), "message": .string(message)]) }
}

/// One JSON-RPC 2.0 message, in either direction.
public enum RPCMessage: Hashable, Sendable {
    case request(id: RPCID, method: String, params: JSONValue)
    case notification(method: String, params: JSONValue)
    case response(id: RPCID, result: JSONValue)
    case failure(id: RPCID?, RPCError)

    /// Reads one message from its JSON value; fields JSON-RPC does not define are ignored.
    init(json: JSONValue) throws(ProtocolError) {
        guard case .object(let object) = json else { throw .notRPC("expected a JSON object") }
        guard object["jsonrpc"]?.string == "2.0" else { throw .notRPC("\"jsonrpc\" must be \"2.0\"") }
        let id = object["id"].flatMap(RPCID.init)
        if let method = object["method"] {
            guard let name = method.string, !name.isEmpty else { throw .notRPC("\"method\" must be a non-empty string") }
            let params = object["params"] ?? .null
            self = if let id { .request(id: id, method: name, params: params) } else { .notification(method: name, params: params) }
        } else if let error = object["error"] {
            let code = error["code"]?.int ?? RPCError.invalidRequest
            self = .failure(id: id, RPCError(code: code, message: error["message"]?.string ?? ""))
        } else if let id, let result = object["result"] {
            self = .response(id: id, result: result)
        } else {
            throw .notRPC("neither a request, a notification nor a response")
        }
    }

    var json: JSONValue {
        var object: [String: JSONValue] = ["jsonrpc": "2.0"]
        switch self {
        case .request(let id, let method, let params):
            object["id"] = id.json
            object["method"] = .string(method)
            if params != .null { object["params"] = params }
        case .notification(let method, let params):
            object["method"] = .string(method)
            if params != .null { object["params"] = params }
        case .response(let id, let result):
            object["id"] = id.json
            object["result"] = result
        case .failure(let id, let error):
            object["id"] = id?.json ?? .null
            object["error"] = error.json
        }
        return .object(object)
    }
}

/// Why a line from an app could not be read.
public enum ProtocolError: Error, Hashable, Sendable, CustomStringConvertible {
    case notJSON(String)
    case notRPC(String)
    case invalidParams(method: String, String)

    public var description: String {
        switch self {
        case .notJSON(let reason): "not JSON: \(reason)"
        case .notRPC(let reason): "not JSON-RPC 2.0: \(reason)"
        case .invalidParams(let method, let reason): "\(method): \(reason)"
        }
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
}
