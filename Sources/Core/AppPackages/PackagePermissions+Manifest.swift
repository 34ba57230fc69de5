import MicroAppProtocol
import ServerAPI

extension PackagePermissions {
    /// What `manifest` asks for: every field of it that gives the app anything.
    public init(_ manifest: AppManifest) {
        let machine = manifest.machine
        self.init(publish: manifest.publishes, subscribe: manifest.subscribes, http: manifest.backend, state: manifest.keepsState,
                  read: machine.read, write: machine.write, connect: machine.connect, run: machine.run, env: manifest.environment,
                  workdir: manifest.workingDirectory == "." ? nil : manifest.workingDirectory, limits: PackageResources(manifest.limits))
    }

    /// The manifest's fields this list is made from, and those that give an app nothing (who it
    /// is, how it is drawn, its code): `ManifestCapabilityTests` holds that every field of
    /// `AppManifest` is in one of them, so that a new one is placed before it is shipped.
    public static let manifestFields: Set<String> = ["publishes", "subscribes", "backend", "keepsState", "machine", "environment",
                                                     "workingDirectory", "limits"]
    public static let manifestFieldsGivingNothing: Set<String> = ["id", "name", "version", "description", "protocolVersion", "exec",
                                                                  "entry", "minimumSize", "sample", "settings"]

    /// The same permissions as the protocol's grant speaks of them.
    public var granted: Permissions {
        Permissions(publish: publish, subscribe: subscribe, http: http, state: state,
                    machine: MachineAccess(read: read, write: write, connect: connect, run: run))
    }

    /// Each permission in words, as the dashboard's grant prompt says them (empty for none).
    public var inWords: [String] {
        granted.inWords + (env.isEmpty ? [] : ["see the variables " + env.joined(separator: ", ")])
            + (workdir.map { ["run in " + $0] } ?? []) + (limits.map { [AppManifest.Limits($0).inWords] } ?? [])
    }
}

extension PackageResources {
    public init(_ limits: AppManifest.Limits) {
        self.init(memoryBytes: limits.memoryBytes, processes: limits.processes, diskBytes: limits.diskBytes, openFiles: limits.openFiles,
                  cpuSeconds: limits.cpuSeconds, startupSeconds: limits.startupSeconds, publishesPerSecond: limits.publishesPerSecond,
                  stateBytes: limits.stateBytes, logBytes: limits.logBytes)
    }
}

extension AppManifest.Limits {
    public init(_ resources: PackageResources) {
        self.init()
        memoryBytes = resources.memoryBytes
        processes = resources.processes
        diskBytes = resources.diskBytes
        openFiles = resources.openFiles
        cpuSeconds = resources.cpuSeconds
        startupSeconds = resources.startupSeconds
        publishesPerSecond = resources.publishesPerSecond
        stateBytes = resources.stateBytes
        logBytes = resources.logBytes
    }
}
