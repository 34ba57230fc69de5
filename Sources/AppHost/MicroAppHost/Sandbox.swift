import AppModel
import CAppProcess
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// The kernel's containment of app processes on this machine: Landlock (files, TCP ports, signals
/// and abstract sockets), found once per process, beside the seccomp filter and no-new-privileges
/// every app gets wherever it runs.
public enum SandboxSupport: Hashable, Sendable {
    /// Landlock at this ABI (7 on a 6.15 kernel): 4 adds TCP ports, 6 signals and abstract sockets.
    case landlock(abi: Int)
    /// No Landlock: why, in words.
    case unavailable(String)

    /// Set to 1, the dashboard behaves as on a kernel without Landlock (for tests, and to see
    /// what such a machine shows).
    public static let simulationVariable = "TERMCANVAS_SIMULATE_NO_LANDLOCK"

    /// This machine's, found at first use.
    public static let current = detect(environment: ProcessInfo.processInfo.environment, abi: tc_landlock_abi())

    static func detect(environment: [String: String], abi: Int32) -> SandboxSupport {
        if environment[simulationVariable] == "1" { return .unavailable("Landlock is off (\(simulationVariable)=1)") }
        switch abi {
        case TC_LANDLOCK_DISABLED: return .unavailable("this kernel has Landlock but it is not enabled (add landlock to the lsm= boot parameter)")
        case ..<1: return .unavailable("this kernel has no Landlock (Linux 5.13 or newer has it)")
        default: return .landlock(abi: Int(abi))
        }
    }

    /// Whether apps' files, network and signals are contained.
    public var isEnforced: Bool {
        if case .landlock = self { return true }
        return false
    }

    /// What an app runs in, in words: for `apps list` and the grant prompt.
    public var summary: String {
        switch self {
        case .landlock(let abi) where abi >= 6: "sandboxed (Landlock ABI \(abi))"
        case .landlock(let abi) where abi >= 4: "sandboxed (Landlock ABI \(abi): files and ports; signals not contained)"
        case .landlock(let abi): "sandboxed (Landlock ABI \(abi): files; ports and signals not contained)"
        case .unavailable(let reason): "not sandboxed on this system: \(reason)"
        }
    }

    /// Said beside a grant prompt when apps are not wholly contained; nil when they are.
    public var warning: String? {
        switch self {
        case .landlock(let abi) where abi >= 6: nil
        case .landlock(let abi):
            "Partly sandboxed on this system (Landlock ABI \(abi)): its files are contained, but not its signals"
                + (abi < 4 ? " or TCP ports." : ".")
        case .unavailable(let reason): "Not sandboxed on this system (\(reason)): it runs with all your rights and can read your files."
        }
    }
}

extension SandboxSupport {
    /// What a grant of `app` covers: its manifest, and, where apps are not wholly contained, the
    /// containment it was given under, so that a grant given in a sandbox does not carry over to
    /// a system without one (the user is asked again, told so).
    public func grantDigest(of app: InstalledApp) -> String {
        guard !app.isRemote, warning != nil else { return app.digest }
        switch self {
        case .landlock(let abi): return app.digest + " landlock-abi-\(abi)"
        case .unavailable: return app.digest + " unsandboxed"
        }
    }
}

/// A plan made ready for `tc_spawn_app`: the Landlock ruleset's descriptor (closed by `close()`)
/// and the seccomp program.
struct PreparedSandbox {
    var settings: tc_sandbox

    /// - Throws: `LaunchError.failed` when the kernel refuses the ruleset or the filter cannot be made.
    init(_ plan: SandboxPlan, support: SandboxSupport = .current) throws(LaunchError) {
        let filter = try Self.filter(network: !plan.connectPorts.isEmpty)
        settings = tc_sandbox(no_new_privileges: 1, landlock_ruleset: -1, landlock_abi: 0,
                              seccomp_program: filter.program, seccomp_length: filter.length)
        guard case .landlock(let abi) = support else { return }
        let ruleset = tc_landlock_ruleset(Int32(abi))
        guard ruleset >= 0 else { throw .failed(step: "sandbox (Landlock ruleset)", errno: -ruleset) }
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

    /// Closes the ruleset's descriptor (the app's process has its own copy until it applies it).
    mutating func close() {
        if settings.landlock_ruleset >= 0 { Glibc.close(settings.landlock_ruleset) }
        settings.landlock_ruleset = -1
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

    /// A seccomp program, made once per process for each kind (with and without network).
    private struct Filter: @unchecked Sendable {
        /// Kept for the process's life: every app's process installs it.
        let program: UnsafeRawPointer
        let length: UInt16
    }

    private static let withoutNetwork = makeFilter(network: false)
    private static let withNetwork = makeFilter(network: true)

    /// Makes both filters, once per process.
    static func compileFilters() {
        _ = (withoutNetwork, withNetwork)
    }

    private static func filter(network: Bool) throws(LaunchError) -> Filter {
        try (network ? withNetwork : withoutNetwork).get()
    }

    private static func makeFilter(network: Bool) -> Result<Filter, LaunchError> {
        var program: UnsafeMutableRawPointer?
        var length: UInt16 = 0
        let result = tc_seccomp_program(network ? 1 : 0, &program, &length)
        guard result == 0, let program else { return .failure(.failed(step: "sandbox (seccomp filter)", errno: -result)) }
        return .success(Filter(program: UnsafeRawPointer(program), length: length))
    }
}
