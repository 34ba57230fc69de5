/// What a package asks to be granted, as its registry page shows it: the bus events it publishes
/// and hears, the server paths it calls, whether it keeps state, what of the user's machine it
/// touches, the variables of the user's environment it sees, the folder it runs in and the
/// limits it runs within. The server reads it from the package's own `app.yaml`, never from the
/// publisher's say. It is the one list every question about an app is made from (its page, the
/// grant prompt, `apps install`'s question, `apps update`'s diff): a manifest field that gives an
/// app anything is in it (`ManifestCapabilityTests` holds that).
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
    /// Variables of the user's environment it sees (`env:`), beyond the basic ones.
    public var env: [String]
    /// The folder it runs in (`workdir:`), when not its own.
    public var workdir: String?
    /// The limits it asks to run within; nil on a page of a server older than them.
    public var limits: PackageResources?

    public init(publish: [String] = [], subscribe: [String] = [], http: [String] = [], state: Bool = false, read: [String] = [],
                write: [String] = [], connect: [Int] = [], run: [String] = [], env: [String] = [], workdir: String? = nil,
                limits: PackageResources? = nil) {
        self.publish = publish
        self.subscribe = subscribe
        self.http = http
        self.state = state
        self.read = read
        self.write = write
        self.connect = connect
        self.run = run
        self.env = env
        self.workdir = workdir
        self.limits = limits
    }

    /// Reads a page of a server older than `env`, `workdir` and `limits` too.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(publish: try container.decode([String].self, forKey: .publish), subscribe: try container.decode([String].self, forKey: .subscribe),
                  http: try container.decode([String].self, forKey: .http), state: try container.decode(Bool.self, forKey: .state),
                  read: try container.decode([String].self, forKey: .read), write: try container.decode([String].self, forKey: .write),
                  connect: try container.decode([Int].self, forKey: .connect), run: try container.decode([String].self, forKey: .run),
                  env: try container.decodeIfPresent([String].self, forKey: .env) ?? [],
                  workdir: try container.decodeIfPresent(String.self, forKey: .workdir),
                  limits: try container.decodeIfPresent(PackageResources.self, forKey: .limits))
    }

    /// What these ask for that `earlier` did not: empty when a new version asks for nothing more.
    /// A limit counts when any of its bounds is larger; a folder to run in when it changed.
    public func added(since earlier: PackagePermissions) -> PackagePermissions {
        func new<T: Equatable>(_ mine: [T], _ theirs: [T]) -> [T] { mine.filter { !theirs.contains($0) } }
        let moreLimits = limits.flatMap { mine in earlier.limits.map { mine.exceeds($0) } ?? true ? mine : nil }
        return PackagePermissions(publish: new(publish, earlier.publish), subscribe: new(subscribe, earlier.subscribe),
                                  http: new(http, earlier.http), state: state && !earlier.state, read: new(read, earlier.read),
                                  write: new(write, earlier.write), connect: new(connect, earlier.connect), run: new(run, earlier.run),
                                  env: new(env, earlier.env), workdir: workdir == earlier.workdir ? nil : workdir, limits: moreLimits)
    }

    public var isEmpty: Bool { self == PackagePermissions() }
}

/// The limits a package asks to run within (its `app.yaml`'s `limits:`), as its page carries them.
public struct PackageResources: Codable, Sendable, Equatable {
    public var memoryBytes: Int
    public var processes: Int
    public var diskBytes: Int
    public var openFiles: Int
    /// CPU seconds in all; nil for none.
    public var cpuSeconds: Int?
    public var startupSeconds: Double
    public var publishesPerSecond: Int
    public var stateBytes: Int
    public var logBytes: Int

    public init(memoryBytes: Int, processes: Int, diskBytes: Int, openFiles: Int, cpuSeconds: Int?, startupSeconds: Double,
                publishesPerSecond: Int, stateBytes: Int, logBytes: Int) {
        self.memoryBytes = memoryBytes
        self.processes = processes
        self.diskBytes = diskBytes
        self.openFiles = openFiles
        self.cpuSeconds = cpuSeconds
        self.startupSeconds = startupSeconds
        self.publishesPerSecond = publishesPerSecond
        self.stateBytes = stateBytes
        self.logBytes = logBytes
    }

    /// Whether any bound is larger than `earlier`'s (no CPU limit is larger than any).
    public func exceeds(_ earlier: PackageResources) -> Bool {
        memoryBytes > earlier.memoryBytes || processes > earlier.processes || diskBytes > earlier.diskBytes
            || openFiles > earlier.openFiles || startupSeconds > earlier.startupSeconds || publishesPerSecond > earlier.publishesPerSecond
            || stateBytes > earlier.stateBytes || logBytes > earlier.logBytes
            || (earlier.cpuSeconds.map { mine in cpuSeconds.map { $0 > mine } ?? true } ?? false)
    }
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
    /// Its publisher's signature; nil for a version published before packages were signed.
    public var signature: PackageSignature?

    public init(digest: String, size: Int, permissions: PackagePermissions, signature: PackageSignature? = nil) {
        self.digest = digest
        self.size = size
        self.permissions = permissions
        self.signature = signature
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
