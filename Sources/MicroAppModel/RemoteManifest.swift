import Foundation
import MicroAppAPI
import MicroAppProtocol

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
    public init(remote manifest: RegistryManifest) {
        self.init(id: manifest.id, name: manifest.name, version: manifest.version, description: manifest.description,
                  protocolVersion: ProtocolVersion(major: manifest.protocol, minor: 0), exec: [],
                  publishes: manifest.events.publishes, subscribes: manifest.events.subscribes, backend: manifest.backend,
                  keepsState: manifest.state, minimumSize: ViewSize(width: manifest.minSize.width, height: manifest.minSize.height))
    }
}
