import Foundation
import Synchronization

/// Where a program an app runs really is, for its sandbox: the real file behind symlinks, the
/// interpreter a script's `#!` line names, the installation an interpreter outside the system lives
/// in, and the interpreter behind a version manager's shim (pyenv, rbenv, nodenv: a script in
/// `~/.pyenv/shims` that picks an installation at each run, by running the manager from HOME).
/// The sandbox then allows that installation, not HOME.
struct ProgramLookup: Sendable {
    /// What running a program takes.
    struct Found: Hashable, Sendable {
        /// The file to exec: the program, or the interpreter its shim chose.
        var program: String
        /// Real paths of what it runs: the program, its script's interpreter.
        var executables: [String] = []
        /// Installation folders of interpreters outside the system.
        var installations: [String] = []
        /// Folders of interpreters chosen for shims, to put first in `PATH`: a script's
        /// `env python3` (and the app's own children) then find the same interpreter.
        var searchFirst: [String] = []
    }

    let environment: [String: String]
    let home: String
    /// Folders an installation may never be, nor hold: HOME and the folders where TermCanvas and
    /// other programs keep the user's data.
    let privateFolders: [String]

    init(environment: [String: String], home: String) {
        self.environment = environment
        self.home = home
        let variables = ["XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME", "XDG_RUNTIME_DIR"]
        privateFolders = [home] + ["/.config", "/.local/share", "/.local/state", "/.cache", "/.ssh"].map { home + $0 }
            + variables.compactMap { environment[$0] }.filter { $0.hasPrefix("/") }
    }

    /// Examines `program` (a path found in `PATH` or the app's folder), run from `directory`.
    func examine(_ program: String, directory: String) -> Found {
        let chosen = shimChoice(program, directory: directory)
        var found = Found(program: chosen ?? program)
        add(chosen ?? program, to: &found)
        if let chosen { found.searchFirst.append((chosen as NSString).deletingLastPathComponent) }
        if let interpreter = Self.scriptInterpreter(of: found.program) {
            add(interpreter.path, to: &found)
            if (interpreter.path as NSString).lastPathComponent == "env", let name = interpreter.argument,
               let named = try? AppLaunch.find(name, folder: URL(fileURLWithPath: directory), path: searchPath(found)) {
                let target = shimChoice(named, directory: directory)
                add(target ?? named, to: &found)
                if let target { found.searchFirst.append((target as NSString).deletingLastPathComponent) }
            }
        }
        return found
    }

    /// The `PATH` the app will see.
    func searchPath(_ found: Found) -> String {
        (found.searchFirst + [environment["PATH"] ?? AppLaunch.defaultPath]).joined(separator: ":")
    }

    private func add(_ path: String, to found: inout Found) {
        guard let real = Self.realPath(path) else { return }
        if !found.executables.contains(real) { found.executables.append(real) }
        if let installation = installation(of: real), !found.installations.contains(installation) {
            found.installations.append(installation)
        }
    }

    /// The folder an interpreter outside the system is installed in (`…/3.11.7` for
    /// `…/3.11.7/bin/python3.11`), unless that would be or hold one of the user's private folders.
    func installation(of real: String) -> String? {
        guard !SandboxPlan.isSystem(real) else { return nil }
        let parent = (real as NSString).deletingLastPathComponent
        let folder = (parent as NSString).lastPathComponent == "bin" ? (parent as NSString).deletingLastPathComponent : parent
        let holdsPrivate = privateFolders.contains { $0 == folder || $0.hasPrefix(folder + "/") } || folder == "/"
        return holdsPrivate ? nil : folder
    }

    /// For a version manager's shim (an executable script in a folder named `shims`), the program
    /// the manager chooses (`pyenv which python3`), asked once per shim and folder.
    private func shimChoice(_ program: String, directory: String) -> String? {
        let shims = (program as NSString).deletingLastPathComponent
        guard (shims as NSString).lastPathComponent == "shims", Self.scriptInterpreter(of: program) != nil else { return nil }
        let key = program + "\0" + directory
        if let known = Self.shimChoices.withLock({ $0[key] }) { return known }
        let root = (shims as NSString).deletingLastPathComponent
        let manager = String((root as NSString).lastPathComponent.drop { $0 == "." })
        let candidates: [String] = ["\(root)/libexec/\(manager)", "\(root)/bin/\(manager)"]
        let tool = candidates.first { candidate in access(candidate, X_OK) == 0 }
        // The shim sets its manager's root itself (PYENV_ROOT); so does this.
        let environment = environment.merging([manager.uppercased() + "_ROOT": root]) { $1 }
        guard let tool, let answer = Self.run(tool, ["which", (program as NSString).lastPathComponent], environment: environment,
                                              directory: directory),
              answer.hasPrefix("/"), access(answer, X_OK) == 0 else { return nil }
        Self.shimChoices.withLock { $0[key] = answer }
        return answer
    }

    private static let shimChoices = Mutex<[String: String]>([:])

    /// The first line a program prints, when it exits 0 within five seconds.
    private static func run(_ program: String, _ arguments: [String], environment: [String: String], directory: String) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        process.environment = environment
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        let timer = DispatchWorkItem { process.terminate() }
        DispatchQueue.global().asyncAfter(deadline: .now() + 5, execute: timer)
        let data = (try? output.fileHandleForReading.read(upToCount: 4096)) ?? nil
        process.waitUntilExit()
        timer.cancel()
        guard process.terminationStatus == 0, let data, let text = String(data: data, encoding: .utf8) else { return nil }
        return text.split(separator: "\n").first.map(String.init)
    }

    /// The interpreter and its first argument on a script's `#!` line.
    static func scriptInterpreter(of file: String) -> (path: String, argument: String?)? {
        guard let handle = FileHandle(forReadingAtPath: file) else { return nil }
        defer { try? handle.close() }
        guard let head = try? handle.read(upToCount: 256), head.starts(with: Array("#!".utf8)) else { return nil }
        let line = head.dropFirst(2).prefix { $0 != UInt8(ascii: "\n") }
        let words = String(decoding: line, as: UTF8.self).split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        guard let path = words.first, path.hasPrefix("/") else { return nil }
        return (path, words.dropFirst().first { !$0.hasPrefix("-") })
    }

    /// The path with every symlink followed; nil when it does not exist.
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
