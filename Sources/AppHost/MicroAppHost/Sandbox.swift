import AppModel
import CAppProcess
import FoundationEssentials
import PlainText
#if canImport(Glibc)
import Glibc
#endif

/// The kernel's containment of app processes on this machine, found once per process: a world of
/// its own (namespaces, a filesystem view made of its plan) where the kernel gives one, Landlock
/// (files, TCP ports, signals and abstract sockets), and the seccomp allow-list and
/// no-new-privileges every app gets wherever it runs.
public struct SandboxSupport: Hashable, Sendable {
    public enum Landlock: Hashable, Sendable {
        /// Landlock at this ABI (7 on a 6.15 kernel): 4 adds TCP ports, 6 signals and abstract sockets.
        case abi(Int)
        /// No Landlock: why, in words.
        case unavailable(String)
    }

    public enum World: Hashable, Sendable {
        /// Each app gets namespaces of its own (user, mount, PID, IPC, UTS, cgroup, network).
        case own
        /// The kernel refuses them: why, and how to allow them, in words.
        case refused(reason: String, remedy: String)
    }

    public let world: World
    public let landlock: Landlock

    public init(world: World, landlock: Landlock) {
        self.world = world
        self.landlock = landlock
    }

    /// Set to 1, the dashboard behaves as on a kernel without Landlock (for tests, and to see
    /// what such a machine shows).
    public static let simulationVariable = "TERMCANVAS_SIMULATE_NO_LANDLOCK"
    /// Set to 1, as on a system that refuses unprivileged user namespaces.
    public static let worldSimulationVariable = "TERMCANVAS_SIMULATE_NO_NAMESPACES"

    /// This machine's, found at first use.
    public static let current = detect(environment: ProcessInfo.processInfo.environment, abi: tc_landlock_abi(),
                                       worldRefusal: tc_world_probe(), rootWithoutCapabilities: geteuid() == 0 && !PreparedSandbox.maySwitchIDs,
                                       setting: systemSetting)

    /// - Parameter rootWithoutCapabilities: the dashboard is root without CAP_SETUID, CAP_SETGID
    ///   or CAP_SYS_ADMIN, and so cannot map any id into a world: its own, root, takes CAP_SETFCAP.
    static func detect(environment: [String: String], abi: Int32, worldRefusal: Int32, rootWithoutCapabilities: Bool = false,
                       setting: (String) -> String? = { _ in nil }) -> SandboxSupport {
        let landlock: Landlock = if environment[simulationVariable] == "1" {
            .unavailable("Landlock is off (\(simulationVariable)=1)")
        } else {
            switch abi {
            case TC_LANDLOCK_DISABLED: .unavailable("this kernel has Landlock but it is not enabled (add landlock to the lsm= boot parameter)")
            case ..<1: .unavailable("this kernel has no Landlock (Linux 5.13 or newer has it)")
            default: .abi(Int(abi))
            }
        }
        let world: World = if environment[worldSimulationVariable] == "1" {
            .refused(reason: "namespaces are off (\(worldSimulationVariable)=1)", remedy: "unset \(worldSimulationVariable)")
        } else if rootWithoutCapabilities {
            .refused(reason: "the dashboard runs as root without the capabilities to give its apps an id of their own (CAP_SETUID, CAP_SETGID, CAP_SYS_ADMIN)",
                     remedy: "run it as an ordinary user, or as root with those capabilities")
        } else if worldRefusal == 0 {
            .own
        } else {
            refusal(worldRefusal, setting: setting)
        }
        return SandboxSupport(world: world, landlock: landlock)
    }

    /// Why the kernel refused an app's namespaces, from the settings that refuse them.
    private static func refusal(_ code: Int32, setting: (String) -> String?) -> World {
        if setting("kernel/unprivileged_userns_clone") == "0" {
            return .refused(reason: "this system turns off user namespaces for users without privileges (kernel.unprivileged_userns_clone is 0)",
                            remedy: "allow them with sudo sysctl -w kernel.unprivileged_userns_clone=1")
        }
        if setting("user/max_user_namespaces") == "0" {
            return .refused(reason: "this system allows no user namespaces (user.max_user_namespaces is 0)",
                            remedy: "allow them with sudo sysctl -w user.max_user_namespaces=10000")
        }
        if setting("kernel/apparmor_restrict_unprivileged_userns") == "1" {
            return .refused(reason: "AppArmor keeps user namespaces from programs without a profile that allows them (kernel.apparmor_restrict_unprivileged_userns is 1)",
                            remedy: "give termcanvas an AppArmor profile with the userns rule, or run sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0")
        }
        return .refused(reason: "the kernel refused new namespaces (\(SystemErrorWords.describe(code)))",
                        remedy: "in a container, start it with user namespaces allowed (podman does; for Docker, --security-opt seccomp=unconfined)")
    }

