import MicroAppProtocol
import ServerAPI

extension PackagePermissions {
    /// What `manifest` asks for.
    public init(_ manifest: AppManifest) {
        let machine = manifest.machine
        self.init(publish: manifest.publishes, subscribe: manifest.subscribes, http: manifest.backend, state: manifest.keepsState,
                  read: machine.read, write: machine.write, connect: machine.connect, run: machine.run)
    }

    /// The same permissions as the protocol's grant speaks of them.
    public var granted: Permissions {
        Permissions(publish: publish, subscribe: subscribe, http: http, state: state,
                    machine: MachineAccess(read: read, write: write, connect: connect, run: run))
    }

    /// Each permission in words, as the dashboard's grant prompt says them (empty for none).
    public var inWords: [String] { granted.inWords }
}
