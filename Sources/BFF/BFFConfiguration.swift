import Foundation

/// How to run the BFF: where it listens, where it keeps data, how it signs tokens.
public struct BFFConfiguration: Sendable {
    public var host: String
    /// The port to listen on; 0 lets the system choose (see `onServerRunning`).
    public var port: Int
    /// Holds `bff.sqlite` and, when no secret is given, the generated `jwt-secret` (mode 0600).
    public var dataDirectory: URL
    /// The HS256 signing secret; nil to use (or create) the one kept in `dataDirectory`.
    public var jwtSecret: String?
    /// How long an issued token stays valid.
    public var tokenLifetime: TimeInterval
    /// The bcrypt cost for new password hashes; tests lower it to keep hashing fast.
    public var bcryptCost: UInt8
    /// Called with the bound port once the server listens, so a caller that asked for port 0 learns it.
    public var onServerRunning: @Sendable (Int) async -> Void

    public init(
        host: String = "127.0.0.1",
        port: Int = 7450,
        dataDirectory: URL,
        jwtSecret: String? = nil,
        tokenLifetime: TimeInterval = 30 * 24 * 3600,
        bcryptCost: UInt8 = 12,
        onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) {
        self.host = host
        self.port = port
        self.dataDirectory = dataDirectory
        self.jwtSecret = jwtSecret
        self.tokenLifetime = tokenLifetime
        self.bcryptCost = bcryptCost
        self.onServerRunning = onServerRunning
    }

    /// The database file inside `dataDirectory`.
    public var databaseURL: URL { dataDirectory.appendingPathComponent("bff.sqlite") }
}
