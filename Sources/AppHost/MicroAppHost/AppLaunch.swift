import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import MicroAppProtocol
import PlainText

/// What an app's sandbox grants and where its own folders are, as the host decides it.
struct SandboxGrant: Sendable {
    /// What the user granted beyond the app's own folders (none for a trial run).
    let access: MachineAccess
    /// Its private data folder, kept between runs; nil for a trial run, whose HOME and data folder
    /// are fresh folders inside its temporary folder.
    let dataFolder: URL?

    /// Its limits when the host sets them, not its manifest (a trial run's).
    var limits: AppManifest.Limits?

    /// A generated app's trial run: nothing of the user's, and the host's limits.
    static let trial = SandboxGrant(access: .none, dataFolder: nil, limits: .trial)
}

/// How to start one micro-app process: the program found, its arguments, the environment it may
/// see, where it runs, its limits and its sandbox. Built from a manifest and a grant; pure apart
/// from looking up the program and the granted paths.
struct AppLaunch: Sendable {
    let program: String
    let arguments: [String]
    let environment: [String: String]
    let directory: String
    let limits: AppManifest.Limits
    /// What the kernel lets it touch; the run's temporary folder is added when it starts.
    let sandbox: SandboxPlan
    let dataFolder: URL?
    /// Where its temporary folder is made (the dashboard's `TMPDIR`).
    let temporaryBase: String
    /// Said in the app's log as it starts: grants that allow nothing (a path that does not exist).
    let notes: [String]

    /// Variables every app sees when the dashboard has them: enough to find programs, read text
    /// and tell the time. Nothing else of the dashboard's environment is passed on; `TMPDIR` is
    /// the app's own.
    static let basicVariables = ["PATH", "HOME", "USER", "LOGNAME", "LANG", "LC_ALL", "LC_CTYPE", "TZ"]
    static let defaultPath = "/usr/local/bin:/usr/bin:/bin"
    /// The app's private data folder, in its environment.
    static let dataVariable = "TERMCANVAS_DATA_DIR"

