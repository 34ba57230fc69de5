/// What a package asks to be granted, as its registry page shows it: the bus events it publishes
/// and hears, the server paths it calls, whether it keeps state, and what of the user's machine it
/// touches. The server reads it from the package's own `app.yaml`, never from the publisher's say.
public struct PackagePermissions: Codable, Sendable, Equatable {
    public var publish: [String]
    public var subscribe: [String]
    public var http: [String]
    public var state: Bool
    /// Folders or files it reads.
    public var read: [String]
    /// Folders or files it reads and writes.
    public var write: [String]
    /// TCP ports it connects to.
    public var connect: [Int]
    /// Programs outside the system it runs.
    public var run: [String]

    public init(publish: [String] = [], subscribe: [String] = [], http: [String] = [], state: Bool = false, read: [String] = [],
                write: [String] = [], connect: [Int] = [], run: [String] = []) {
        self.publish = publish
        self.subscribe = subscribe
        self.http = http
        self.state = state
        self.read = read
        self.write = write
        self.connect = connect
        self.run = run
    }

    /// What these ask for that `earlier` did not: empty when a new version asks for nothing more.
    public func added(since earlier: PackagePermissions) -> PackagePermissions {
        func new<T: Equatable>(_ mine: [T], _ theirs: [T]) -> [T] { mine.filter { !theirs.contains($0) } }
        return PackagePermissions(publish: new(publish, earlier.publish), subscribe: new(subscribe, earlier.subscribe),
                                  http: new(http, earlier.http), state: state && !earlier.state, read: new(read, earlier.read),
                                  write: new(write, earlier.write), connect: new(connect, earlier.connect), run: new(run, earlier.run))
    }

    public var isEmpty: Bool { self == PackagePermissions() }
}

/// The bounds of packages: what one archive may hold, and what one publisher may keep on a server.
public enum PackageLimits {
    /// The most bytes of a package's archive (what `apps publish` sends and `apps install` gets).
    public static let archiveBytes = 2 * 1024 * 1024
    /// The most files in a package.
    public static let files = 256
    /// The longest path of a file in a package, in bytes (a tar header's name field).
    public static let pathBytes = 100
    /// The most parts of such a path.
    public static let depth = 8
    /// The most package versions one publisher keeps on a server (withdrawn ones count: they stay).
    public static let versionsPerPublisher = 200
    /// The most bytes of archives one publisher keeps on a server.
    public static let bytesPerPublisher = 64 * 1024 * 1024
}

/// One version of a package on its registry page: what `apps install` shows before it asks, and
/// checks after it downloads.
public struct PackageVersion: Codable, Sendable, Equatable {
    /// SHA-256 of the archive's bytes (its canonical form), lower-case hex.
    public var digest: String
    /// The archive's bytes.
    public var size: Int
    public var permissions: PackagePermissions

    public init(digest: String, size: Int, permissions: PackagePermissions) {
        self.digest = digest
        self.size = size
        self.permissions = permissions
    }
}

/// An admin's grant that lets a user publish versions of one package (`PUT
/// /api/registry/apps/{id}/publishers/{user}`), so a team can own its app.
public struct PackagePublisher: Codable, Sendable, Equatable {
    public var user: String
    /// The admin who made them a publisher.
    public var grantedBy: String
    /// ISO 8601 UTC.
    public var grantedAt: String

    public init(user: String, grantedBy: String, grantedAt: String) {
        self.user = user
        self.grantedBy = grantedBy
        self.grantedAt = grantedAt
    }
}

/// A package suggested to a user (`GET /api/registry/suggestions`), from counts only: on how many
/// canvases shared with them it has a pane, and how many of their teammates installed it. No one
/// learns who installed what.
public struct AppSuggestion: Codable, Sendable, Equatable {
    public var app: MicroAppInfo
    /// Canvases shared with the user (not their own) with a pane of it.
    public var sharedCanvases: Int
    /// Other users of this server who installed it.
    public var teammateInstalls: Int

    public init(app: MicroAppInfo, sharedCanvases: Int, teammateInstalls: Int) {
        self.app = app
        self.sharedCanvases = sharedCanvases
        self.teammateInstalls = teammateInstalls
    }

    /// Why, in words: `on 2 canvases shared with you; installed by 3 teammates`.
    public var reason: String {
        var reasons: [String] = []
        if sharedCanvases > 0 { reasons.append("on \(sharedCanvases) canvas\(sharedCanvases == 1 ? "" : "es") shared with you") }
        if teammateInstalls > 0 { reasons.append("installed by \(teammateInstalls) teammate\(teammateInstalls == 1 ? "" : "s")") }
        return reasons.joined(separator: "; ")
    }

    /// The most suggestions one answer holds.
    public static let maximum = 20
}
