import FoundationEssentials
import MicroAppProtocol
import ServerAPI

extension RegistryManifest {
    /// The registry's form of a remote app's `app.yaml`.
    public init(_ manifest: AppManifest) {
        self.init(id: manifest.id, name: manifest.name, version: manifest.version, description: manifest.description,
                  protocol: manifest.protocolVersion?.major ?? ProtocolVersion.current.major,
                  events: Events(publishes: manifest.publishes, subscribes: manifest.subscribes),
                  backend: manifest.backend, state: manifest.keepsState,
                  minSize: Size(width: manifest.minimumSize.width, height: manifest.minimumSize.height))
    }
}

extension AppManifest {
    /// The manifest of a remote app the registry lists. It runs elsewhere, reached through the
    /// server's proxy (whose entry URL only admins see), so it has no `exec` and no `entry` here.
    /// Its minimum size is held to the range a manifest file may give (1–500 × 1–200), whatever
    /// the server sent: the canvas sizes panes with it.
    public init(remote manifest: RegistryManifest) {
        self.init(id: manifest.id, name: manifest.name, version: manifest.version, description: manifest.description,
                  protocolVersion: ProtocolVersion(major: manifest.protocol, minor: 0), exec: [],
                  publishes: manifest.events.publishes, subscribes: manifest.events.subscribes, backend: manifest.backend,
                  keepsState: manifest.state,
                  minimumSize: ViewSize(width: min(max(manifest.minSize.width, 1), 500), height: min(max(manifest.minSize.height, 1), 200)))
    }
}
