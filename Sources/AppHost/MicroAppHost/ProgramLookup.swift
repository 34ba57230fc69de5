import CSpawn
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import PlainText

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
        /// The paths it was named by on the way (a shim's choice, a `#!` line's interpreter), as
        /// written: none may mean another file in each process.
        var named: [String] = []
    }

    /// A version manager whose shims are resolved: its root's variable, its default root in HOME.
    private struct Manager {
        let tool: String
        let folder: String
        /// `PYENV`: `PYENV_ROOT` is its root, `PYENV_DIR` where it looks for a version file.
        let prefix: String
    }

    private static let managers = [Manager(tool: "pyenv", folder: ".pyenv", prefix: "PYENV"),
                                   Manager(tool: "rbenv", folder: ".rbenv", prefix: "RBENV"),
                                   Manager(tool: "nodenv", folder: ".nodenv", prefix: "NODENV")]
    /// Where an installation outside HOME may be: beneath these (the system's own need none).
    private static let installationFolders = ["/opt/", "/nix/store/"]

    let environment: [String: String]
    let home: String
    /// Folders an installation may never be, hold or be in: HOME and the folders where TermCanvas
    /// and other programs keep the user's data.
    let privateFolders: [String]

    init(environment: [String: String], home: String) {
        self.environment = environment
        self.home = home
        let variables = ["XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME", "XDG_RUNTIME_DIR"]
        privateFolders = [home] + ["/.config", "/.local", "/.cache", "/.ssh", "/.gnupg"].map { home + $0 }
            + variables.compactMap { environment[$0] }.filter { $0.hasPrefix("/") && $0 != "/" }
    }

    /// Examines `program`, run from `directory`; `fromPath` when it was a bare name found in
    /// `PATH` (only then may it be a version manager's shim: a script in the app's own folder is
    /// never run outside the sandbox).
    func examine(_ program: String, fromPath: Bool, directory: String) -> Found {
        let chosen = fromPath ? shimChoice(program, directory: directory) : nil
        var found = Found(program: chosen ?? program)
        add(chosen ?? program, to: &found)
        if let chosen {
            found.searchFirst.append(FilePaths.parent(of: chosen))
            found.named.append(chosen)
        }
        if let interpreter = Self.scriptInterpreter(of: found.program) {
            found.named.append(interpreter.path)
            add(interpreter.path, to: &found)
            if FilePaths.lastComponent(of: interpreter.path) == "env", let name = interpreter.argument, !name.contains("/"),
               let named = try? AppLaunch.find(name, folder: URL(fileURLWithPath: directory), path: searchPath(found)) {
                let target = shimChoice(named, directory: directory)
                add(target ?? named, to: &found)
                if let target { found.searchFirst.append(FilePaths.parent(of: target)) }
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

    /// The folder an interpreter is installed in (`~/.pyenv/versions/3.11.7` for
    /// `…/3.11.7/bin/python3.11`), for one outside the system: a version manager's (a folder of
    /// `versions`), or one beneath `/opt` or `/nix/store`; never one that is, holds or is in a
    /// private folder. Otherwise nil: the program file alone is allowed.
    func installation(of real: String) -> String? {
        guard !SandboxPlan.isSystem(real) else { return nil }
        let parent = FilePaths.parent(of: real)
        let folder = FilePaths.lastComponent(of: parent) == "bin" ? FilePaths.parent(of: parent) : parent
        let holdsPrivate = privateFolders.contains { $0 == folder || $0.hasPrefix(folder + "/") }
        let inPrivate = privateFolders.contains { $0 != home && folder.hasPrefix($0 + "/") }
        let upper = FilePaths.parent(of: folder)
        let isVersion = [upper, FilePaths.parent(of: upper)].contains { FilePaths.lastComponent(of: $0) == "versions" }
        let allowed = isVersion || Self.installationFolders.contains { folder.hasPrefix($0) }
        return allowed && !holdsPrivate && !inPrivate ? folder : nil
    }

    /// For a version manager's shim (an executable script in its root's `shims`), the program the
    /// manager chooses (`pyenv which python3`), asked once per shim and folder.
    private func shimChoice(_ program: String, directory: String) -> String? {
        let shims = FilePaths.parent(of: program)
        let root = FilePaths.parent(of: shims)
        guard FilePaths.lastComponent(of: shims) == "shims", Self.scriptInterpreter(of: program) != nil,
              let manager = Self.managers.first(where: { root == environment[$0.prefix + "_ROOT"] || root == "\(home)/\($0.folder)" })
        else { return nil }
        let key = program + "\0" + directory
        if let known = Self.shimChoices.withLock({ $0[key] }) { return known }
        let candidates = ["\(root)/libexec/\(manager.tool)", "\(root)/bin/\(manager.tool)"]
        let tool = candidates.first { candidate in faccessat(AT_FDCWD, candidate, X_OK, AT_EACCESS) == 0 }
        // The shim sets its manager's root itself (PYENV_ROOT); so does this, and where the app
        // runs, for a version file there (PYENV_DIR).
        let toolEnvironment = environment.merging([manager.prefix + "_ROOT": root, manager.prefix + "_DIR": directory]) { $1 }
        guard let tool, let answer = Self.firstLine(of: tool, ["which", FilePaths.lastComponent(of: program)], environment: toolEnvironment),
              answer.hasPrefix("/"), faccessat(AT_FDCWD, answer, X_OK, AT_EACCESS) == 0 else { return nil }
        Self.shimChoices.withLock { $0[key] = answer }
        return answer
    }

    private static let shimChoices = Mutex<[String: String]>([:])

    /// The first line a program prints, when it exits 0 within five seconds (past them it is
    /// killed, and whatever it started that still holds its output is not waited for). Spawned
    /// and waited for with system calls only: no run loop, no process monitor of Foundation's.
    private static func firstLine(of program: String, _ arguments: [String], environment: [String: String]) -> String? {
        var pipe: [Int32] = [0, 0]
        guard tc_pipe(&pipe) == 0 else { return nil }
        defer { close(pipe[0]) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, pipe[1], 1)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        tc_spawn_close_from(&actions, 3)
        let argv: [UnsafeMutablePointer<CChar>?] = ([program] + arguments).map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var child: pid_t = 0
        let spawned = posix_spawn(&child, program, &actions, nil, argv, envp)
        close(pipe[1])
        guard spawned == 0 else { return nil }
        let deadline = ContinuousClock.now + .seconds(5)
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1024)
        while bytes.count < 4096, !bytes.contains(UInt8(ascii: "\n")) {
            let left = deadline - ContinuousClock.now
            var poller = pollfd(fd: pipe[0], events: Int16(POLLIN), revents: 0)
            guard left > .zero, poll(&poller, 1, Int32(left.components.seconds * 1000 + 1)) > 0 else { break }
            let count = read(pipe[0], &chunk, chunk.count)
            guard count > 0 else { break }
            bytes += chunk.prefix(count)
        }
        var status: Int32 = 0
        while waitpid(child, &status, WNOHANG) == 0 {
            guard ContinuousClock.now < deadline else {
                kill(child, SIGKILL)
                waitpid(child, &status, 0)
                return nil
            }
            usleep(2_000)
        }
        // Exited normally with status 0.
        guard status & 0x7F == 0, (status >> 8) & 0xFF == 0 else { return nil }
        return String(decoding: bytes, as: UTF8.self).split(separator: "\n").first.map(String.init)
    }

    /// The interpreter and its first argument on a script's `#!` line.
    static func scriptInterpreter(of file: String) -> (path: String, argument: String?)? {
        let fd = open(file, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var head = [UInt8](repeating: 0, count: 256)
        head.removeSubrange(max(0, read(fd, &head, head.count))...)
        guard head.starts(with: Array("#!".utf8)) else { return nil }
        let line = head.dropFirst(2).prefix { $0 != UInt8(ascii: "\n") }
        let words = String(decoding: line, as: UTF8.self).split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        guard let path = words.first, path.hasPrefix("/") else { return nil }
        return (path, words.dropFirst().first { !$0.hasPrefix("-") })
    }

    /// Whether `path` is beneath `/proc` or `/dev/fd` (and `/dev/stdin`, …): such a path is
    /// resolved by each process for itself, so the file the dashboard found is not the one the
    /// app would run (`/proc/self/cwd/x` is the dashboard's folder here, the app's there).
    static func meansAnotherFileInEachProcess(_ path: String) -> Bool {
        let standard = URL(fileURLWithPath: path).standardizedFileURL.path
        return ["/proc", "/dev/fd", "/dev/stdin", "/dev/stdout", "/dev/stderr"].contains { standard == $0 || standard.hasPrefix($0 + "/") }
    }

    /// Whether `path` is a regular file this user may execute (not a folder: a `run` entry is a
    /// program, never a tree of files to read).
    static func isProgramFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG && faccessat(AT_FDCWD, path, X_OK, AT_EACCESS) == 0
    }

    /// The path with every symlink followed; nil when it does not exist.
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
