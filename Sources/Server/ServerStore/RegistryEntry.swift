import CanvasCore
import Foundation
import ServerAPI

/// An app as the registry keeps it: every version, the current one's manifest and entry, and
/// (for a remote app) its secrets.
package struct RegistryEntry: Sendable, Equatable, Codable {
    package let id: String
    let kind: RegistryAppKind
    let name: String
    let description: String
    let current: SemanticVersion
    /// The current version's; nil for a built-in app.
    package let manifest: RegistryManifest?
    package let entry: URL?
    package let versions: [PublishedVersion]
    package let secrets: AppSecrets?
    /// The secrets before the last rotation, and when it was: still valid for
    /// `AppSecrets.rotationOverlap` after it, so a CI or an entry mid-deploy is not cut off.
    let previousSecrets: AppSecrets?
    let secretsRotatedAt: Date?
    /// A package's installs: how many users recorded one.
    let installs: Int?

    /// The previous secrets while they are still valid at `now`.
    package func stillValidPreviousSecrets(at now: Date) -> AppSecrets? {
        guard let previousSecrets, let secretsRotatedAt, now.timeIntervalSince(secretsRotatedAt) < AppSecrets.rotationOverlap else {
            return nil
        }
        return previousSecrets
    }
}

/// What a publish did.
package enum PublishOutcome: Equatable, Sendable, Codable {
    /// Published; `created` says the app was new, `newSecrets` that its secrets were just made
    /// (its first publish, a publish after a withdrawal, or a rotation): the answer shows them, once.
    case published(RegistryEntry, created: Bool, newSecrets: Bool)
    /// A version as new or newer is already published (or was, before a withdrawal).
    case notNewer(current: SemanticVersion)
    /// Its major version is more than `SemanticVersion.largestMajorStep` past the newest's.
    case tooFarAhead(newest: SemanticVersion)
    /// The id is a built-in app's.
    case builtIn
    /// The id is an app of another kind's (a remote app's, a package's).
    case otherKind(RegistryAppKind)
    /// The user is neither an admin nor a publisher of this package.
    case notPublisher
}

/// What a withdrawal did.
package enum WithdrawOutcome: Equatable, Sendable, Codable {
    case withdrawn
    /// No such app, or it is withdrawn already.
    case notFound
    /// The id is a built-in app's.
    case builtIn
}

extension RegistryEntry {
    /// A registry row as both engines keep it (its versions, manifests among them, are `StoredVersion`s).
    struct StoredApp {
        let id: String
        let kind: String
        let name: String
        let description: String
        let currentVersion: String
        let hookSecret: String?
        let entrySecret: String?
        let previousHookSecret: String?
        let previousEntrySecret: String?
        /// Seconds since 1970.
        let secretsRotatedAt: Double?
        /// The users who recorded an install (packages).
        let installs: Int64
    }

    /// A row of an app's versions.
    struct StoredVersion {
        let version: String
        let manifest: String?
        let entry: String?
        let publishedAt: String
        let publishedBy: String?
        /// A package's: its archive's digest, size and permissions (JSON), and its withdrawal.
        let digest: String?
        let size: Int64?
        let permissions: String?
        let withdrawnAt: String?
        /// The publisher's signature (JSON); nil for a version published before packages were signed.
        let signature: String?

        /// The package's version, when this is one.
        func package() throws -> PackageVersion? {
            guard let digest, let size, let permissions else { return nil }
            return PackageVersion(digest: digest, size: Int(clamping: size),
                                  permissions: try JSONDecoder().decode(PackagePermissions.self, from: Data(permissions.utf8)),
                                  signature: try signature.map { try JSONDecoder().decode(PackageSignature.self, from: Data($0.utf8)) })
        }
    }

    /// The entry the rows make, newest version first; nil when they are not rows this server wrote
    /// (an unknown kind, a current version that does not parse).
    init?(_ app: StoredApp, versions: [StoredVersion]) throws {
        guard let kind = RegistryAppKind(rawValue: app.kind), let current = SemanticVersion(app.currentVersion) else { return nil }
        let sorted = versions.compactMap { row in SemanticVersion(row.version).map { ($0, row) } }.sorted { $0.0 > $1.0 }
        let currentRow = sorted.first { $0.0 == current }?.1
        let manifest = try currentRow?.manifest.map { try JSONDecoder().decode(RegistryManifest.self, from: Data($0.utf8)) }
        let secrets: AppSecrets? = if let hook = app.hookSecret, let entry = app.entrySecret { AppSecrets(hook: hook, entry: entry) } else { nil }
        let previous: AppSecrets? = if let hook = app.previousHookSecret, let entry = app.previousEntrySecret {
            AppSecrets(hook: hook, entry: entry)
        } else {
            nil
        }
        self.init(
            id: app.id, kind: kind, name: app.name, description: app.description, current: current, manifest: manifest,
            entry: currentRow?.entry.flatMap(URL.init(string:)),
            versions: try sorted.map { version, row in
                PublishedVersion(version: version.description, publishedAt: row.publishedAt, publishedBy: row.publishedBy,
                                 package: try row.package(), withdrawnAt: row.withdrawnAt)
            },
            secrets: secrets, previousSecrets: previous, secretsRotatedAt: app.secretsRotatedAt.map(Date.init(timeIntervalSince1970:)),
            installs: kind == .package ? Int(clamping: app.installs) : nil)
    }
}

extension RegistryEntry {
    /// A `LIKE … ESCAPE '\'` pattern matching text that contains `text`, its wildcards taken literally.
    static func containsPattern(_ text: String) -> String {
        let escaped = text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%")
            .replacingOccurrences(of: "_", with: "\\_")
        return "%" + escaped + "%"
    }
}

extension RegistryEntry {
    /// The app as the registry lists it, with its health (nil: not checked, or built in).
    /// A package's version as lists show it: without its signature, which its page's versions
    /// carry (`apps install` reads it there, signed by the registry), so a list of many packages
    /// is not made of signatures no one checks there.
    private static func unsigned(_ package: PackageVersion) -> PackageVersion {
        var listed = package
        listed.signature = nil
        return listed
    }

    package func info(health: AppHealth?) -> MicroAppInfo {
        switch kind {
        case .builtin:
            var info = ServerApp(rawValue: id)?.info ?? MicroAppInfo(id: id, name: name, version: current.description,
                                                                     description: description, basePath: "/api/\(id)", events: [])
            info.health = .up
            return info
        case .remote:
            return MicroAppInfo(id: id, name: name, version: current.description, description: description,
                                basePath: APIPath.appProxy(id), events: manifest?.events.publishes ?? [], kind: .remote,
                                health: health ?? AppHealth(state: .unknown), manifest: manifest)
        case .package:
            return MicroAppInfo(id: id, name: name, version: current.description, description: description, basePath: "",
                                events: manifest?.events.publishes ?? [], kind: .package, manifest: manifest,
                                package: versions.first { $0.version == current.description }?.package.map(Self.unsigned), installs: installs)
        }
    }
}

/// `{"id": "deploys"}`: the data of `registry.app.withdrawn`.
struct DeletedApp: Codable, Sendable {
    let id: String
}
