import FoundationEssentials
import PlainText

/// A micro-app's manifest (`app.yaml`): who it is, how to run it, what it may do.
public struct AppManifest: Hashable, Sendable {
    /// Lowercase letters, digits and `-`, starting with a letter; the pane kind in layouts.
    public var id: String
    public var name: String
    /// Semantic: `MAJOR.MINOR.PATCH`.
    public var version: String
    public var description: String
    /// The protocol it speaks; nil for a `sample:` app, which speaks none.
    public var protocolVersion: ProtocolVersion?
    /// The program and its arguments; a relative program path is taken from the app's folder.
    /// Empty for a remote app.
    public var exec: [String]
    /// Set for a remote app: the HTTP entry, speaking the protocol, that runs it elsewhere.
    public var entry: URL?
    /// Where it runs, relative to the app's folder (default: the folder itself).
    public var workingDirectory: String
    /// Variables of the dashboard's environment it may see, beyond the basic ones.
    public var environment: [String]
    /// Event names it publishes (`source.entity.action`).
    public var publishes: [String]
    /// Event patterns it hears (`calendar.date.selected`, `todo.*`).
    public var subscribes: [String]
    /// Backend path prefixes it may call through the host (`/api/todo/items`).
    public var backend: [String]
    /// Whether it keeps state with the layout (`state.save`).
    public var keepsState: Bool
    /// What it may touch of the machine beyond its own folders (`permissions`).
    public var machine: MachineAccess = .none
    public var limits: Limits
    public var minimumSize: ViewSize
    /// Set for an app without the protocol: its command's output, sampled.
    public var sample: Sample?
    /// The settings it declares, which the user changes with `s` in arrange mode.
    public var settings: [Setting] = []

    public init(id: String, name: String, version: String, description: String = "",
                protocolVersion: ProtocolVersion? = .current, exec: [String], workingDirectory: String = ".",
                environment: [String] = [], publishes: [String] = [], subscribes: [String] = [], backend: [String] = [],
                keepsState: Bool = true, limits: Limits = Limits(), minimumSize: ViewSize = ViewSize(width: 10, height: 3),
                sample: Sample? = nil) {
        self.id = id
        self.name = name
        self.version = version
        self.description = description
        self.protocolVersion = protocolVersion
        self.exec = exec
        self.workingDirectory = workingDirectory
        self.environment = environment
        self.publishes = publishes
        self.subscribes = subscribes
        self.backend = backend
        self.keepsState = keepsState
        self.limits = limits
        self.minimumSize = minimumSize
        self.sample = sample
    }

    /// One setting an app declares (`settings:` in its manifest): a choice among values, or
    /// true/false.
    public struct Setting: Hashable, Sendable {
        public var name: String
        /// What it means, in the settings box (its name when empty).
        public var help: String
        public var choices: [String]
        public var defaultValue: String

        public init(name: String, help: String, choices: [String], defaultValue: String) {
            self.name = name
            self.help = help
            self.choices = choices
            self.defaultValue = defaultValue
        }
    }

    /// Its settings as the app reads them: each declared one with the pane's value, or its
    /// default; values the manifest does not declare (a layout's `config:`) as they are.
    public func settingValues(_ values: [String: String]) -> JSONValue {
        var merged = values
        for setting in settings where values[setting.name].map(setting.choices.contains) != true { merged[setting.name] = setting.defaultValue }
        return .object(merged.mapValues(JSONValue.string))
    }

    /// What the app asks to be granted.
    public var requested: Permissions {
        Permissions(publish: publishes, subscribe: subscribes, http: backend, state: keepsState, machine: machine)
    }

    /// The bounds an app runs within.
    public struct Limits: Hashable, Sendable {
        /// How long `initialize` may take to be answered.
        public var startupSeconds: Double = 5
        /// Heap and private mappings (RLIMIT_DATA).
        public var memoryBytes: Int = 512 * 1024 * 1024
        public var openFiles: Int = 64
        /// Processes and threads the app may run (RLIMIT_NPROC, which the kernel counts in the
        /// app's own user namespace; where it has none, beyond those its user ran when it started):
        /// a fork bomb stops there, and the user's other programs can still start.
        public var processes: Int = 256
        /// What it may keep in its own folders (its data and temporary folders together), as blocks
        /// on disk; also the largest file it may write anywhere (RLIMIT_FSIZE).
        public var diskBytes: Int = 256 * 1024 * 1024
        /// CPU seconds in all (RLIMIT_CPU); nil for none, as a long-running app adds up.
        public var cpuSeconds: Int?
        /// Publishes a second; the rest are dropped and reported as `canvas.app.throttled`.
        public var publishesPerSecond: Int = 20
        /// The largest state `state.save` may keep, as JSON.
        public var stateBytes: Int = 64 * 1024
        /// The app's log file (its stderr and `log` lines); the older half is dropped past it.
        public var logBytes: Int = 1024 * 1024

        public init() {}

        /// What the kernel holds a local app to, for its grant prompt and `apps list`: `at most
        /// 512 MiB of memory, 256 processes, 256 MiB kept in its folders, 64 open files`, then the
        /// CPU time when there is a limit.
        public var inWords: String {
            "at most \(ByteCount.words(memoryBytes)) of memory, \(processes) processes, \(ByteCount.words(diskBytes)) kept in its folders, "
                + "\(openFiles) open files" + (cpuSeconds.map { ", \($0) s of CPU time" } ?? "")
        }

        /// A trial run's (`apps new`): the host's, small and fixed, whatever the app's manifest
        /// asks for, since nobody has read its code yet.
        public static let trial: Limits = {
            var limits = Limits()
            limits.memoryBytes = 256 * 1024 * 1024
            limits.processes = 32
            limits.diskBytes = 32 * 1024 * 1024
            limits.openFiles = 64
            limits.cpuSeconds = 10
            limits.logBytes = 256 * 1024
            return limits
        }()
    }

    /// How a `sample:` app runs and shows its command.
    public struct Sample: Hashable, Sendable {
        public enum Show: String, Hashable, Sendable, CaseIterable {
            /// The output's lines.
            case text
            /// The first number of the output as a percentage, the rest of its first line as the label.
            case gauge
            /// The first number of each run, as a line of the last values.
            case sparkline
        }

        /// Seconds between runs; a run still going at the next one is killed.
        public var everySeconds: Double
        public var show: Show

        public init(everySeconds: Double, show: Show) {
            self.everySeconds = everySeconds
            self.show = show
        }
    }
}

extension AppManifest {
    /// The least memory (`limits.memory`) a runtime that reserves much at its start needs to start
    /// at all: below it, it hangs before answering `initialize`, with nothing on stderr. Measured
    /// with `termcanvas apps try` and the protocol document's Node.js app: Node 20 starts at 48MiB
    /// and hangs at 44MiB.
    static let runtimeMemoryFloors: [String: Int] = ["node": 48 << 20]

    /// Why the app may have failed to start, when its memory limit is below what its runtime
    /// needs: `its limits.memory (32MiB) is below the 64MiB node needs: raise it in its app.yaml`.
    public var memoryHint: String? {
        guard let program = exec.first.map({ String($0.split(separator: "/").last ?? "") }),
              let floor = Self.runtimeMemoryFloors[program], limits.memoryBytes < floor else { return nil }
        return "its limits.memory (\(limits.memoryBytes >> 20)MiB) is below the \(floor >> 20)MiB \(program) needs: raise it in its app.yaml"
    }
}
