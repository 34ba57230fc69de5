import Foundation
import MicroAppAPI

/// An app as the registry keeps it: every version, the current one's manifest and entry, and
/// (for a remote app) its secrets.
public struct RegistryEntry: Sendable, Equatable {
    let id: String
    let kind: RegistryAppKind
    let name: String
    let description: String
    let current: SemanticVersion
    /// The current version's; nil for a built-in app.
    let manifest: RegistryManifest?
    let entry: URL?
    let versions: [PublishedVersion]
    let secrets: AppSecrets?
}

/// What a publish did.
public enum PublishOutcome: Equatable, Sendable {
    /// Published; `created` says it was the app's first version, whose secrets were just made.
    case published(RegistryEntry, created: Bool)
    /// A version as new or newer is already published (or was, before a withdrawal).
    case notNewer(current: SemanticVersion)
    /// The id is a built-in app's.
    case builtIn
}

/// What a withdrawal did.
public enum WithdrawOutcome: Equatable, Sendable {
    case withdrawn
    /// No such app, or it is withdrawn already.
    case notFound
    /// The id is a built-in app's.
    case builtIn
}
