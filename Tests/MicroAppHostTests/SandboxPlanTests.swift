import CAppProcess
import Glibc
@testable import MicroAppHost
import Testing

/// What the sandbox allows, as values: the kernel's support in words, and which installation of an
/// interpreter outside the system an app may read.
@Suite("The sandbox's plan and the kernel's support")
struct SandboxPlanTests {
    static let lookup = ProgramLookup(environment: ["XDG_DATA_HOME": "/home/ann/data"], home: "/home/ann")

    @Test(arguments: [
        // A version manager's installation in HOME, not HOME.
        ("/home/ann/.pyenv/versions/3.11.7/bin/python3.11", "/home/ann/.pyenv/versions/3.11.7"),
        ("/home/ann/.nvm/versions/node/v20.1.0/bin/node", "/home/ann/.nvm/versions/node/v20.1.0"),
        ("/opt/node/bin/node", "/opt/node"),
        // The program file alone: the system's, a folder of HOME's that is no installation, and
        // folders that hold or sit in the user's private ones.
        ("/usr/bin/python3.11", nil),
        ("/home/ann/bin/python3", nil),
        ("/home/ann/.cargo/bin/tool", nil),
        ("/home/ann/.local/versions/x/bin/tool", nil),
        ("/home/ann/data/versions/x/bin/tool", nil),
        ("/mnt/disk/bin/tool", nil),
        ("/home/bin/tool", nil),
    ] as [(String, String?)])
    func anInterpretersInstallationIsAllowedOnlyWhereItIsOne(program: String, installation: String?) {
        #expect(Self.lookup.installation(of: program) == installation)
    }

    static func support(abi: Int32, world: Int32 = 0, rootWithoutCapabilities: Bool = false, environment: [String: String] = [:],
                        settings: [String: String] = [:]) -> SandboxSupport {
        SandboxSupport.detect(environment: environment, abi: abi, worldRefusal: world, rootWithoutCapabilities: rootWithoutCapabilities,
                              setting: { settings[$0] })
    }

