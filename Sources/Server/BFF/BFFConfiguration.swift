import CanvasCore
import Foundation
import ServerHTTP
import ServerProxy
import ServerSSO
import ServerStore

/// How to run the BFF: where it listens, which apps it hosts, where it keeps data, how it signs
/// tokens and how hard it limits clients.
package struct BFFConfiguration: Sendable {
    package var host: String
    /// The port to listen on; 0 lets the system choose (see `onServerRunning`).
    package var port: Int
    /// When set, listen on this unix socket instead of `host`/`port` (the embedded local server).
    package var unixSocketPath: String?
    /// The micro-apps to host: their routes, registry entries and events.
    package var apps: Set<ServerApp>
    /// Holds `bff.sqlite` and, when no secret is given, the generated `jwt-secret` (mode 0600).
    package var dataDirectory: URL
    /// Where the data is kept; nil for `bff.sqlite` in `dataDirectory`. On PostgreSQL the signing
    /// secret, when none is given, is kept in the database for every instance.
    package var database: DatabaseLocation?
    /// The most connections to PostgreSQL this instance opens (one of them listens for live events).
    package var databaseConnections: Int
    /// Bring an older PostgreSQL schema up to date at start; without it an instance waits until
    /// `termcanvas-bff migrate` has.
    package var migrateDatabase: Bool
    /// The HS256 signing secret; nil to use (or create) the one kept in `dataDirectory`.
    package var jwtSecret: String?
    /// How long an issued token stays valid.
    package var tokenLifetime: TimeInterval
    /// The time tokens are issued and checked at; tests move it on instead of waiting.
    package var clock: @Sendable () -> Date = { Date() }
    /// How long a user found by a token is trusted without asking the database again (see
    /// `RecentUsers`): a user deleted by another process loses access within it.
    package var userRecheck: Duration = .seconds(1)
    /// The bcrypt cost for new password hashes; tests lower it to keep hashing fast.
    package var bcryptCost: UInt8
    package var rateLimits: RateLimits
    /// Connections, live streams and idle time: what no client, logged in or not, may exceed.
    package var limits: ServerLimits
    /// Reverse proxies in front of the server, by address or network: their `X-Forwarded-For` names
    /// the client for per-address limits, and their connections count against the total only.
    package var trustedProxies: TrustedProxies
    /// Serve HTTPS with this certificate and key instead of plain HTTP.
    package var tls: TLSFiles?
    /// Sign users in through this OpenID Connect provider too (or only, without passwords).
    package var singleSignOn: SingleSignOnSettings?
    /// How often an idle live event stream gets a keep-alive comment.
    package var heartbeatInterval: Duration
    /// How often the health of each remote micro-app's entry is checked (also on demand, at each
    /// publish, and when a proxied call finds it unreachable).
    package var healthInterval: Duration
    /// Networks a remote app's entry may be in beyond the public internet (loopback, private
    /// ranges); see `EntryNetworkPolicy`.
    package var allowedEntryNetworks: [IPNetwork]
    /// Whether an entry may be plain `http://` on an address that is not loopback.
    package var allowsHTTPEntries: Bool
    /// The embedded local server's own account, whose token it publishes at start; nil for a
    /// team server.
    package var localAccount: LocalAccount?
    /// Where the server records its requests and open streams (see `IdleExitService`).
    package var activity: ServerActivity
    /// Called with the bound port (0 on a unix socket) once the server listens, so a caller that
    /// asked for port 0 learns it.
    package var onServerRunning: @Sendable (Int) async -> Void
    /// Called while the server waits for `termcanvas-bff migrate` to bring the database's schema
    /// up to date, with what it waits for.
    package var onWaitingForSchema: @Sendable (String) -> Void

    package init(
        host: String = "127.0.0.1",
        port: Int = 7450,
        unixSocketPath: String? = nil,
        apps: Set<ServerApp> = Set(ServerApp.allCases),
        dataDirectory: URL,
        database: DatabaseLocation? = nil,
        databaseConnections: Int = 20,
        migrateDatabase: Bool = false,
        jwtSecret: String? = nil,
        tokenLifetime: TimeInterval = 30 * 24 * 3600,
        bcryptCost: UInt8 = 12,
        rateLimits: RateLimits = RateLimits(),
        limits: ServerLimits = ServerLimits(),
        trustedProxies: TrustedProxies = .none,
        tls: TLSFiles? = nil,
        singleSignOn: SingleSignOnSettings? = nil,
        heartbeatInterval: Duration = .seconds(25),
        healthInterval: Duration = .seconds(10),
        allowedEntryNetworks: [IPNetwork] = [],
        allowsHTTPEntries: Bool = false,
        localAccount: LocalAccount? = nil,
        activity: ServerActivity = ServerActivity(),
        onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in },
        onWaitingForSchema: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.host = host
        self.port = port
        self.unixSocketPath = unixSocketPath
        self.apps = apps
        self.dataDirectory = dataDirectory
        self.database = database
        self.databaseConnections = databaseConnections
        self.migrateDatabase = migrateDatabase
        self.jwtSecret = jwtSecret
        self.tokenLifetime = tokenLifetime
        self.bcryptCost = bcryptCost
        self.rateLimits = rateLimits
        self.limits = limits
        self.trustedProxies = trustedProxies
        self.tls = tls
        self.singleSignOn = singleSignOn
        self.heartbeatInterval = heartbeatInterval
        self.healthInterval = healthInterval
        self.allowedEntryNetworks = allowedEntryNetworks
        self.allowsHTTPEntries = allowsHTTPEntries
        self.localAccount = localAccount
        self.activity = activity
        self.onServerRunning = onServerRunning
        self.onWaitingForSchema = onWaitingForSchema
    }

    /// The database file inside `dataDirectory`.
    package var databaseURL: URL { dataDirectory.appendingPathComponent("bff.sqlite") }

    /// Where the data is kept, the default filled in.
    package var databaseLocation: DatabaseLocation { database ?? .sqlite(databaseURL) }

    /// The addresses entries may have: loopback ones only when this server itself listens on
    /// loopback (or a unix socket), or inside `allowedEntryNetworks`.
    var entryNetworkPolicy: EntryNetworkPolicy {
        let listensOnLoopback = unixSocketPath != nil || host == "localhost"
            || IPAddress(host).map { EntryNetworkPolicy.kind(of: $0.unmapped) == .loopback } == true
        return EntryNetworkPolicy(allowedNetworks: allowedEntryNetworks, allowsLoopback: listensOnLoopback,
                                  allowsPlainHTTP: allowsHTTPEntries)
    }
}

