import CanvasCore
import FoundationEssentials
import ServerAPI

/// How one micro-app's data stands with its BFF; widgets show it in their pane title.
public struct SyncStatus: Sendable, Equatable {
    public enum Connection: Sendable, Equatable {
        /// The dashboard has just started and the server has not answered yet: nothing worth
        /// showing, as it usually answers within moments.
        case starting
        /// Still not known after a while: the dashboard is still finding or starting its server.
        case connecting
        case online
        /// The server cannot be reached; data shown is the cache's.
        case offline
        /// The server answered, but not usefully (garbage, an error status, too slow): one line to show.
        case failing(String)
    }

    public var connection: Connection
    /// When the server's data was last received.
    public var lastSynced: Date?
    /// Writes waiting in the outbox.
    public var pendingWrites: Int
    /// Why nothing is kept offline this run (the cache file could not be used), if so.
    public var notKeptOffline: String?

    public init(connection: Connection, lastSynced: Date? = nil, pendingWrites: Int = 0, notKeptOffline: String? = nil) {
        self.connection = connection
        self.lastSynced = lastSynced
        self.pendingWrites = pendingWrites
        self.notKeptOffline = notKeptOffline
    }
}

/// A micro-app's sync status changed.
public struct SyncStatusChanged: BusEvent {
    public static let name: CanvasCore.EventName = "sync.status.changed"
    public static let supersedesPrevious = true
    public let app: ServerApp
    public let status: SyncStatus

    public init(app: ServerApp, status: SyncStatus) {
        self.app = app
        self.status = status
    }

    public var summary: String {
        let connection = switch status.connection {
        case .starting: "starting"
        case .connecting: "connecting"
        case .online: "online"
        case .offline: "offline"
        case .failing(let reason): "failing: \(reason)"
        }
        return "\(app.rawValue) \(connection)\(status.pendingWrites > 0 ? ", \(status.pendingWrites) pending" : "")"
    }
}

/// The micro-apps the server hosts, from its registry (`GET /api/registry/apps`).
public struct RegistryLoaded: BusEvent {
    public static let name: CanvasCore.EventName = "bff.registry.loaded"
    public let apps: [MicroAppInfo]
    public let origin: DataOrigin

    public init(apps: [MicroAppInfo], origin: DataOrigin) {
        self.apps = apps
        self.origin = origin
    }

    public var summary: String { apps.map(\.id).joined(separator: ", ") }
}

/// The packages the server suggests to this user (`GET /api/registry/suggestions`), read after
/// each read of its registry: the catalog lists them first.
public struct SuggestionsLoaded: BusEvent {
    public static let name: CanvasCore.EventName = "bff.suggestions.loaded"
    public let suggestions: [AppSuggestion]

    public init(suggestions: [AppSuggestion]) {
        self.suggestions = suggestions
    }

    public var summary: String { suggestions.map(\.app.id).joined(separator: ", ") }
}

/// The packages of the other registries the user follows (the servers they are logged in to), by
/// registry (`scheme://host[:port]`), read after each read of the server's registry: the catalog
/// offers them too.
public struct PackagesElsewhere: BusEvent {
    public static let name: CanvasCore.EventName = "bff.registries.loaded"
    public let registries: [String: [MicroAppInfo]]

    public init(registries: [String: [MicroAppInfo]]) {
        self.registries = registries
    }

    public var summary: String { registries.keys.sorted().map { "\($0): \(registries[$0]?.count ?? 0)" }.joined(separator: ", ") }
}
