import MicroAppProtocol
import PlainText

/// What the kernel lets one app process touch: folders and files with their rights, and TCP ports.
/// A value, made from the app's launch and grant (`SandboxPlan.make`) and applied by `PreparedSandbox`.
struct SandboxPlan: Hashable, Sendable {
    enum Access: Hashable, Sendable {
        /// Read files and list folders.
        case read
        /// Read, and run programs.
        case readExecute
        /// Read, write, create, remove and rename beneath (never run what is there).
        case readWrite
        /// A device anyone may read and write (`/dev/null`).
        case device
    }

    struct Rule: Hashable, Sendable {
        let path: String
        let access: Access
        /// Only the system's folders are followed through symlinks (`/lib` is `usr/lib`); every
        /// other path is a real path, refused should a link have taken a part of it since.
        var followsLinks = false
    }

    var rules: [Rule]
    /// TCP ports it may connect to; any one also lets it open IPv4, IPv6 and netlink sockets (name
    /// lookups need UDP, which Landlock does not filter).
    var connectPorts: [Int]
    /// The run's temporary folder (its `TMPDIR`, a real path), added as it starts: read and written;
    /// in a world of its own, a tmpfs of `temporaryBytes`, so that what the app keeps there is
    /// counted whole, files it unlinked while open included.
    var temporary: String?
    var temporaryBytes = 0
    /// Folders made inside the temporary folder (a trial run's HOME and data folder).
    var madeInTemporary: [String] = []
    /// HOME: in a world of its own, an empty folder where the user's is (with the grants in it).
    var home: String?

    /// The system every app reads and runs: programs, libraries, and `/etc`'s settings.
    static let system: [Rule] = ["/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"]
        .map { Rule(path: $0, access: .readExecute, followsLinks: true) } + [Rule(path: "/etc", access: .read, followsLinks: true)]
    static let devices: [Rule] = [Rule(path: "/dev/null", access: .device, followsLinks: true),
                                  Rule(path: "/dev/zero", access: .read, followsLinks: true),
                                  Rule(path: "/dev/random", access: .read, followsLinks: true),
                                  Rule(path: "/dev/urandom", access: .read, followsLinks: true)]

    /// The plan for an app.
    /// - Parameters:
    ///   - programs: Files it runs beyond the system's: its program, the interpreter a script
    ///     names, the programs of its `run` grant (real paths).
    ///   - installations: Folders an interpreter it runs is installed in, outside the system.
    ///   - folder: Its own folder, which it reads and runs.
    ///   - files: The files and folders of its grant, real paths with what each may do.
    static func make(programs: [String], installations: [String], folder: String, files: [Rule], connect: [Int]) -> SandboxPlan {
        var rules = system + devices
        rules += installations.map { Rule(path: $0, access: .readExecute) }
        rules += programs.map { Rule(path: $0, access: .readExecute) }
        rules.append(Rule(path: folder, access: .readExecute))
        rules += files
        var seen: Set<Rule> = []
        return SandboxPlan(rules: rules.filter { seen.insert($0).inserted }, connectPorts: Array(Set(connect)).sorted())
    }

    /// The plan with the run's own folders, real paths, made as it starts: its temporary folder of
    /// `bytes` (its `TMPDIR`, and for a trial run its `HOME` and data folder inside it) and its data
    /// folder.
    func adding(temporary: String, bytes: Int, madeInside: [String] = [], data: String?) -> SandboxPlan {
        var plan = self
        plan.rules += ([temporary] + (data.map { [$0] } ?? [])).map { Rule(path: $0, access: .readWrite) }
        plan.temporary = temporary
        plan.temporaryBytes = bytes
        plan.madeInTemporary = madeInside
        return plan
    }

    /// One piece of the app's world, at the same path inside as outside.
    struct ViewEntry: Hashable, Sendable {
        enum Kind: Hashable, Sendable {
            /// A system folder, read-only; a symlink (`/bin` to `usr/bin`) is made again as one.
            case system
            case read
            case write
            case device
            /// A tmpfs of its own, of this many bytes.
            case tmpfs(bytes: Int)
            /// The `/proc` of its own PID namespace.
            case proc
            /// An empty folder.
            case folder
        }

        let kind: Kind
        let path: String
    }

    /// The app's world as the kernel is to build it: its own `/proc`, the system read-only, the
    /// devices, its temporary folder as a tmpfs of its own (its `/tmp` too: the tmpfs is there when
    /// the folder is in `/tmp`, else the world's `/tmp` links to it), an empty HOME, then each
    /// granted path at its real path; parents before what is in them, so that a path granted
    /// inside another is seen with its own rights.
    var view: [ViewEntry] {
        var entries = [ViewEntry(kind: .proc, path: "/proc")]
        if let temporary {
            let inTmp = FilePaths.parent(of: temporary) == "/tmp"
            entries.append(ViewEntry(kind: .tmpfs(bytes: temporaryBytes), path: inTmp ? "/tmp" : temporary))
            if inTmp { entries.append(ViewEntry(kind: .folder, path: temporary)) }
            entries += madeInTemporary.map { ViewEntry(kind: .folder, path: $0) }
        }
        if let home { entries.append(ViewEntry(kind: .folder, path: home)) }
        for rule in rules where rule.path != temporary {
            let kind: ViewEntry.Kind = switch rule.access {
            case .device: .device
            case .readWrite: .write
            case .read, .readExecute: rule.followsLinks ? .system : .read
            }
            entries.append(ViewEntry(kind: kind, path: rule.path))
        }
        // Stable: at one depth, what came first (its own /proc before a granted /proc) stays first.
        return entries.enumerated().sorted { left, right in
            let depths = (Self.depth(left.element.path), Self.depth(right.element.path))
            return depths.0 != depths.1 ? depths.0 < depths.1 : left.offset < right.offset
        }.map(\.element)
    }

    private static func depth(_ path: String) -> Int {
        path.split(separator: "/").count
    }

    /// Whether `path` is one of the system's folders, or beneath one.
    static func isSystem(_ path: String) -> Bool {
        (system + devices).contains { path == $0.path || path.hasPrefix($0.path + "/") }
    }
}
