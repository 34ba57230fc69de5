/// A remote micro-app's manifest as the registry keeps it: the fields of `app.yaml` that mean
/// something for an app that runs elsewhere (no `exec`, environment or process limits).
public struct RegistryManifest: Codable, Sendable, Equatable {
    public var id: String
    public var name: String
    public var version: String
    public var description: String
    /// The micro-app protocol version it speaks.
    public var `protocol`: Int
    public var events: Events
    /// Backend path prefixes it may call through the host.
    public var backend: [String]
    /// Whether it keeps state with the layout.
    public var state: Bool
    public var minSize: Size

    public struct Events: Codable, Sendable, Equatable {
        public var publishes: [String]
        public var subscribes: [String]

        public init(publishes: [String] = [], subscribes: [String] = []) {
            self.publishes = publishes
            self.subscribes = subscribes
        }
    }

    public struct Size: Codable, Sendable, Equatable {
        public var width: Int
        public var height: Int

        public init(width: Int, height: Int) {
            self.width = width
            self.height = height
        }
    }

    public init(id: String, name: String, version: String, description: String = "", protocol: Int = 1,
                events: Events = Events(), backend: [String] = [], state: Bool = false,
                minSize: Size = Size(width: 10, height: 3)) {
        self.id = id
        self.name = name
        self.version = version
        self.description = description
        self.protocol = `protocol`
        self.events = events
        self.backend = backend
        self.state = state
        self.minSize = minSize
    }
}
