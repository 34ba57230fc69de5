/// A pane's inside, in terminal cells.
public struct ViewSize: Hashable, Sendable {
    public let width: Int
    public let height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    var json: JSONValue { .object(["width": .number(Double(width)), "height": .number(Double(height))]) }
}

/// What the user granted an app: the names it may publish, the patterns it hears, the backend
/// paths it may call through the host, whether its state is kept, and what it may touch of the
/// machine (its sandbox).
public struct Permissions: Hashable, Sendable {
    public var publish: [String]
    public var subscribe: [String]
    public var http: [String]
    public var state: Bool
    public var machine: MachineAccess

    public init(publish: [String] = [], subscribe: [String] = [], http: [String] = [], state: Bool = false,
                machine: MachineAccess = .none) {
        self.publish = publish
        self.subscribe = subscribe
        self.http = http
        self.state = state
        self.machine = machine
    }

    public static let none = Permissions()

    /// Each permission in words, as the user is asked for it (empty for none).
    public var inWords: [String] {
        var lines: [String] = []
        if !publish.isEmpty { lines.append("publish " + publish.joined(separator: ", ")) }
        if !subscribe.isEmpty { lines.append("hear " + subscribe.joined(separator: ", ")) }
        if !http.isEmpty { lines.append("call " + http.joined(separator: ", ")) }
        if state { lines.append("keep state with the layout") }
        return lines + machine.inWords
    }

    var json: JSONValue {
        .object(["publish": .array(publish.map(JSONValue.string)), "subscribe": .array(subscribe.map(JSONValue.string)),
                 "http": .array(http.map(JSONValue.string)), "state": .bool(state), "machine": machine.json])
    }
}

/// The first message to an app.
public struct InitializeParams: Hashable, Sendable {
    public var instance: String
    public var appID: String
    public var appVersion: String
    public var size: ViewSize
    public var focused: Bool
    public var visible: Bool
    /// The semantic roles spans may name.
    public var roles: [String]
    public var settings: JSONValue
    /// What the app last saved with `state.save`, or null.
    public var state: JSONValue
    public var permissions: Permissions
    /// The last canvas event of each name it subscribes to, oldest first: what the canvas already
    /// knows (the day the calendar chose before the app started).
    public private(set) var events: [BusEventParams]
    /// At most this many are kept, the oldest let go first.
    public static let eventsKept = 32

    public init(instance: String, appID: String, appVersion: String, size: ViewSize, focused: Bool, visible: Bool,
                roles: [String], settings: JSONValue, state: JSONValue, permissions: Permissions, events: [BusEventParams] = []) {
        self.instance = instance
        self.appID = appID
        self.appVersion = appVersion
        self.size = size
        self.focused = focused
        self.visible = visible
        self.roles = roles
        self.settings = settings
        self.state = state
        self.permissions = permissions
        self.events = []
        events.forEach { remember($0) }
    }

    /// Keeps `event` as the last of its name, so a start (or a restart) tells the app of it.
    public mutating func remember(_ event: BusEventParams) {
        events.removeAll { $0.name == event.name }
        events.append(event)
        if events.count > Self.eventsKept { events.removeFirst(events.count - Self.eventsKept) }
    }

    var json: JSONValue {
        .object([
            "protocol": .string(ProtocolVersion.current.description),
            "instance": .string(instance),
            "app": .object(["id": .string(appID), "version": .string(appVersion)]),
            "size": size.json,
            "focused": .bool(focused),
            "visible": .bool(visible),
            "theme": .object(["roles": .array(roles.map(JSONValue.string))]),
            "settings": settings,
            "state": state,
            "permissions": permissions.json,
            "events": .array(events.map(\.json)),
        ])
    }
}

/// A canvas event as an app hears it.
public struct BusEventParams: Hashable, Sendable {
    public var name: String
    /// Who published it: `pane:3` (a pane's widget or app), or `canvas`.
    public var source: String
    /// ISO 8601, UTC.
    public var time: String
    public var summary: String
    public var payload: JSONValue

    public init(name: String, source: String, time: String, summary: String, payload: JSONValue) {
        self.name = name
        self.source = source
        self.time = time
        self.summary = summary
        self.payload = payload
    }

    var json: JSONValue {
        .object(["name": .string(name), "source": .string(source), "time": .string(time), "summary": .string(summary), "payload": payload])
    }
}

/// The answer to an app's `http` request.
public struct HTTPResult: Hashable, Sendable {
    public var status: Int
    /// The body as JSON when it is JSON, else as text.
    public var body: JSONValue

    public init(status: Int, body: JSONValue) {
        self.status = status
        self.body = body
    }
}

/// Everything the host sends an app.
public enum HostToApp: Hashable, Sendable {
    case initialize(id: RPCID, InitializeParams)
    case resize(ViewSize)
    case focus(Bool)
    /// A key, named as in key maps (`a`, `A`, `ctrl+k`, `enter`, `pageup`, `f5`); `text` is the
    /// character typed, when it is one.
    case key(name: String, text: String?)
    case visible(Bool)
    case busEvent(BusEventParams)
    /// The user changed a setting: all of them, as `initialize`'s `settings` has them.
    case settings(JSONValue)
    /// Enter in an `input` node: its id and text.
    case inputSubmit(id: String, value: String)
    case httpResult(id: RPCID, HTTPResult)
    case failure(id: RPCID, RPCError)
    case shutdown(id: RPCID)
    case exit

    var rpc: RPCMessage {
        switch self {
        case .initialize(let id, let params):
            .request(id: id, method: "initialize", params: params.json)
        case .resize(let size):
            .notification(method: "resize", params: size.json)
        case .focus(let focused):
            .notification(method: "focus", params: .object(["focused": .bool(focused)]))
        case .key(let name, let text):
            .notification(method: "key", params: .object(["key": .string(name), "text": text.map(JSONValue.string) ?? .null]))
        case .visible(let visible):
            .notification(method: "visible", params: .object(["visible": .bool(visible)]))
        case .busEvent(let event):
            .notification(method: "bus.event", params: event.json)
        case .settings(let settings):
            .notification(method: "settings", params: .object(["settings": settings]))
        case .inputSubmit(let id, let value):
            .notification(method: "input.submit", params: .object(["id": .string(id), "value": .string(value)]))
        case .httpResult(let id, let result):
            .response(id: id, result: .object(["status": .number(Double(result.status)), "body": result.body]))
        case .failure(let id, let error):
            .failure(id: id, error)
        case .shutdown(let id):
            .request(id: id, method: "shutdown", params: .null)
        case .exit:
            .notification(method: "exit", params: .null)
        }
    }
}
