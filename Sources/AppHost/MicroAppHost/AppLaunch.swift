import Foundation
import MicroAppProtocol

/// How to start one micro-app process: the program found, its arguments, the environment it may
/// see, where it runs and its limits. Built from a manifest; pure apart from looking up the program.
struct AppLaunch: Sendable {
    let program: String
    let arguments: [String]
    let environment: [String: String]
    let directory: String
    let limits: AppManifest.Limits

    /// Variables every app sees when the dashboard has them: enough to find programs, read text
    /// and tell the time. Nothing else of the dashboard's environment is passed on.
    static let basicVariables = ["PATH", "HOME", "USER", "LOGNAME", "LANG", "LC_ALL", "LC_CTYPE", "TZ", "TMPDIR"]

    /// - Throws: `LaunchError` when the program cannot be found or run.
    init(manifest: AppManifest, folder: URL, hostEnvironment: [String: String], extra: [String: String] = [:]) throws(LaunchError) {
        var environment: [String: String] = [:]
        for name in Self.basicVariables + manifest.environment { environment[name] = hostEnvironment[name] }
        if environment["PATH"] == nil { environment["PATH"] = "/usr/local/bin:/usr/bin:/bin" }
        environment.merge(extra) { $1 }
        let arguments = manifest.exec
        let directory = manifest.workingDirectory.hasPrefix("/")
            ? URL(fileURLWithPath: manifest.workingDirectory) : folder.appendingPathComponent(manifest.workingDirectory)
        self.program = try Self.find(arguments[0], folder: folder, path: environment["PATH"] ?? "")
        self.arguments = arguments
        self.environment = environment
        self.directory = directory.standardizedFileURL.path
        self.limits = manifest.limits
    }

    /// A program named with a `/` is taken relative to the app's folder; a bare name is looked
    /// up in `PATH`, as a shell would.
    static func find(_ name: String, folder: URL, path: String) throws(LaunchError) -> String {
        if name.contains("/") {
            let file = name.hasPrefix("/") ? name : folder.appendingPathComponent(name).standardizedFileURL.path
            guard access(file, X_OK) == 0 else { throw .notExecutable(file) }
            return file
        }
        for directory in path.split(separator: ":") where directory.hasPrefix("/") {
            let file = "\(directory)/\(name)"
            if access(file, X_OK) == 0 { return file }
        }
        throw .notFound(name)
    }

    var environmentLines: [String] { environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" } }
}

/// What a launch is made from, each time the app starts: so a program installed since the last
/// try (`r`) is found.
struct LaunchRecipe: Sendable {
    let manifest: AppManifest
    let folder: URL
    let hostEnvironment: [String: String]
    let extra: [String: String]

    func make() throws(LaunchError) -> AppLaunch {
        if let version = manifest.protocolVersion, !version.canTalk(to: .current) {
            throw .protocolVersion(version)
        }
        return try AppLaunch(manifest: manifest, folder: folder, hostEnvironment: hostEnvironment, extra: extra)
    }
}

enum LaunchError: Error, Equatable, CustomStringConvertible {
    /// The manifest names a protocol this host does not speak.
    case protocolVersion(ProtocolVersion)
    case notFound(String)
    case notExecutable(String)
    case failed(step: String, errno: Int32)

    var description: String {
        switch self {
        case .protocolVersion(let version): "it speaks protocol \(version); this TermCanvas speaks \(ProtocolVersion.current)"
        case .notFound(let name): "\(name) is not in PATH"
        case .notExecutable(let file): "\(file) is not an executable file"
        case .failed(let step, let error): "\(step): \(String(cString: strerror(error)))"
        }
    }
}