    /// A setting under /proc/sys, trimmed; nil when there is none.
    private static func systemSetting(_ name: String) -> String? {
        guard let text = try? String(contentsOfFile: "/proc/sys/" + name, encoding: .utf8) else { return nil }
        return String(text.filter { !$0.isWhitespace })
    }

    /// Whether apps' files, processes and signals are contained at all.
    public var isEnforced: Bool {
        if case .own = world { return true }
        if case .abi = landlock { return true }
        return false
    }

    /// Whether each app gets a world of its own.
    public var hasWorld: Bool { world == .own }

    private var landlockWords: String {
        switch landlock {
        case .abi(let abi): "Landlock ABI \(abi)"
        case .unavailable(let reason): "no Landlock: \(reason)"
        }
    }

    /// What an app runs in, in words: for `apps list`, `apps try` and the grant prompt.
    public var summary: String {
        switch world {
        case .own: "sandboxed (a world of its own: namespaces, a system-call allow-list, \(landlockWords))"
        case .refused(let reason, let remedy) where isEnforced:
            "partly sandboxed: no namespaces of its own because \(reason) (to fix: \(remedy)); \(landlockWords) and a system-call allow-list only"
        case .refused(let reason, _): "not sandboxed on this system: \(reason); \(landlockWords)"
        }
    }

    /// Said beside a grant prompt when apps are not wholly contained; nil when they are.
    public var warning: String? {
        switch (world, landlock) {
        case (.own, .abi(let abi)) where abi >= 4: return nil
        case (.own, _): return "Partly sandboxed on this system (\(landlockWords)): a network permission reaches every TCP port, not only those it names."
        case (.refused(let reason, let remedy), .abi(let abi)):
            let gaps = abi >= 6 ? "" : abi >= 4 ? " or signals" : ", signals or TCP ports"
            return "Partly sandboxed on this system: no namespaces of its own, because \(reason). Its files\(gaps.isEmpty ? ", ports and signals are" : " are") "
                + "contained, but not its processes, System V IPC\(gaps) from yours. To fix: \(remedy)."
        case (.refused(let reason, let remedy), .unavailable(let why)):
            return "Not sandboxed on this system (\(reason); \(why)): it runs with all your rights and can read your files. To fix: \(remedy)."
        }
    }
}

extension SandboxSupport {
    /// What a grant of `app` covers: its manifest, and, where apps are not wholly contained, the
    /// containment it was given under, so that a grant given in a sandbox does not carry over to
    /// a system without one (the user is asked again, told so).
    public func grantDigest(of app: InstalledApp) -> String {
        guard !app.isRemote, warning != nil else { return app.digest }
        let world = hasWorld ? "" : " no-namespaces"
        switch landlock {
        case .abi(let abi): return app.digest + world + " landlock-abi-\(abi)"
        case .unavailable: return app.digest + world + " unsandboxed"
        }
    }
}

/// A plan made ready for `tc_spawn_app`: the Landlock ruleset's descriptor, the seccomp program,
/// and the world's view as C strings (all given back by `close()`).
struct PreparedSandbox {
    var settings: tc_sandbox
    private var view: UnsafeMutableBufferPointer<tc_view_entry>

    /// The ids a world runs its app as: the user's own, or, for root's apps, these (nobody's),
    /// which own nothing of root's.
    static let unprivilegedID: UInt32 = 65534
    /// Root with the capabilities to map other ids (`SandboxSupport` refuses a world to root
    /// without them).
    static let maySwitchIDs = tc_may_switch_ids() != 0

    /// - Throws: `LaunchError.failed` when the kernel refuses the ruleset or the filter cannot be made.
    init(_ plan: SandboxPlan, support: SandboxSupport = .current) throws(LaunchError) {
        let network = !plan.connectPorts.isEmpty
        let filter = try Self.filter(kind: (network ? TC_FILTER_NETWORK : 0) | (support.hasWorld && !network ? TC_FILTER_UNIX : 0))
        settings = tc_sandbox(no_new_privileges: 1, landlock_ruleset: -1, landlock_abi: 0,
                              seccomp_program: filter.program, seccomp_length: filter.length,
                              world: 0, switch_ids: 0, host_network: network ? 1 : 0, view: nil, view_count: 0,
                              app_uid: getuid(), app_gid: getgid())
        view = UnsafeMutableBufferPointer(start: nil, count: 0)
        if support.hasWorld { makeWorld(plan.view) }
        guard case .abi(let abi) = support.landlock else { return }
        let ruleset = tc_landlock_ruleset(Int32(abi))
        guard ruleset >= 0 else {
            close()
            throw .failed(step: "sandbox (Landlock ruleset)", errno: -ruleset)
        }
        settings.landlock_ruleset = ruleset
        settings.landlock_abi = Int32(abi)
        for rule in plan.rules {
            let result = tc_landlock_allow_path(ruleset, rule.path, Self.rights(rule.access), Int32(abi), rule.followsLinks ? 1 : 0)
            // A system folder this machine lacks (/lib32) allows nothing.
            guard result == 0 || result == ENOENT else {
                close()
                throw .failed(step: "sandbox (allowing \(rule.path))", errno: result)
            }
        }
        if abi >= 4 {
            for port in plan.connectPorts {
                let result = tc_landlock_allow_connect(ruleset, UInt64(port))
                guard result == 0 else {
                    close()
                    throw .failed(step: "sandbox (allowing port \(port))", errno: result)
                }
            }
        }
    }

