import CanvasUI
import AppModel
import AppPackages
import CanvasFiles
import CommandSupport
import FoundationEssentials
import HTTPClient
import LayoutStore
import MicroAppHost
import MicroAppProtocol
import PlainText
import PrivateFiles
import ServerAPI

/// A package as a registry's page shows it: the version offered and what it asks for.
package struct PackagePage: Sendable {
    package let registry: Registry
    package let app: MicroAppInfo
    package let version: String
    /// Who published it and when, where the page says.
    package let published: PublishedVersion?
    package let package: PackageVersion

    package var id: String { app.id }

    /// The registry's listing of a package's current version, as the catalog has it; nil for
    /// another kind of app, or a listing that is not a package's (`isWellFormed`).
    package init?(_ app: MicroAppInfo, in registry: Registry) {
        guard app.kind == .package, let package = app.package, Self.isWellFormed(app, version: app.version, package) else { return nil }
        self.init(registry: registry, app: app, version: app.version, published: nil, package: package)
    }

    /// Whether what a server says of a package can be one: an app id, a semantic version, a
    /// digest of 64 hex digits, a size a package may have. What is not is never shown or asked for.
    package static func isWellFormed(_ app: MicroAppInfo, version: String, _ package: PackageVersion) -> Bool {
        ManifestRules.isAppID(app.id) && SemanticVersion(version) != nil && (1...PackageLimits.archiveBytes).contains(package.size)
            && package.digest.utf8.count == 64 && package.digest.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    private init(registry: Registry, app: MicroAppInfo, version: String, published: PublishedVersion?, package: PackageVersion) {
        self.registry = registry
        self.app = app
        self.version = version
        self.published = published
        self.package = package
    }

    /// The page in words, as `apps install` shows it before it asks.
    package var lines: [String] {
        var lines = ["\(app.id) \(version): \(app.name)"]
        if let warning = SandboxSupport.current.warning { lines.append("  " + warning) }
        if !app.description.isEmpty { lines.append("  \(app.description)") }
        let by = published.map { ", published by \($0.publishedBy ?? "the server") on \($0.publishedAt.prefix(10))" } ?? ""
        lines.append("  from \(registry.name)\(by)")
        lines.append("  digest sha256:\(package.digest) (\(ByteCount.words(package.size)))")
        let asks = package.permissions.inWords
        lines.append(asks.isEmpty ? "  it asks for nothing of yours" : "  it asks to:")
        lines += asks.map { "    " + $0 }
        return lines.map(TerminalText.safe)
    }

    /// The page of `id` at `version` (the current one without it) in `registry`; nil when the
    /// registry has no package of that id (another kind of app with it is not one).
    /// - Throws: `CommandError` for a version it does not have or withdrew, a page that is not a
    ///   package's, or a server that cannot be asked.
    /// - Parameters:
    ///   - version: the version asked for; nil for the one offered by default (`offered(in:pre:)`).
    ///   - client: how the registry is reached.
    ///   - answers: what this user keeps of the registries' answers, which checks this one.
    package static func fetch(_ id: String, version: String?, pre: Bool = false, from registry: Registry,
                              client: HTTPClient, answers: RegistryAnswers) async throws -> PackagePage? {
        guard let detail = try await answers.detail(of: id, in: registry, client: client) else { return nil }
        return try page(of: id, version: version, pre: pre, in: detail, from: registry)
    }

    /// The page of `id` at `version` in `detail`, the registry's answer about it, as `fetch` reads it.
    package static func page(of id: String, version: String?, pre: Bool = false, in detail: MicroAppDetail,
                     from registry: Registry) throws -> PackagePage? {
        guard detail.app.kind == .package else { return nil }
        let wanted = version ?? offered(in: detail, pre: pre)?.description ?? detail.app.version
        guard let published = detail.versions.first(where: { $0.version == wanted }), let package = published.package else {
            let offered = detail.versions.filter { $0.withdrawnAt == nil }.map(\.version).joined(separator: ", ")
            throw CommandError(TerminalText.safe("\(registry.name) has no version \(wanted) of \(id) (it has \(offered))"))
        }
        guard published.withdrawnAt == nil else {
            throw CommandError(TerminalText.safe("\(id) \(wanted) was withdrawn from \(registry.name) on "
                                                 + "\(published.withdrawnAt?.prefix(10) ?? ""); the current version is \(detail.app.version)"))
        }
        guard detail.app.id == id, Self.isWellFormed(detail.app, version: wanted, package) else {
            throw CommandError("\(registry.name)'s page of \(id) is not a package's (its id, version, digest or size cannot be one); nothing was installed")
        }
        return PackagePage(registry: registry, app: detail.app, version: wanted, published: published, package: package)
    }

    /// The version a package offers without one named: its newest release (whatever a registry
    /// calls current, which an older server may let be a pre-release), or with `pre` its newest
    /// of all, pre-releases included.
    package static func offered(in detail: MicroAppDetail, pre: Bool) -> SemanticVersion? {
        let versions = detail.versions.filter { $0.withdrawnAt == nil }.compactMap { SemanticVersion($0.version) }
        return pre ? versions.max() : SemanticVersion.current(of: versions)
    }
}

/// Downloads, checks and installs a package's version into the user's apps folder.
package struct PackageInstaller {
    package let paths: Paths

    package init(paths: Paths) {
        self.paths = paths
    }

    /// Installs `page`'s version from its registry (`client`), recording its origin; grants it
    /// what its page showed when `grant` (the user said yes to exactly that). Counted at the
    /// registry (never by whom).
    /// - Throws: `CommandError` when the download does not match the page: another digest, not a
    ///   package, another id or version, or other permissions than the page showed. Nothing is
    ///   installed then.
    /// - Parameter publisherKey: the publisher's key to keep for later versions (`PublisherCheck`).
    package func install(_ page: PackagePage, from client: HTTPClient, grant: Bool, publisherKey: PublicKey?) async throws -> InstalledApp {
        let response: HTTPClient.Response
        do {
            response = try await client.send(HTTPClient.Request(.get, APIPath.registryArchive(page.id, page.version)))
        } catch {
            throw CommandError(explaining: error, doing: "download \(page.id) \(page.version)")
        }
        let archive = try Self.check(response.body, against: page)
        let app = try swapIn(archive, page: page, publisherKey: publisherKey)
        if grant {
            try LayoutStore.open(at: paths.layoutDatabase).store.grant(app: app.id, digest: SandboxSupport.current.grantDigest(of: app))
        }
        _ = try? await client.send(HTTPClient.Request(.post, APIPath.registryInstalls(page.id)))
        RunningDashboards.tellAppsChanged(paths: paths)
        return app
    }

    /// The archive, when `bytes` are exactly what the page describes.
    package static func check(_ bytes: [UInt8], against page: PackagePage) throws -> PackageArchive {
        let name = TerminalText.safe("\(page.id) \(page.version) from \(page.registry.name)")
        let digest = SHA256Digest.hex(of: bytes)
        guard digest == page.package.digest else {
            throw CommandError("refused \(name): its page says digest sha256:\(page.package.digest), but the archive downloaded has "
                               + "sha256:\(digest). It was changed on the server or on the way; nothing was installed. Tell the registry's admin.")
        }
        let archive: PackageArchive
        do {
            archive = try PackageArchive(decoding: bytes)
        } catch {
            throw CommandError("refused \(name): \(TerminalText.safe(error.description)); nothing was installed")
        }
        let manifest: AppManifest
        do {
            manifest = try AppManifestFile.parse(String(decoding: archive.manifest, as: UTF8.self), file: "\(page.id)/\(PackageArchive.manifestPath)")
        } catch {
            throw CommandError("refused \(name): its app.yaml cannot be read (\(TerminalText.safe("\(error)"))); nothing was installed")
        }
        guard manifest.id == page.id, manifest.version == page.version, manifest.entry == nil, page.id == page.app.id else {
            throw CommandError("refused \(name): its app.yaml says \(TerminalText.safe("\(manifest.id) \(manifest.version)")); nothing was installed")
        }
        var asked = PackagePermissions(manifest)
        // A page of a server older than limits shows none: the default limits are what it means.
        if page.package.permissions.limits == nil, asked.limits == PackageResources(AppManifest.Limits()) { asked.limits = nil }
        guard asked == page.package.permissions else {
            throw CommandError("refused \(name): its app.yaml asks for other permissions than its page shows; nothing was installed")
        }
        return archive
    }

    /// Swaps the app in (`AppSwap`) and records where it came from.
    private func swapIn(_ archive: PackageArchive, page: PackagePage, publisherKey: PublicKey?) throws -> InstalledApp {
        let folders = AppFolders.standard(configDirectory: paths.configDirectory, executable: Paths.executable)
        let target = try AppSwap.install(page.id, in: paths.appsDirectory) { try PackageFolder.write(archive, to: $0) }
        let origin = PackageOrigin(registry: page.registry.key, version: page.version, digest: page.package.digest,
                                   installedAt: Date().formatted(.iso8601), publisherKey: publisherKey?.base64)
        try Self.record(origin, of: page.id, in: folders)
        return try AppFolders.read(target, isShipped: false, origin: origin)
    }

    /// An install's failure in our words: a command's own message, or what could not be written.
    package static func words(_ error: any Error) -> String {
        if let error = error as? CommandError { return error.description }
        if let error = error as? HTTPClientError { return CommandError(explaining: error, doing: "reach the registry").description }
        return "could not write the app's files in your apps folder; check that it is yours and that the disk has room"
    }

    /// Writes (or, for nil, removes) the record of where app `id` came from.
    package static func record(_ origin: PackageOrigin?, of id: String, in folders: AppFolders) throws {
        let file = folders.originFile(of: id)
        guard let origin else {
            try? FileManager.default.removeItem(at: file)
            return
        }
        try PrivatePath.makeDirectory(file.deletingLastPathComponent())
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try PrivateFile.write(String(decoding: try encoder.encode(origin), as: UTF8.self) + "\n", to: file)
    }
}