    @Test func theKernelsSupportIsSaidAsItIs() {
        #expect(Self.support(abi: 7) == SandboxSupport(world: .own, landlock: .abi(7)))
        #expect(Self.support(abi: 7).warning == nil)
        #expect(Self.support(abi: 7).summary == "sandboxed (a world of its own: namespaces, a system-call allow-list, Landlock ABI 7)")
        // In a world of its own, only the ports of a network permission need Landlock.
        #expect(Self.support(abi: 5).warning == nil)
        #expect(Self.support(abi: 3).warning?.contains("a network permission reaches every TCP port") == true)
        #expect(Self.support(abi: TC_LANDLOCK_MISSING).isEnforced)
        // Without namespaces: the walls that are left, and how to allow them.
        let refused = Self.support(abi: 7, world: EPERM, settings: ["kernel/unprivileged_userns_clone": "0"])
        #expect(refused.isEnforced && !refused.hasWorld)
        #expect(refused.summary.hasPrefix("partly sandboxed: no namespaces of its own because this system turns off user namespaces"))
        #expect(refused.summary.contains("sudo sysctl -w kernel.unprivileged_userns_clone=1"))
        #expect(refused.warning?.contains("Its files, ports and signals are contained, but not its processes") == true)
        #expect(Self.support(abi: 7, world: EPERM, settings: ["kernel/apparmor_restrict_unprivileged_userns": "1"]).summary.contains("AppArmor"))
        #expect(Self.support(abi: 7, world: EPERM, settings: ["user/max_user_namespaces": "0"]).summary.contains("user.max_user_namespaces"))
        #expect(Self.support(abi: 5, world: EPERM).warning?.contains("Its files are contained, but not its processes, System V IPC or signals") == true)
        let bare = Self.support(abi: TC_LANDLOCK_MISSING, world: EPERM)
        #expect(!bare.isEnforced)
        #expect(bare.warning?.hasPrefix("Not sandboxed on this system (the kernel refused new namespaces") == true)
        #expect(Self.support(abi: TC_LANDLOCK_DISABLED).summary.contains("not enabled"))
        #expect(Self.support(abi: 7, environment: [SandboxSupport.simulationVariable: "1"]).landlock
                == .unavailable("Landlock is off (TERMCANVAS_SIMULATE_NO_LANDLOCK=1)"))
        #expect(!Self.support(abi: 7, environment: [SandboxSupport.worldSimulationVariable: "1"]).hasWorld)
        // Root without its capabilities can map no id into a world (its own, root, takes CAP_SETFCAP).
        let capless = Self.support(abi: 7, rootWithoutCapabilities: true)
        #expect(!capless.hasWorld && capless.summary.contains("runs as root without the capabilities"))
        #expect(capless.summary.contains("run it as an ordinary user"))
    }

    @Test func everyAppGetsTheSystemItsFolderAndWhatWasGrantedOnly() {
        let plan = SandboxPlan.make(programs: ["/usr/bin/python3.11"], installations: [], folder: "/home/ann/apps/x",
                                    files: [SandboxPlan.Rule(path: "/home/ann/notes", access: .read)], connect: [443, 443])
        #expect(plan.connectPorts == [443])
        #expect(plan.rules.contains(SandboxPlan.Rule(path: "/home/ann/apps/x", access: .readExecute)))
        #expect(plan.rules.contains(SandboxPlan.Rule(path: "/home/ann/notes", access: .read)))
        #expect(!plan.rules.contains { $0.path == "/home/ann" || $0.path == "/tmp" || $0.path == "/proc" })
        // Only the system's folders are followed through links.
        #expect(plan.rules.filter(\.followsLinks).allSatisfy { SandboxPlan.isSystem($0.path) })
        let run = plan.adding(temporary: "/tmp/termcanvas-app-1-x", bytes: 1 << 20, data: "/home/ann/data/x")
        #expect(run.rules.suffix(2) == [SandboxPlan.Rule(path: "/tmp/termcanvas-app-1-x", access: .readWrite),
                                        SandboxPlan.Rule(path: "/home/ann/data/x", access: .readWrite)])
    }

    /// The world's view: its own /proc, the system, a tmpfs for /tmp, an empty HOME, then each
    /// grant, parents first, so that a grant inside another keeps its own rights.
    @Test func theWorldIsMadeOfThePlanParentsFirst() {
        var plan = SandboxPlan.make(programs: ["/usr/bin/python3.11"], installations: [], folder: "/home/ann/apps/x",
                                    files: [SandboxPlan.Rule(path: "/home/ann", access: .readWrite),
                                            SandboxPlan.Rule(path: "/proc", access: .read)], connect: [])
        plan.home = "/home/ann"
        let view = plan.adding(temporary: "/tmp/termcanvas-app-1-x", bytes: 1 << 20, madeInside: ["/tmp/termcanvas-app-1-x/home"],
                               data: "/home/ann/.local/share/termcanvas/app-data/x").view
        let paths = view.map(\.path)
        #expect(view.first == SandboxPlan.ViewEntry(kind: .proc, path: "/proc"))
        #expect(view.contains(SandboxPlan.ViewEntry(kind: .tmpfs(bytes: 1 << 20), path: "/tmp")))
        #expect(view.contains(SandboxPlan.ViewEntry(kind: .system, path: "/usr")))
        #expect(view.contains(SandboxPlan.ViewEntry(kind: .device, path: "/dev/null")))
        #expect(view.contains(SandboxPlan.ViewEntry(kind: .read, path: "/home/ann/apps/x")))
        #expect(!paths.contains("/tmp/termcanvas-app-1-x") || view.contains(SandboxPlan.ViewEntry(kind: .folder, path: "/tmp/termcanvas-app-1-x")))
        // A granted /proc comes after the world's own; HOME the folder before HOME the grant; the
        // app's folder and data after the HOME that holds them.
        #expect(paths.firstIndex(of: "/proc")! < paths.lastIndex(of: "/proc")!)
        #expect(view.firstIndex(of: SandboxPlan.ViewEntry(kind: .write, path: "/home/ann"))!
                < view.firstIndex(of: SandboxPlan.ViewEntry(kind: .read, path: "/home/ann/apps/x"))!)
        #expect(paths.firstIndex(of: "/home/ann/.local/share/termcanvas/app-data/x")! > paths.firstIndex(of: "/home/ann")!)
        #expect(paths.firstIndex(of: "/tmp/termcanvas-app-1-x/home")! > paths.firstIndex(of: "/tmp")!)
    }
}
