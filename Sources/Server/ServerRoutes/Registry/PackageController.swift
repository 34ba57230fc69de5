import AppModel
import AppPackages
import CanvasFiles
import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import MicroAppProtocol
import ServerAPI
import ServerHTTP
import ServerStore

/// Packages in the registry (`/api/registry/apps/{id}/…`): micro-apps that run on the user's
/// machine, published as archives (`termcanvas apps publish`) and installed from here
/// (`termcanvas apps install`). Admins and the app's publishers publish and withdraw versions;
/// admins name the publishers; anyone signed in reads, downloads and records an install.
package struct PackageController {
    let store: BFFStore
    let marks: InstallMarks

    package init(store: BFFStore, marks: InstallMarks) {
        self.store = store
        self.marks = marks
    }

    package func addRoutes(to group: RouterGroup<BFFRequestContext>) {
        group.post("apps/{id}/versions", use: publish)
        group.get("apps/{id}/versions/{version}/archive", use: archive)
        group.delete("apps/{id}/versions/{version}", use: withdraw)
        group.get("apps/{id}/publishers", use: publishers)
        group.put("apps/{id}/publishers/{user}", use: addPublisher)
        group.delete("apps/{id}/publishers/{user}", use: removePublisher)
        group.post("apps/{id}/installs", use: recordInstall)
        group.get("suggestions", use: suggestions)
    }

    static let archiveType = "application/x-tar"

    /// Whether `request` publishes a package (`POST /api/registry/apps/{id}/versions`), whose body
    /// may be larger than other routes' (`PackageLimits.archiveBytes`).
    package static let isPublish: @Sendable (Request) -> Bool = { request in
        let parts = request.uri.path.split(separator: "/")
        return request.method == .post && parts.count == 5 && parts[0] == "api" && parts[1] == "registry" && parts[2] == "apps"
            && parts[4] == "versions"
    }

    /// The body is the archive itself, in its canonical form (`PackageArchive`); the server reads
    /// the manifest and the permissions from it, so the page shows what the app will ask for.
    @Sendable func publish(_ request: Request, context: BFFRequestContext) async throws -> Response {
        let user = try context.authenticatedUser()
        guard let id = context.parameters.get("id"), ManifestRules.isAppID(id) else {
            throw APIFailure.badRequest("must be \(ManifestRules.appIDRule)", field: "id")
        }
        // The right first: no one else's archive is read and parsed.
        guard try await store.mayPublishPackage(id, by: user) else { throw Self.refused(.notPublisher, id) }
        guard request.headers[.contentType]?.hasPrefix(Self.archiveType) == true else {
            throw APIFailure(status: .unsupportedMediaType, body: APIError(error: "the body must be a package's archive (\(Self.archiveType))"))
        }
        let signature = try Self.signature(request)
        let body = try await request.body.collect(upTo: PackageLimits.archiveBytes)
        let bytes = [UInt8](body.readableBytesView)
        let upload = try Self.upload(bytes, id: id, signature: signature)
        let outcome = try await store.publishPackage(upload, by: user)
        guard case .published(let app, let created, _) = outcome else { throw Self.refused(outcome, id) }
        return try .json(MicroAppDetail(app: app.info(health: nil), versions: app.versions), status: created ? .created : .ok)
    }

    private static func refused(_ outcome: PublishOutcome, _ id: String) -> APIFailure {
        outcome.refusal(of: id, as: .package) ?? APIFailure.conflict("was not published", field: nil)
    }

    private static let signatureField = HTTPField.Name(PackageSignature.header)!

    /// The publisher's signature the request carries, as sent (checked against the archive by `upload`).
    static func signature(_ request: Request) throws -> PackageSignature {
        guard let text = request.headers[signatureField] else {
            throw APIFailure.badRequest("must be signed by its publisher: termcanvas apps publish signs it (with a TermCanvas of "
                                        + "November 2026 or later)", field: PackageSignature.header)
        }
        guard text.utf8.count <= PackageSignature.maximumBytes,
              let signature = try? JSONDecoder().decode(PackageSignature.self, from: Data(text.utf8)) else {
            throw APIFailure.badRequest("must be a package signature as JSON, at most \(PackageSignature.maximumBytes) bytes",
                                        field: PackageSignature.header)
        }
        return signature
    }

    /// Whether `signature` is `key`'s of `message`, by swift-crypto.
    static let check: SignatureCheck = { signature, message, key in
        (try? Curve25519.Signing.PublicKey(rawRepresentation: key.bytes))?.isValidSignature(signature, for: message) ?? false
    }

    /// What the archive holds, checked: canonical, its manifest a process app's of this id, signed
    /// by the key the signature names.
    static func upload(_ bytes: [UInt8], id: String, signature: PackageSignature) throws -> PackageUpload {
        let archive: PackageArchive
        do {
            archive = try PackageArchive(decoding: bytes)
        } catch {
            throw APIFailure.badRequest(error.description, field: "archive")
        }
        let manifest: AppManifest
        do {
            manifest = try AppManifestFile.parse(String(decoding: archive.manifest, as: UTF8.self), file: PackageArchive.manifestPath)
        } catch let errors as FileErrors {
            throw APIFailure.badRequest(errors.errors.map(\.description).joined(separator: "; "), field: "archive")
        } catch {
            throw APIFailure.badRequest("\(error)", field: "archive")
        }
        guard manifest.entry == nil else {
            throw APIFailure.badRequest("has entry:, so it is a remote app: publish it with its entry (termcanvas apps publish)", field: "archive")
        }
        let published = RegistryManifest(manifest)
        let version = try RegistryValidation.validate(published, id: id)
        let digest = Base16.encode(SHA256.hash(data: bytes))
        // Whose key it is the server cannot know; that it signed this archive as this version, it can.
        guard case .firstUse = PublisherTrust(signature, id: id, version: version.description, digest: digest, pinned: nil, check: check) else {
            throw APIFailure.badRequest("is not its key's signature of \(id) \(version) with this archive", field: PackageSignature.header)
        }
        return PackageUpload(manifest: published, version: version, archive: Data(bytes), digest: digest,
                             permissions: PackagePermissions(manifest), signature: signature)
    }

    @Sendable func archive(_ request: Request, context: BFFRequestContext) async throws -> Response {
        _ = try context.authenticatedUser()
        let (id, version) = try Self.version(context)
        // Served as stored: the client checks it against the digest of the page it showed.
        guard let archive = try await store.packageArchive(id, version: version) else { throw APIFailure.notFound }
        return Response(status: .ok, headers: [.contentType: Self.archiveType], body: .init(byteBuffer: ByteBuffer(bytes: archive)))
    }

    @Sendable func withdraw(_ request: Request, context: BFFRequestContext) async throws -> Response {
        let user = try context.authenticatedUser()
        let (id, version) = try Self.version(context)
        switch try await store.withdrawPackageVersion(id, version: version, by: user) {
        case .withdrawn: return Response(status: .noContent)
        case .notFound: throw APIFailure.notFound
        case .notPublisher:
            throw APIFailure(status: .forbidden, body: APIError(error: "only an admin or a publisher of \(id) may withdraw its versions"))
        }
    }

    @Sendable func publishers(_ request: Request, context: BFFRequestContext) async throws -> Response {
        _ = try context.authenticatedUser()
        return try .json(try await store.publishers(of: try Self.appID(context)))
    }

    @Sendable func addPublisher(_ request: Request, context: BFFRequestContext) async throws -> Response {
        let (admin, user, id) = try await publisherChange(context)
        return Response(status: try await store.addPublisher(user, of: id, by: admin) ? .created : .noContent)
    }

    @Sendable func removePublisher(_ request: Request, context: BFFRequestContext) async throws -> Response {
        let (admin, user, id) = try await publisherChange(context)
        guard try await store.removePublisher(user, of: id, by: admin) else { throw APIFailure.notFound }
        return Response(status: .noContent)
    }

    @Sendable func recordInstall(_ request: Request, context: BFFRequestContext) async throws -> Response {
        let (id, user) = (try Self.appID(context), try context.userID())
        guard try await store.recordInstall(of: id, mark: marks.mark(user: user, app: id)) else { throw APIFailure.notFound }
        return Response(status: .noContent)
    }

    @Sendable func suggestions(_ request: Request, context: BFFRequestContext) async throws -> Response {
        let (user, marks) = (try context.userID(), marks)
        return try .json(try await store.suggestions(for: user) { marks.mark(user: user, app: $0) })
    }

    /// The admin making the change, the user it is about, and the app.
    private func publisherChange(_ context: BFFRequestContext) async throws -> (BFFUser, BFFUser, String) {
        let admin = try context.authenticatedUser()
        guard admin.isAdmin else {
            throw APIFailure(status: .forbidden, body: APIError(error: "only an admin may name an app's publishers (termcanvas user add NAME --admin)"))
        }
        let id = try Self.appID(context)
        guard let name = context.parameters.get("user"), let user = try await store.user(named: name) else {
            throw APIFailure(status: .notFound, body: APIError(error: "no user of that name on this server", field: "user"))
        }
        return (admin, user, id)
    }

    private static func appID(_ context: BFFRequestContext) throws -> String {
        guard let id = context.parameters.get("id"), ManifestRules.isAppID(id) else { throw APIFailure.notFound }
        return id
    }

    private static func version(_ context: BFFRequestContext) throws -> (String, String) {
        guard let version = context.parameters.get("version"), SemanticVersion(version) != nil else { throw APIFailure.notFound }
        return (try appID(context), version)
    }
}