    /// - Throws: `LaunchError` when the program cannot be found or run, or a granted path leads
    ///   elsewhere through a symlink.
    init(manifest: AppManifest, folder: URL, hostEnvironment: [String: String], extra: [String: String] = [:],
         grant: SandboxGrant) throws(LaunchError) {
        var environment: [String: String] = [:]
        for name in Self.basicVariables + manifest.environment { environment[name] = hostEnvironment[name] }
        if environment["PATH"] == nil { environment["PATH"] = Self.defaultPath }
        environment.merge(extra) { $1 }
        let home = hostEnvironment["HOME"] ?? "/"
        let directory = (manifest.workingDirectory.hasPrefix("/")
            ? URL(fileURLWithPath: manifest.workingDirectory) : folder.appendingPathComponent(manifest.workingDirectory)).standardizedFileURL.path
        let lookup = ProgramLookup(environment: hostEnvironment.merging(environment) { $1 }, home: home)
        let named = try Self.find(manifest.exec[0], folder: folder, path: environment["PATH"] ?? "")
        let found = lookup.examine(named, fromPath: !manifest.exec[0].contains("/"), directory: directory)
        for path in found.named where ProgramLookup.meansAnotherFileInEachProcess(path) {
            throw .selfRelative(path)
        }
        if !found.searchFirst.isEmpty { environment["PATH"] = lookup.searchPath(found) }
        if let data = grant.dataFolder { environment[Self.dataVariable] = data.path }
        var notes: [String] = []
        let files = try Self.files(grant.access, home: home, notes: &notes)
        var programs: [String] = []
        for entry in grant.access.run {
            let path = entry.contains("/") ? Self.expand(entry, home: home)
                : (try? Self.find(entry, folder: folder, path: environment["PATH"] ?? ""))
            if let path, ProgramLookup.meansAnotherFileInEachProcess(path) { throw .selfRelative(entry) }
            guard let path, let real = try Self.checked(entry, path: path, home: home) else {
                notes.append("run: \(entry) is not found; it cannot be run")
                continue
            }
            guard ProgramLookup.isProgramFile(real) else {
                notes.append("run: \(entry) is not a program (an executable file); it cannot be run")
                continue
            }
            programs.append(real)
        }
        self.program = found.program
        // A shim's choice is run by its own path: an interpreter finds its installation from it.
        self.arguments = [found.program == named ? manifest.exec[0] : found.program] + manifest.exec.dropFirst()
        self.environment = environment
        self.directory = directory
        self.limits = grant.limits ?? manifest.limits
        self.dataFolder = grant.dataFolder
        self.temporaryBase = hostEnvironment["TMPDIR"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? "/tmp"
        self.notes = notes
        // A resolver's settings kept outside /etc (systemd-resolved's stub file in /run).
        let resolver = grant.access.connect.isEmpty ? [] : [ProgramLookup.realPath("/etc/resolv.conf")].compactMap { $0 }
            .filter { !SandboxPlan.isSystem($0) }.map { SandboxPlan.Rule(path: $0, access: .read) }
        var sandbox = SandboxPlan.make(programs: found.executables + programs, installations: found.installations,
                                       folder: ProgramLookup.realPath(folder.path) ?? folder.path, files: files + resolver,
                                       connect: grant.access.connect)
        if home != "/" { sandbox.home = ProgramLookup.realPath(home) ?? home }
        self.sandbox = sandbox
    }

    /// The granted files and folders as rules, each by its real path.
    private static func files(_ access: MachineAccess, home: String, notes: inout [String]) throws(LaunchError) -> [SandboxPlan.Rule] {
        var rules: [SandboxPlan.Rule] = []
        for (entries, kind) in [(access.read, SandboxPlan.Access.read), (access.write, .readWrite)] {
            for entry in entries {
                guard let real = try checked(entry, path: expand(entry, home: home), home: home) else {
                    notes.append("\(entry) does not exist; the app cannot use it until it does (then restart it with r)")
                    continue
                }
                rules.append(SandboxPlan.Rule(path: real, access: kind))
            }
        }
        return rules
    }

    /// `~/x` as a path in `home`.
    static func expand(_ entry: String, home: String) -> String {
        entry.hasPrefix("~/") ? home + entry.dropFirst() : entry
    }

    /// The real path of a granted entry; nil when it does not exist.
    /// - Throws: `.grantEscapes` when a symlink on the way leads somewhere else: the user was asked
    ///   about `~/notes`, not about where it points.
    static func checked(_ entry: String, path: String, home: String) throws(LaunchError) -> String? {
        guard let real = ProgramLookup.realPath(path) else { return nil }
        let expected = entry.hasPrefix("~/") ? (ProgramLookup.realPath(home) ?? home) + entry.dropFirst() : path
        guard real == expected || !entry.contains("/") else { throw .grantEscapes(entry, real) }
        return real
    }

    /// A program named with a `/` is taken relative to the app's folder; a bare name is looked
    /// up in `PATH`, as a shell would, past folders beneath `/proc` or `/dev/fd`.
    /// - Throws: `.selfRelative` for a path that names a different file in each process.
    static func find(_ name: String, folder: URL, path: String) throws(LaunchError) -> String {
        if name.contains("/") {
            let file = name.hasPrefix("/") ? name : folder.appendingPathComponent(name).standardizedFileURL.path
            guard !ProgramLookup.meansAnotherFileInEachProcess(file) else { throw .selfRelative(file) }
            guard faccessat(AT_FDCWD, file, X_OK, AT_EACCESS) == 0 else { throw .notExecutable(file) }
            return file
        }
        for directory in path.split(separator: ":") where directory.hasPrefix("/")
            && !ProgramLookup.meansAnotherFileInEachProcess(String(directory)) {
            let file = "\(directory)/\(name)"
            if faccessat(AT_FDCWD, file, X_OK, AT_EACCESS) == 0 { return file }
        }
        throw .notFound(name)
    }
}

/// What a launch is made from, each time the app starts: so a program installed since the last
/// try (`r`) is found.
struct LaunchRecipe: Sendable {
    let manifest: AppManifest
    let folder: URL
    let hostEnvironment: [String: String]
    let extra: [String: String]
    let grant: SandboxGrant

    func make() throws(LaunchError) -> AppLaunch {
        if let version = manifest.protocolVersion, !version.canTalk(to: .current) {
            throw .protocolVersion(version)
        }
        return try AppLaunch(manifest: manifest, folder: folder, hostEnvironment: hostEnvironment, extra: extra, grant: grant)
    }
}

enum LaunchError: Error, Equatable, CustomStringConvertible {
    /// The manifest names a protocol this host does not speak.
    case protocolVersion(ProtocolVersion)
    case notFound(String)
    case notExecutable(String)
    /// A granted path (`~/notes`) is, or passes through, a symlink to somewhere else.
    case grantEscapes(String, String)
    /// A program named by a path that means another file in each process (`/proc/self/cwd/…`).
    case selfRelative(String)
    case failed(step: String, errno: Int32)

    var description: String {
        switch self {
        case .protocolVersion(let version): "it speaks protocol \(version); this TermCanvas speaks \(ProtocolVersion.current)"
        case .notFound(let name): "\(name) is not in PATH"
        case .notExecutable(let file): "\(file) is not an executable file"
        case .grantEscapes(let entry, let real):
            "its permission \(entry) leads to \(real) through a symlink; name the real folder in its app.yaml, then allow it again"
        case .selfRelative(let path):
            "\(path) names a different file in each process (it is beneath /proc or /dev/fd); name the program by its real path in its app.yaml or #! line"
        case .failed(let step, let error): "\(step): \(SystemErrorWords.describe(error))"
        }
    }
}
