import FoundationEssentials
import MicroAppProtocol

/// A micro-app found on this machine: its manifest, the folder it was found in, and the digest
/// of its manifest file (a grant holds for that digest only).
public struct InstalledApp: Hashable, Sendable {
    public let manifest: AppManifest
    public let folder: URL
    /// SHA-256 of `app.yaml`, in hex.
    public let digest: String
    /// True for an app shipped with TermCanvas (the repository's `apps/`), false for the user's.
    public let isShipped: Bool
    /// True for a remote app of the server's registry: nothing of it is on this machine.
    public let isRemote: Bool
    /// Where it came from, when it was installed as a package.
    public let origin: PackageOrigin?

    public init(manifest: AppManifest, folder: URL, digest: String, isShipped: Bool, origin: PackageOrigin? = nil) {
        self.manifest = manifest
        self.folder = folder
        self.digest = digest
        self.isShipped = isShipped
        isRemote = false
        self.origin = origin
    }

    /// A remote app, as the registry describes it. Its grant holds for what it asks for (its
    /// "digest" spells that out): a new version asking for nothing more runs without asking again.
    public init(remote manifest: AppManifest) {
        self.manifest = manifest
        folder = URL(fileURLWithPath: "/")
        let asked = manifest.requested
        digest = ["remote", "publish=" + asked.publish.joined(separator: ","), "subscribe=" + asked.subscribe.joined(separator: ","),
                  "http=" + asked.http.joined(separator: ","), "state=\(asked.state)"].joined(separator: " ")
        isShipped = false
        isRemote = true
        origin = nil
    }

    public var id: String { manifest.id }
}
