import AppModel
import CanvasCore
import Foundation
import MicroAppHost
import MicroAppProtocol
import TestSupport
import Testing

/// The sandbox from inside: the fixture app `intruder` tries, as a real process, what an app from
/// elsewhere must not do, and shows the errno the kernel answered each attempt with.
@Suite("Sandboxed micro-apps: the kernel refuses what was not granted", .serialized)
struct SandboxAppTests {
    static let repository = AppHarness.fixtures.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// What an attacker wants, set up for real: a HOME with a private key and the local server's
    /// token, a unix socket and a TCP port listening, a process that is not the app's.
    final class Bait: @unchecked Sendable {
        let folder: URL
        let home: URL
        let key: URL
        let token: URL
        let socketPath: String
        let socketDescriptor: Int32
        let tcpDescriptor: Int32
        let port: Int
        /// A port that is not granted, listening.
        let otherDescriptor: Int32
        let otherPort: Int
        let sibling: Process
        /// A System V shared memory segment of the user's, and its key.
        let sharedMemory: Int32
        let sharedMemoryKey: Int32

        init(in parent: URL = FileManager.default.temporaryDirectory) throws {
            folder = parent.appendingPathComponent("tc-bait-\(UUID().uuidString.prefix(8))")
            home = folder.appendingPathComponent("home")
            for path in [".ssh", ".local/state/termcanvas/bff", "notes", "out"] {
                try FileManager.default.createDirectory(at: home.appendingPathComponent(path), withIntermediateDirectories: true)
            }
            key = home.appendingPathComponent(".ssh/id_ed25519")
            try Data("-----BEGIN OPENSSH PRIVATE KEY-----\nsecret\n".utf8).write(to: key)
            token = home.appendingPathComponent(".local/state/termcanvas/bff/token")
            try Data("local-server-token".utf8).write(to: token)
            try Data("my notes".utf8).write(to: home.appendingPathComponent("notes/a.txt"))
            socketPath = folder.appendingPathComponent("bff.sock").path
            socketDescriptor = try Self.listenUnix(socketPath)
            (tcpDescriptor, port) = try Self.listenTCP()
            (otherDescriptor, otherPort) = try Self.listenTCP()
            sharedMemoryKey = Int32.random(in: 0x1000_0000...0x7000_0000)
            sharedMemory = shmget(sharedMemoryKey, 4096, IPC_CREAT | 0o600)
            sibling = Process()
            sibling.executableURL = URL(fileURLWithPath: "/bin/sleep")
            sibling.arguments = ["60"]
            try sibling.run()
        }

        deinit {
            sibling.terminate()
            close(socketDescriptor)
            close(tcpDescriptor)
            close(otherDescriptor)
            shmctl(sharedMemory, IPC_RMID, nil)
            try? FileManager.default.removeItem(at: folder)
        }

        /// The app's environment: this HOME, and where each target is.
        func environment(reads: [String: String] = [:], writes: [String: String] = [:], runs: [String: String] = [:]) throws -> [String: String] {
            var environment = ProcessInfo.processInfo.environment
            environment["HOME"] = home.path
            let targets: [String: Any] = ["ssh": key.path, "token": token.path, "socket": socketPath, "port": port,
                                          "other_port": otherPort, "dashboard": Int(getpid()), "sibling": Int(sibling.processIdentifier),
                                          "shm_key": Int(sharedMemoryKey), "unlinked_files": 4, "unlinked_mib_each": 6,
                                          "granted_reads": reads, "granted_writes": writes, "granted_runs": runs]
            environment["INTRUDER_TARGETS"] = String(decoding: try JSONSerialization.data(withJSONObject: targets), as: UTF8.self)
            return environment
        }

