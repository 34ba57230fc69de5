/// One micro-app in the registry (`GET /api/registry/apps`): what the dashboard's widget catalog
/// shows, its current version's manifest, its health, and where a built-in app's API lives.
public struct MicroAppInfo: Codable, Sendable, Equatable {
    /// The app's id, also its widget kind: `todo`, `calendar`, `chat`, `deploys`.
    public var id: String
    public var name: String
    /// The current (newest published) version.
    public var version: String
    public var description: String
    /// The prefix of the app's routes: `/api/todo` for a built-in app, `/api/apps/ID` (the proxy
    /// of its entry) for a remote one.
    public var basePath: String
    /// The live events it publishes.
    public var events: [String]
    /// Nil from a server older than the registry: a built-in app.
    public var kind: RegistryAppKind?
    /// Nil from a server older than the registry: never checked.
    public var health: AppHealth?
    /// The current version's manifest; nil for built-in apps, which the dashboard knows.
    public var manifest: RegistryManifest?
    /// A package's current version: its archive's digest and size, and what it asks for.
    public var package: PackageVersion?
    /// A package's installs: how many users of this server recorded one (never who).
    public var installs: Int?

    public init(id: String, name: String, version: String, description: String, basePath: String, events: [String],
                kind: RegistryAppKind = .builtin, health: AppHealth? = nil, manifest: RegistryManifest? = nil,
                package: PackageVersion? = nil, installs: Int? = nil) {
        self.id = id
        self.name = name
        self.version = version
        self.description = description
        self.basePath = basePath
        self.events = events
        self.kind = kind
        self.health = health
        self.manifest = manifest
        self.package = package
        self.installs = installs
    }
}

/// Where an app runs: inside the server (todo, calendar, chat), at an entry the server proxies, or
/// on the user's machine from a package they install (`termcanvas apps install`).
public enum RegistryAppKind: String, Codable, Sendable, CaseIterable {
    case builtin
    case remote
    case package
}

/// A remote app's health as the server last saw it (`GET ENTRY/health`, on a period and on demand).
public struct AppHealth: Codable, Sendable, Equatable {
    public enum State: String, Codable, Sendable {
        /// Not checked yet.
        case unknown
        case up
        /// It answers, but says something is wrong (`reason`).
        case degraded
        /// No answer, or an error; since `since`.
        case down
    }

    public var state: State
    /// Why it is degraded or down; for admins only (nil for other users).
    public var reason: String?
    /// When it entered this state, ISO 8601 UTC.
    public var since: String?

    public init(state: State, reason: String? = nil, since: String? = nil) {
        self.state = state
        self.reason = reason
        self.since = since
    }

    /// A built-in app runs in the server itself.
    public static let up = AppHealth(state: .up)

    /// As users other than admins see it: the state only. The reason may be an internal host's
    /// own words (an error, an address), so only admins see it.
    public var withoutReason: AppHealth { AppHealth(state: state, since: since) }
}

/// `GET /api/registry/apps/{id}`: the app, every version published, and (for admins) its entry.
public struct MicroAppDetail: Codable, Sendable, Equatable {
    public var app: MicroAppInfo
    /// Newest first.
    public var versions: [PublishedVersion]
    /// The remote app's entry URL; only admins see it.
    public var entry: String?
    /// Only in the answer to the publish that created the app: its secrets, shown once.
    public var secrets: AppSecrets?

    public init(app: MicroAppInfo, versions: [PublishedVersion], entry: String? = nil, secrets: AppSecrets? = nil) {
        self.app = app
        self.versions = versions
        self.entry = entry
        self.secrets = secrets
    }
}

/// One version of an app in the registry.
public struct PublishedVersion: Codable, Sendable, Equatable {
    public var version: String
    /// ISO 8601 UTC.
    public var publishedAt: String
    /// The admin (or the package's publisher) who published it; nil for a built-in app.
    public var publishedBy: String?
    /// A package's version: its archive's digest and size, and what it asks for.
    public var package: PackageVersion?
    /// When a package's version was withdrawn (ISO 8601 UTC): it is no longer offered, and machines
    /// that have it say so.
    public var withdrawnAt: String?

    public init(version: String, publishedAt: String, publishedBy: String?, package: PackageVersion? = nil, withdrawnAt: String? = nil) {
        self.version = version
        self.publishedAt = publishedAt
        self.publishedBy = publishedBy
        self.package = package
        self.withdrawnAt = withdrawnAt
    }
}

/// A remote app's secrets, made when it is first published (and again when it is published after
/// a withdrawal, or rotated).
public struct AppSecrets: Codable, Sendable, Equatable {
    /// How long (seconds) the secrets before a rotation stay valid beside the new ones.
    public static let rotationOverlap: Double = 10 * 60

    /// Signs webhooks (`X-Signature` of `POST /api/hooks/{app}`).
    public var hook: String
    /// Signs the identity header the server sends its entry (`X-TermCanvas-Signature`).
    public var entry: String

    public init(hook: String, entry: String) {
        self.hook = hook
        self.entry = entry
    }
}

/// `PUT /api/registry/apps/{id}`: publish a version.
public struct PublishRequest: Codable, Sendable, Equatable {
    public var manifest: RegistryManifest
    /// The remote app's entry: an `http` or `https` URL speaking the micro-app protocol over HTTP.
    public var entry: String
    /// Make new secrets for a live app (admin only, as every publish); the old ones stay valid for
    /// `AppSecrets.rotationOverlap`. The version may then be the current one.
    public var rotateSecrets: Bool?

    public init(manifest: RegistryManifest, entry: String, rotateSecrets: Bool? = nil) {
        self.manifest = manifest
        self.entry = entry
        self.rotateSecrets = rotateSecrets
    }
}

/// The data of `registry.app.health`.
public struct AppHealthChange: Codable, Sendable, Equatable {
    public var id: String
    public var health: AppHealth

    public init(id: String, health: AppHealth) {
        self.id = id
        self.health = health
    }
}

/// The answer to an accepted webhook (202): its place in the delivery queue.
public struct HookAccepted: Codable, Sendable, Equatable {
    public var id: Int64

    public init(id: Int64) {
        self.id = id
    }
}

/// The answer to opening a remote app's session: its id, for the session's other paths, and the
/// app's answer to `initialize`.
public struct RemoteSession: Codable, Sendable, Equatable {
    /// 1 to 64 of `A-Z`, `a-z`, `0-9`, `-` and `_`.
    public var session: String
    /// The app's answer to `initialize`, one protocol line (JSON-RPC), as the entry sent it.
    public var answer: String

    public init(session: String, answer: String) {
        self.session = session
        self.answer = answer
    }

    public static func isValidID(_ id: String) -> Bool {
        (1...64).contains(id.utf8.count) && id.utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
        }
    }
}
