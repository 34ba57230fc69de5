import Foundation
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

    public init(manifest: AppManifest, folder: URL, digest: String, isShipped: Bool) {
        self.manifest = manifest
        self.folder = folder
        self.digest = digest
        self.isShipped = isShipped
    }

    public var id: String { manifest.id }
}
