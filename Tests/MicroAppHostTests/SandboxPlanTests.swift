import CAppProcess
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

    @Test func theKernelsSupportIsSaidAsItIs() {
        #expect(SandboxSupport.detect(environment: [:], abi: 7) == .landlock(abi: 7))
        #expect(SandboxSupport.detect(environment: [:], abi: 7).warning == nil)
        #expect(SandboxSupport.detect(environment: [:], abi: 5).warning
                == "Partly sandboxed on this system (Landlock ABI 5): its files are contained, but not its signals.")
        #expect(SandboxSupport.detect(environment: [:], abi: 3).warning?.hasSuffix("but not its signals or TCP ports.") == true)
        #expect(SandboxSupport.detect(environment: [:], abi: TC_LANDLOCK_MISSING).warning
                == "Not sandboxed on this system (this kernel has no Landlock (Linux 5.13 or newer has it)): it runs with all your rights and can read your files.")
        #expect(SandboxSupport.detect(environment: [:], abi: TC_LANDLOCK_DISABLED).summary.contains("not enabled"))
        #expect(SandboxSupport.detect(environment: [SandboxSupport.simulationVariable: "1"], abi: 7)
                == .unavailable("Landlock is off (TERMCANVAS_SIMULATE_NO_LANDLOCK=1)"))
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
        #expect(plan.adding(writable: ["/tmp/termcanvas-app-1-x"]).rules.last == SandboxPlan.Rule(path: "/tmp/termcanvas-app-1-x", access: .readWrite))
    }
}