    private mutating func makeWorld(_ entries: [SandboxPlan.ViewEntry]) {
        view = .allocate(capacity: entries.count)
        for (index, entry) in entries.enumerated() {
            let (kind, bytes): (Int32, Int) = switch entry.kind {
            case .system: (TC_VIEW_SYSTEM, 0)
            case .read: (TC_VIEW_READ, 0)
            case .write: (TC_VIEW_WRITE, 0)
            case .device: (TC_VIEW_DEVICE, 0)
            case .tmpfs(let bytes): (TC_VIEW_TMPFS, bytes)
            case .proc: (TC_VIEW_PROC, 0)
            case .folder: (TC_VIEW_FOLDER, 0)
            }
            view[index] = tc_view_entry(kind: kind, path: UnsafePointer(strdup(entry.path)), bytes: UInt64(max(0, bytes)))
        }
        let switchIDs = Self.maySwitchIDs
        settings.world = 1
        settings.switch_ids = switchIDs ? 1 : 0
        settings.view = UnsafePointer(view.baseAddress)
        settings.view_count = Int32(entries.count)
        settings.app_uid = switchIDs ? Self.unprivilegedID : getuid()
        settings.app_gid = switchIDs ? Self.unprivilegedID : getgid()
    }

    /// The path of view entry `index` (a failed start's `detail`); nil for none.
    func viewPath(_ index: Int32) -> String? {
        view.indices.contains(Int(index)) ? String(cString: view[Int(index)].path) : nil
    }

    /// Gives back the ruleset's descriptor (the app's process has its own copy until it applies
    /// it) and the view's strings.
    mutating func close() {
        if settings.landlock_ruleset >= 0 { Glibc.close(settings.landlock_ruleset) }
        settings.landlock_ruleset = -1
        for entry in view { free(UnsafeMutableRawPointer(mutating: entry.path)) }
        view.deallocate()
        view = UnsafeMutableBufferPointer(start: nil, count: 0)
        settings.view = nil
        settings.view_count = 0
    }

    private static let read = UInt64(TC_FS_READ_FILE) | UInt64(TC_FS_READ_DIR)
    /// Write, create, remove and rename beneath; never devices (which need privileges anyway).
    private static let write = [TC_FS_WRITE_FILE, TC_FS_REMOVE_DIR, TC_FS_REMOVE_FILE, TC_FS_MAKE_DIR, TC_FS_MAKE_REG,
                                TC_FS_MAKE_FIFO, TC_FS_MAKE_SYM, TC_FS_REFER, TC_FS_TRUNCATE].reduce(UInt64(0)) { $0 | UInt64($1) }

    private static func rights(_ access: SandboxPlan.Access) -> UInt64 {
        switch access {
        case .read: read
        case .readExecute: read | UInt64(TC_FS_EXECUTE)
        case .readWrite: read | write
        case .device: UInt64(TC_FS_READ_FILE) | UInt64(TC_FS_WRITE_FILE) | UInt64(TC_FS_IOCTL_DEV)
        }
    }

    /// A seccomp program, made once per process for each kind.
    private struct Filter: @unchecked Sendable {
        /// Kept for the process's life: every app's process installs it.
        let program: UnsafeRawPointer
        let length: UInt16
    }

    /// The four filters (`TC_FILTER_*` bits), each compiled once per process.
    private static let filters = (0...3).map { makeFilter(kind: Int32($0)) }

    /// Makes the filters, once per process.
    static func compileFilters() {
        _ = filters
    }

    private static func filter(kind: Int32) throws(LaunchError) -> Filter {
        try filters[Int(kind)].get()
    }

    private static func makeFilter(kind: Int32) -> Result<Filter, LaunchError> {
        var program: UnsafeMutableRawPointer?
        var length: UInt16 = 0
        let result = tc_seccomp_program(kind, &program, &length)
        guard result == 0, let program else { return .failure(.failed(step: "sandbox (seccomp filter)", errno: -result)) }
        return .success(Filter(program: UnsafeRawPointer(program), length: length))
    }
}