        /// A copy of the intruder with `permissions` in its manifest, a disk limit of 8 MiB (its
        /// four unlinked files of 6 MiB pass it together) and a symlink to the key in its folder.
        func intruder(permissions: String = "") throws -> URL {
            let copy = folder.appendingPathComponent("intruder")
            try? FileManager.default.removeItem(at: copy)
            try FileManager.default.copyItem(at: AppHarness.fixtures.appendingPathComponent("intruder"), to: copy)
            try FileManager.default.createSymbolicLink(atPath: copy.appendingPathComponent("leak").path, withDestinationPath: key.path)
            let manifest = copy.appendingPathComponent("app.yaml")
            try Data((try String(contentsOf: manifest, encoding: .utf8) + "limits: { disk: 8MiB }\n" + permissions).utf8).write(to: manifest)
            return copy
        }

        private static func listenUnix(_ path: String) throws -> Int32 {
            let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { bytes in
                for (index, byte) in path.utf8.enumerated() where index < bytes.count - 1 { bytes[index] = byte }
            }
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
            guard descriptor >= 0, bound == 0, listen(descriptor, 8) == 0 else { throw POSIXError(.EADDRINUSE) }
            return descriptor
        }

        private static func listenTCP() throws -> (Int32, Int) {
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                    bind(descriptor, pointer, length) == 0 && listen(descriptor, 8) == 0 && getsockname(descriptor, pointer, &length) == 0
                }
            }
            guard descriptor >= 0, bound else { throw POSIXError(.EADDRINUSE) }
            return (descriptor, Int(UInt16(bigEndian: address.sin_port)))
        }
    }

    /// `name=result` pairs of the intruder's view.
    static func results(_ app: AppHarness) -> [String: String] {
        results(app.viewText)
    }

    static func results(_ text: String) -> [String: String] {
        Dictionary(text.split(separator: " ").compactMap { pair in
            let parts = pair.split(separator: "=", maxSplits: 1)
            return parts.count == 2 ? (String(parts[0]), String(parts[1])) : nil
        }, uniquingKeysWith: { $1 })
    }

    /// What every app is refused without a grant (the errno depends on the wall that holds: a file
    /// outside its world is not there, one inside it read-only, a call off the allow-list EPERM).
    static let refused = [
        "read_ssh", "read_token", "symlink_escape", "unix_socket", "signal_dashboard", "signal_keeper",
        "ptrace_sibling", "read_environ", "unshare", "mount",
        // Issue 51's classes the allow-list holds everywhere: other processes, System V IPC, sockets, memfds.
        "home_shows_users_files", "prlimit_dashboard", "setpriority_user", "setpriority_dashboard", "affinity_dashboard",
        "ioprio_dashboard", "sysv_shm", "mptcp_connect", "fastopen_connect", "memfd",
        // Found by probing after: inotify on the host's system folders, set-user-ID files in a folder it writes.
        "inotify_system", "setuid_chmod", "setuid_create", "setgid_mkdir",
    ] + (SandboxSupport.current.hasWorld ? worldOnly : [])
    /// And those only a world of its own holds: metadata, files unlinked while open, root's powers
    /// (on a system without namespaces they stay open, and the prompt says so).
    static let worldOnly = ["utime_token", "unlinked_past_limit", "read_shadow", "set_hostname", "capabilities"]
    /// Writes to HOME (a file, its mode) are refused or land in the app's own world: the user's HOME
    /// is as it was.
    static func homeIsUntouched(_ bait: Bait) {
        #expect(!FileManager.default.fileExists(atPath: bait.home.appendingPathComponent("PWNED").path))
        // Without a world of its own chmod reaches HOME (Landlock does not see metadata): said in the prompt.
        var info = stat()
        #expect(!SandboxSupport.current.hasWorld || (stat(bait.home.path, &info) == 0 && info.st_mode & 0o777 != 0o777), "HOME's mode changed")
    }

    /// What every app may do: its own folders, the system, its own /proc entry; in a world of its
    /// own, POSIX semaphores (its /dev/shm is its /tmp).
    static let allowed = ["read_own_folder", "write_tmpdir", "write_data", "read_system", "read_proc_self"]
        + (SandboxSupport.current.hasWorld ? ["posix_semaphore"] : [])

    @Test(.enabled(if: SandboxSupport.current.isEnforced))
    func anAppThatAsksForNothingGetsNothingOfTheUsers() async throws {
        let bait = try Bait()
        let app = try AppHarness("intruder", folder: try bait.intruder(), environment: try bait.environment())
        #expect(await app.wait(10) { $0.view != nil }, "\(app.log)")
        let got = Self.results(app)
        print("intruder without a grant: \(app.viewText)")
        for attempt in Self.refused { #expect(got[attempt].map { $0 != "ok" } == true, "\(attempt): \(got[attempt] ?? "missing")") }
        // No network granted: no network socket at all.
        for attempt in ["tcp_connect", "tcp_bind", "udp_send"] { #expect(got[attempt] == "EPERM", "\(attempt): \(got[attempt] ?? "missing")") }
        for attempt in Self.allowed { #expect(got[attempt] == "ok", "\(attempt): \(got[attempt] ?? "missing")") }
        Self.homeIsUntouched(bait)
        let temporary = try #require(got["tmpdir"])
        #expect(temporary.contains("/termcanvas-app-\(getpid())-"))
        await app.runtime.stopAll()
        // Its temporary folder went with it; its data folder stays.
        #expect(!FileManager.default.fileExists(atPath: temporary))
        #expect(FileManager.default.fileExists(atPath: app.logDirectory.appendingPathComponent("data/intruder/kept").path))
    }

    /// The same attacks by an ordinary user's app, through `apps try` started from that user's
    /// HOME: as root, the test becomes `nobody` (setpriv), whose HOME, key, token, socket, shared
    /// memory and other process are the bait. An ordinary user's apps run as that user inside
    /// their world, so what holds here is the namespaces and the allow-list, not a change of id.
    @Test(.enabled(if: getuid() == 0 && SandboxSupport.current.hasWorld))
    func anOrdinaryUsersAppGetsNothingOfTheirs() async throws {
        // A temporary folder every user may use (this machine's /tmp may be root's alone).
        let shared = URL(fileURLWithPath: "/var/tmp")
        let bait = try Bait(in: shared)
        let user: UInt32 = 65534
        let runtime = bait.folder.appendingPathComponent("runtime")
        try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true)
        let intruder = try bait.intruder()
        chmod(bait.folder.path, 0o711)
        for path in [bait.home.path, runtime.path, bait.socketPath] + (try FileManager.default.subpathsOfDirectory(atPath: bait.home.path)
            .map { bait.home.appendingPathComponent($0).path }) {
            #expect(lchown(path, user, user) == 0, "chown \(path)")
        }
        chmod(bait.home.path, 0o700)
        chmod(runtime.path, 0o700)
        chmod(bait.socketPath, 0o600)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: intruder.path)
        var memory = shmid_ds()
        shmctl(bait.sharedMemory, IPC_STAT, &memory)
        memory.shm_perm.uid = user
        memory.shm_perm.gid = user
        shmctl(bait.sharedMemory, IPC_SET, &memory)
        let sibling = Process()
        sibling.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        sibling.arguments = ["--reuid=\(user)", "--regid=\(user)", "--clear-groups", "/bin/sleep", "60"]
        try sibling.run()
        defer { sibling.terminate() }
        var environment = try bait.environment()
        // The user's own: their process as the dashboard and the sibling, and a PATH of the system's.
        var targets = try #require(try JSONSerialization.jsonObject(with: Data(environment["INTRUDER_TARGETS"]!.utf8)) as? [String: Any])
        try await Task.sleep(for: .milliseconds(100))
        targets["dashboard"] = Int(sibling.processIdentifier)
        targets["sibling"] = Int(sibling.processIdentifier)
        environment["INTRUDER_TARGETS"] = String(decoding: try JSONSerialization.data(withJSONObject: targets), as: UTF8.self)
        environment["PATH"] = "/usr/local/bin:/usr/bin:/bin"
        for (name, folder) in [("XDG_CONFIG_HOME", ".config"), ("XDG_DATA_HOME", ".local/share"), ("XDG_STATE_HOME", ".local/state"),
                               ("XDG_CACHE_HOME", ".cache")] {
            environment[name] = bait.home.appendingPathComponent(folder).path
        }
        environment["XDG_RUNTIME_DIR"] = runtime.path
        environment["TMPDIR"] = shared.path
        // The dashboard where that user may run it (a checkout may lie in a folder closed to others).
        let termcanvas = bait.folder.appendingPathComponent("termcanvas")
        try FileManager.default.copyItem(at: Products.termcanvas, to: termcanvas)
        chmod(termcanvas.path, 0o755)
        let asUser = ["setpriv", "--reuid=\(user)", "--regid=\(user)", "--clear-groups"]
        guard try await Command.run(asUser + [termcanvas.path, "--version"], environment: environment).status == 0 else {
            // Its Swift runtime is in a folder closed to that user (a toolchain in root's HOME): nothing to try here.
            return print("anOrdinaryUsersAppGetsNothingOfTheirs: nobody cannot run \(termcanvas.path) (its Swift libraries are closed to them)")
        }
        let result = try await Command.run(asUser + ["sh", "-c", #"cd "$HOME" && exec "$0" apps try "$1" --size 1000x20 --json"#,
                                                     termcanvas.path, intruder.path], environment: environment)
        let view = try #require(result.output.split(separator: "\n").first { $0.hasPrefix("{") }.flatMap {
            (try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["view"] as? [String]
        }, "\(result.output)")
        let got = Self.results(view.joined(separator: " "))
        print("intruder of an ordinary user: \(view.joined(separator: " ").trimmingCharacters(in: .whitespaces))")
        for attempt in Self.refused { #expect(got[attempt].map { $0 != "ok" } == true, "\(attempt): \(got[attempt] ?? "missing")") }
        for attempt in Self.allowed { #expect(got[attempt] == "ok", "\(attempt): \(got[attempt] ?? "missing")") }
        Self.homeIsUntouched(bait)
    }

    /// The attacks through the real path: a dashboard in tmux whose one pane is the intruder,
    /// allowed at its grant prompt with `y`; what it got is read off the screen.
    @Test(.enabled(if: SandboxSupport.current.isEnforced))
    func anAppInADashboardGetsNothingOfTheUsers() async throws {
        let bait = try Bait()
        let intruder = try bait.intruder()
        var environment = try bait.environment()
        for (name, folder) in [("XDG_CONFIG_HOME", "config"), ("XDG_DATA_HOME", "data"), ("XDG_STATE_HOME", "state"), ("XDG_RUNTIME_DIR", "run")] {
            let path = bait.folder.appendingPathComponent(folder)
            try FileManager.default.createDirectory(at: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            environment[name] = path.path
        }
        let layouts = bait.folder.appendingPathComponent("config/termcanvas/layouts")
        try FileManager.default.createDirectory(at: layouts, withIntermediateDirectories: true)
        try Data("name: default\nfocused: 1\npanes:\n  - { id: 1, app: intruder, x: 0, y: 0, width: 12, height: 12 }\n".utf8)
            .write(to: layouts.appendingPathComponent("default.yaml"))
        // `apps add` copies plain files only: the link to the key goes in after.
        try FileManager.default.removeItem(at: intruder.appendingPathComponent("leak"))
        let added = try await Command.run([Products.termcanvas.path, "apps", "add", intruder.path], environment: environment)
        #expect(added.status == 0, "\(added.output)")
        try FileManager.default.createSymbolicLink(atPath: bait.folder.appendingPathComponent("config/termcanvas/apps/intruder/leak").path,
                                                   withDestinationPath: bait.key.path)
        let session = try await TmuxSession([Products.termcanvas.path], size: Size(width: 200, height: 40), environment: environment)
        try await session.waitFor("asks to run")
        try await session.send("y")
        let screen = try await session.waitFor("read_proc_self=")
        let got = Dictionary(screen.joined(separator: " ").matches(of: /([a-z_]+)=([A-Za-z]+)/).map { (String($0.1), String($0.2)) }) { $1 }
        for attempt in Self.refused { #expect(got[attempt].map { $0 != "ok" } == true, "\(attempt): \(got[attempt] ?? "missing")") }
        for attempt in Self.allowed { #expect(got[attempt] == "ok", "\(attempt): \(got[attempt] ?? "missing")") }
        Self.homeIsUntouched(bait)
        try await session.send("q")
        #expect(try await session.waitForExit().status == 0)
    }

    @Test(.enabled(if: SandboxSupport.current.isEnforced))
    func whatIsGrantedWorksAndNothingMore() async throws {
        let bait = try Bait()
        let folder = try bait.intruder(permissions: """
            permissions:
              files: { read: [~/notes], write: [~/out] }
              network: { connect: [\(bait.port)] }
              run: [~/bin/tool]

            """)
        // A program of the user's, outside the system's folders: run, as granted.
        let tool = bait.home.appendingPathComponent("bin/tool")
        try FileManager.default.createDirectory(at: tool.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("#!/bin/sh\necho ran\n".utf8).write(to: tool)
        chmod(tool.path, 0o755)
        let environment = try bait.environment(reads: ["read_notes": bait.home.appendingPathComponent("notes/a.txt").path],
                                               writes: ["write_out": bait.home.appendingPathComponent("out/b.txt").path],
                                               runs: ["run_tool": tool.path])
        let app = try AppHarness("intruder", folder: folder, environment: environment)
        #expect(await app.wait(10) { $0.view != nil }, "\(app.log)")
        let got = Self.results(app)
        #expect(got["read_notes"] == "ok")
        #expect(got["write_out"] == "ok")
        #expect(got["run_tool"] == "ok")
        #expect(got["tcp_connect"] == "ok")
        // A port to connect to is not one to listen on; the rest stays refused.
        #expect(got["tcp_bind"] == "EACCES")
        // The holes beside a port grant (on the old deny-list: ok, ok, and a connect under way).
        for attempt in ["listen_other_port", "mptcp_connect", "fastopen_connect"] { #expect(got[attempt] == "EPERM", "\(attempt): \(got[attempt] ?? "missing")") }
        for attempt in Self.refused { #expect(got[attempt].map { $0 != "ok" } == true, "\(attempt): \(got[attempt] ?? "missing")") }
        Self.homeIsUntouched(bait)
        await app.runtime.stopAll()
    }

    @Test(.enabled(if: SandboxSupport.current.isEnforced))
    func aGrantThatLeadsElsewhereThroughASymlinkStopsTheApp() async throws {
        let bait = try Bait()
        try FileManager.default.createSymbolicLink(atPath: bait.home.appendingPathComponent("diary").path,
                                                   withDestinationPath: bait.home.appendingPathComponent(".ssh").path)
        let folder = try bait.intruder(permissions: "permissions: { files: { read: [~/diary] } }\n")
        let app = try AppHarness("intruder", folder: folder, environment: try bait.environment())
        #expect(await app.wait(10) { app in
            if case .stopped(let reason)? = app.status { return reason.contains("~/diary leads to \(bait.home.path)/.ssh through a symlink") }
            return false
        }, "\(String(describing: app.status))")
        #expect(app.view == nil)
    }

    /// Issue 51, a path resolved twice: the plan was made in the dashboard, whose /proc/self/cwd
    /// is another folder than the app's.
    @Test(arguments: ["exec: [/proc/self/cwd/run.sh]", "exec: [./run.sh]"])
    func aProgramNamedThroughProcIsRefused(exec: String) async throws {
        let bait = try Bait()
        let folder = bait.folder.appendingPathComponent("selfish")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let interpreter = exec.contains("/proc/") ? "/bin/sh" : "/proc/self/cwd/sh"
        try Data("#!\(interpreter)\necho hi\n".utf8).write(to: folder.appendingPathComponent("run.sh"))
        chmod(folder.appendingPathComponent("run.sh").path, 0o755)
        try Data("id: selfish\nname: Selfish\nversion: 1.0.0\nprotocol: 1\n\(exec)\n".utf8).write(to: folder.appendingPathComponent("app.yaml"))
        let app = try AppHarness("selfish", folder: folder, environment: try bait.environment())
        #expect(await app.wait(10) { app in
            if case .stopped(let reason)? = app.status { return reason.contains("names a different file in each process") }
            return false
        }, "\(String(describing: app.status)) \(app.log)")
    }

    /// Issue 51: `run` names programs; a folder named there grants nothing.
    @Test(.enabled(if: SandboxSupport.current.isEnforced))
    func aFolderInRunGrantsNothing() async throws {
        let bait = try Bait()
        let folder = try bait.intruder(permissions: "permissions: { run: [~/.ssh] }\n")
        let app = try AppHarness("intruder", folder: folder, environment: try bait.environment())
        #expect(await app.wait(10) { $0.view != nil }, "\(app.log)")
        #expect(Self.results(app)["read_ssh"] != "ok")
        #expect(app.log.contains("run: ~/.ssh is not a program (an executable file); it cannot be run"), "\(app.log)")
        await app.runtime.stopAll()
    }

    @Test func temporaryFoldersOfADashboardThatDiedAreRemovedAtTheNextStart() async throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("tc-base-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: base) }
        let gone = try Command.start(["true"])
        _ = await Command.waitForExit(gone)
        let abandoned = base.appendingPathComponent("termcanvas-app-\(gone)-Ab12Cd")
        let running = base.appendingPathComponent("termcanvas-app-\(getpid())-Ef34Gh")
        for folder in [abandoned, running] {
            try FileManager.default.createDirectory(at: folder.appendingPathComponent("left"), withIntermediateDirectories: true)
        }
        var environment = ProcessInfo.processInfo.environment
        environment["TMPDIR"] = base.path
        let app = try AppHarness("envprobe", environment: environment)
        #expect(await app.wait { $0.view != nil }, "\(app.log)")
        #expect(!FileManager.default.fileExists(atPath: abandoned.path))
        #expect(FileManager.default.fileExists(atPath: running.path), "a live dashboard's folder stays")
        await app.runtime.stopAll()
    }

    @Test(arguments: [("sysmon", "CPU"), ("pomodoro", "25:00"), ("homedisk", "used on")])
    func theShippedAppsRunInTheirSandbox(id: String, shows: String) async throws {
        let app = try AppHarness(id, folder: Self.repository.appendingPathComponent("apps/\(id)"))
        #expect(await app.wait(10) { app in app.view.map { "\($0.root)".contains(shows) } ?? false },
                "\(String(describing: app.view?.root)) \(app.log)")
        await app.runtime.stopAll()
    }

    /// The appendix's apps, as a reader copies them out of docs/microapp-protocol.md: two in
    /// Python, one in Node.js (whose runtime reserves memory and threads at its start).
    @Test func theProtocolDocumentsExamplesRunInTheSandbox() async throws {
        let document = try String(contentsOf: Self.repository.appendingPathComponent("docs/microapp-protocol.md"), encoding: .utf8)
        let appendix = document.components(separatedBy: "## Appendix").last ?? ""
        func blocks(_ language: String) -> [String] {
            appendix.components(separatedBy: "```\(language)\n").dropFirst().map { $0.components(separatedBy: "\n```").first ?? "" }
        }
        let python = blocks("python")
        let node = blocks("js")
        #expect(python.count == 2 && node.count == 1)
        let examples = python.map { ("app.py", $0, "exec: [python3, -u, app.py]") } + node.map { ("app.js", $0, "exec: [node, app.js]") }
        for (index, (file, script, exec)) in examples.enumerated() {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tc-example-\(UUID().uuidString.prefix(8))")
            defer { try? FileManager.default.removeItem(at: folder) }
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data(script.utf8).write(to: folder.appendingPathComponent(file))
            try Data("id: example\nname: Example \(index)\nversion: 1.0.0\nprotocol: 1\n\(exec)\n".utf8)
                .write(to: folder.appendingPathComponent("app.yaml"))
            let app = try AppHarness("example", folder: folder)
            #expect(await app.wait(10) { $0.view != nil }, "example \(index) (\(file)): \(app.log)")
            await app.runtime.stopAll()
        }
    }
}
