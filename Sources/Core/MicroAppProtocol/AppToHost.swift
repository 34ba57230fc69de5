/// A whole view with its revision; a view of a revision the host already drew changes nothing.
public struct ViewUpdate: Hashable, Sendable {
    public let revision: Int
    public let root: ViewNode

    public init(revision: Int, root: ViewNode) {
        self.revision = revision
        self.root = root
    }

    /// A revision out of range refuses the whole view (its root becomes `.refused`).
    init(json: JSONValue) {
        do throws(ViewNode.NumberRefusal) {
            let revision = try ViewNode.integer(json["revision"], field: "revision", in: ViewNode.Limits.revision) ?? 0
            self.init(revision: revision, root: ViewNode(json: json["root"] ?? .null))
        } catch {
            self.init(revision: 0, root: .refused(type: "view", reason: error.reason))
        }
    }
}

/// What an app says about itself in answer to `initialize`.
public struct InitializeResult: Hashable, Sendable {
    /// The protocol version the app speaks, as it wrote it.
    public let protocolVersion: String
    /// The capabilities it declares, kept as sent (`{"keys": true}`); unknown ones are ignored.
    public let capabilities: JSONValue
    public let view: ViewUpdate?

    public init(json: JSONValue) {
        protocolVersion = json["protocol"]?.string ?? json["protocol"]?.displayText ?? ""
        capabilities = json["capabilities"] ?? .object([:])
        view = json["view"].map(ViewUpdate.init(json:))
    }

    /// Nil when the version is unreadable; compare with `ProtocolVersion.current`.
    public var version: ProtocolVersion? { ProtocolVersion(protocolVersion) }
}

/// An event an app asks the host to publish on the canvas bus.
public struct Publish: Hashable, Sendable {
    public let name: String
    public let summary: String?
    public let payload: JSONValue

    public init(name: String, summary: String?, payload: JSONValue) {
        self.name = name
        self.summary = summary
        self.payload = payload
    }
}

/// A call an app asks the host to make to its backend, with the user's token.
public struct HTTPRequest: Hashable, Sendable {
    public let method: String
    /// Starts with `/`; may carry a query.
    public let path: String
    public let body: JSONValue?

    public init(method: String, path: String, body: JSONValue?) {
        self.method = method
        self.path = path
        self.body = body
    }

    public static let methods: Set<String> = ["GET", "POST", "PUT", "PATCH", "DELETE"]
}

/// A line for the app's own log.
public struct LogEntry: Hashable, Sendable {
    public let level: String
    public let message: String

    public init(level: String, message: String) {
        self.level = level
        self.message = message
    }
}

/// Everything an app may send the host.
public enum AppToHost: Hashable, Sendable {
    case view(ViewUpdate)
    case publish(Publish)
    case http(id: RPCID, HTTPRequest)
    case stateSave(JSONValue)
    case log(LogEntry)
    /// An answer to one of the host's requests (`initialize`, `shutdown`).
    case response(id: RPCID, result: JSONValue)
    case failure(id: RPCID?, RPCError)
    /// A request of a method the host does not know; answered with "method not found".
    case unknownRequest(id: RPCID, method: String)
    /// A notification the host does not know; ignored, as the protocol asks of a host, and
    /// warned of once (`warning(forUnknown:)`), so that its author learns why nothing happens.
    case unknownNotification(method: String)

    /// The notifications an app sends (the protocol document's app-to-host messages).
    public static let notifications = ["view", "bus.publish", "state.save", "log"]

    /// What to tell an app's author of a notification the host does not know: its name (cut
    /// to 60 characters) and, when one of ours is close, which was meant.
    public static func warning(forUnknown method: String) -> String {
        let shown = method.count > 60 ? method.prefix(60) + "…" : Substring(method)
        let lowered = method.lowercased()
        let meant = notifications.first { known in
            known.hasSuffix("." + lowered) || lowered.hasSuffix("." + known) || Self.distance(lowered, known) <= 2
        }
        return "`\(shown)` is not a notification of protocol \(ProtocolVersion.current)"
            + (meant.map { ": did you mean `\($0)`?" } ?? " (it sends view, bus.publish, state.save and log)")
    }

    /// Edits that turn one name into the other (Levenshtein), counted up to 3: enough to tell a typo.
    static func distance(_ one: String, _ other: String) -> Int {
        let (a, b) = (Array(one.prefix(64)), Array(other))
        guard abs(a.count - b.count) <= 2 else { return 3 }
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1] + Array(repeating: 0, count: b.count)
            for (j, y) in b.enumerated() { current[j + 1] = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)) }
            previous = current
        }
        return min(previous[b.count], 3)
    }

    init(_ message: RPCMessage) throws(ProtocolError) {
        switch message {
        case .response(let id, let result):
            self = .response(id: id, result: result)
        case .failure(let id, let error):
            self = .failure(id: id, error)
        case .notification(let method, let params):
            switch method {
            case "view":
                guard params["root"] != nil else { throw .invalidParams(method: method, "\"root\" is missing") }
                self = .view(ViewUpdate(json: params))
            case "bus.publish":
                guard let name = params["name"]?.string else { throw .invalidParams(method: method, "\"name\" must be a string") }
                self = .publish(Publish(name: name, summary: params["summary"]?.string, payload: params["payload"] ?? .null))
            case "state.save":
                self = .stateSave(params["state"] ?? .null)
            case "log":
                self = .log(LogEntry(level: params["level"]?.string ?? "info", message: params["message"]?.displayText ?? ""))
            default:
                self = .unknownNotification(method: method)
            }
        case .request(let id, let method, let params):
            guard method == "http" else {
                self = .unknownRequest(id: id, method: method)
                return
            }
            guard let verb = params["method"]?.string?.uppercased(), HTTPRequest.methods.contains(verb) else {
                throw .invalidParams(method: method, "\"method\" must be one of \(HTTPRequest.methods.sorted().joined(separator: ", "))")
            }
            guard let path = params["path"]?.string, path.hasPrefix("/") else {
                throw .invalidParams(method: method, "\"path\" must start with /")
            }
            self = .http(id: id, HTTPRequest(method: verb, path: path, body: params["body"].flatMap { $0 == .null ? nil : $0 }))
        }
    }
}
