import MicroAppProtocol

/// What the kernel lets one app process touch: folders and files with their rights, and TCP ports.
/// A value, made from the app's launch and grant (`SandboxPlan.make`) and applied by `Sandbox`.
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

    /// The plan with the run's own folders, real paths, made as it starts: its data folder and its
    /// temporary folder (its `TMPDIR`, and for a trial run its `HOME` and data folder too).
    func adding(writable folders: [String]) -> SandboxPlan {
        SandboxPlan(rules: rules + folders.map { Rule(path: $0, access: .readWrite) }, connectPorts: connectPorts)
    }

    /// Whether `path` is one of the system's folders, or beneath one.
    static func isSystem(_ path: String) -> Bool {
        (system + devices).contains { path == $0.path || path.hasPrefix($0.path + "/") }
    }
}