/// The bounds of what clients hold on the server, whoever they are (rate limits aside).
package struct ServerLimits: Sendable, Equatable {
    package var connections: ConnectionLimits
    package var streams: LiveEventHub.StreamLimits
    /// A connection with no request in progress, or whose request head or body stalls, is closed
    /// after this long: half-sent headers cannot hold connections. Live streams are not idle.
    package var idleTimeout: Duration
    /// A remote app's session whose stream was never opened (its client went away) is ended at
    /// its entry after this long, so it cannot hold one of the user's places.
    package var unstreamedSessionLifetime: Duration

    package init(connections: ConnectionLimits = ConnectionLimits(), streams: LiveEventHub.StreamLimits = LiveEventHub.StreamLimits(),
                idleTimeout: Duration = .seconds(15), unstreamedSessionLifetime: Duration = .seconds(30)) {
        self.connections = connections
        self.streams = streams
        self.idleTimeout = idleTimeout
        self.unstreamedSessionLifetime = unstreamedSessionLifetime
    }
}

/// A server certificate (chain) and its private key, as PEM files.
package struct TLSFiles: Sendable, Equatable {
    package var certificate: String
    package var privateKey: String

    package init(certificate: String, privateKey: String) {
        self.certificate = certificate
        self.privateKey = privateKey
    }
}
