import AppPackages
import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import ServerAPI
import ServerHTTP
import ServerProxy
import ServerStore

/// `/api/registry/apps`: the micro-apps of this server, built in and remote. Anyone signed in
/// lists, searches and reads them and grants them to themselves; only admins publish and withdraw.
package struct RegistryController {
    let store: BFFStore
    let health: AppHealthMonitor
    let entries: EntryClient
    let answers: RegistryAnswerSigner

    package init(store: BFFStore, health: AppHealthMonitor, entries: EntryClient, answers: RegistryAnswerSigner) {
        self.store = store
        self.health = health
        self.entries = entries
        self.answers = answers
    }

    static let defaultPageSize = 50
    static let maximumPageSize = 200

    package func addRoutes(to group: RouterGroup<BFFRequestContext>) {
        group.get("apps", use: list)
        group.get("apps/{id}", use: detail)
        group.put("apps/{id}", use: publish)
        group.delete("apps/{id}", use: withdraw)
        group.put("apps/{id}/grant", use: grant)
        group.delete("apps/{id}/grant", use: revoke)
        group.post("apps/{id}/health", use: checkHealth)
    }

    @Sendable func list(_ request: Request, context: BFFRequestContext) async throws -> Response {
        let limit = try request.pageLimit(maximum: Self.maximumPageSize, default: Self.defaultPageSize)
        let cursor = try request.pageCursor { ManifestRules.isAppID($0) ? $0 : nil }
        let text = request.uri.queryParameters.get("q")
        if let text { try TextValidation.check(text, field: "q", lines: .single, length: 0...100) }
        let kind = try request.uri.queryParameters.get("kind").map { text in
            guard let kind = RegistryAppKind(rawValue: text) else {
                throw APIFailure.badRequest("must be one of \(RegistryAppKind.allCases.map(\.rawValue).joined(separator: ", "))", field: "kind")
            }
            return kind
        }
        // Packages only when asked for: a dashboard older than them could not read their kind.
        let packages = try request.uri.queryParameters.get("packages").map { text in
            guard let include = Bool(text) else { throw APIFailure.badRequest("must be true or false", field: "packages") }
            return include
        } ?? false
        let user = try context.authenticatedUser()
        let page = try await store.registryApps(matching: text, kind: kind, includingPackages: packages, after: cursor, limit: limit)
        return try .json(Page(items: page.items.map { $0.info(health: health(of: $0.id, seenBy: user)) },
                              next: page.more ? page.items.last?.id : nil))
    }

    /// Signed by the registry (`RegistryAnswerSignature`): what `apps install` and `apps update` decide on.
    @Sendable func detail(_ request: Request, context: BFFRequestContext) async throws -> Response {
        let user = try context.authenticatedUser()
        let id = try appID(context)
        guard let entry = try await store.registryApp(id) else { throw APIFailure.notFound }
        let body = Array(try JSONEncoder().encode(detail(of: entry, for: user)))
        let signature = try answers.sign(body, path: APIPath.registryApp(id), revision: RegistryAnswerSignature.revision(of: entry.versions))
        return Response(status: .ok, headers: [.contentType: "application/json; charset=utf-8",
                                               Self.answerSignatureField: String(decoding: try JSONEncoder().encode(signature), as: UTF8.self)],
                        body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }

    private static let answerSignatureField = HTTPField.Name(RegistryAnswerSignature.header)!

    @Sendable func publish(_ request: Request, context: BFFRequestContext) async throws -> Response {
        let user = try admin(context)
        // A publish names the app it makes: an id no app can have is the request's fault (400).
        guard let id = context.parameters.get("id"), ManifestRules.isAppID(id) else {
            throw APIFailure.badRequest("must be \(ManifestRules.appIDRule)", field: "id")
        }
        let published = try await request.decodeJSON(PublishRequest.self, context: context)
        let (version, entry) = try RegistryValidation.validate(published, id: id)
        do {
            try await entries.check(entry)
        } catch {
            throw APIFailure.badRequest("is not an address this server calls: \(error.reason)", field: "entry")
        }
        let outcome = try await store.publish(published.manifest, version: version, entry: entry, by: user,
                                              rotateSecrets: published.rotateSecrets == true, makeSecret: Self.makeSecret)
        guard case .published(let app, let created, let newSecrets) = outcome else {
            throw outcome.refusal(of: id, as: .remote) ?? APIFailure.conflict("was not published", field: nil)
        }
        Task { await health.check(app.id, entry: entry) }
        var answer = detail(of: app, for: user)
        if newSecrets { answer.secrets = app.secrets }
        return try .json(answer, status: created ? .created : .ok)
    }

    @Sendable func withdraw(_ request: Request, context: BFFRequestContext) async throws -> Response {
        let user = try admin(context)
        let id = try appID(context)
        switch try await store.withdraw(id, by: user) {
        case .notFound: throw APIFailure.notFound
        case .builtIn: throw APIFailure.conflict("'\(id)' is built into the server: leave it out of --apps", field: nil)
        case .withdrawn:
            health.forget(id)
            return Response(status: .noContent)
        }
    }

    @Sendable func grant(_ request: Request, context: BFFRequestContext) async throws -> Response {
        guard try await store.grant(try appID(context), to: context.userID()) else { throw APIFailure.notFound }
        return Response(status: .noContent)
    }

    @Sendable func revoke(_ request: Request, context: BFFRequestContext) async throws -> Response {
        guard try await store.revoke(try appID(context), from: context.userID()) else { throw APIFailure.notFound }
        return Response(status: .noContent)
    }

    /// Admins only: a check makes the server call the entry, and its answer says why it is down.
    @Sendable func checkHealth(_ request: Request, context: BFFRequestContext) async throws -> Response {
        _ = try admin(context, doing: "check an app's health")
        guard let app = try await store.registryApp(try appID(context)) else { throw APIFailure.notFound }
        guard let entry = app.entry else { return try .json(AppHealth.up) }
        return try .json(await health.check(app.id, entry: entry))
    }

    private func detail(of entry: RegistryEntry, for user: BFFUser) -> MicroAppDetail {
        MicroAppDetail(app: entry.info(health: health(of: entry.id, seenBy: user)), versions: entry.versions,
                       entry: user.isAdmin ? entry.entry?.absoluteString : nil)
    }

    private func appID(_ context: BFFRequestContext) throws -> String {
        guard let id = context.parameters.get("id"), ManifestRules.isAppID(id) else { throw APIFailure.notFound }
        return id
    }

    private func admin(_ context: BFFRequestContext, doing what: String = "publish or withdraw apps") throws -> BFFUser {
        let user = try context.authenticatedUser()
        guard user.isAdmin else {
            throw APIFailure(status: .forbidden, body: APIError(error: "only an admin may \(what) (termcanvas user add NAME --admin)"))
        }
        return user
    }

    /// The app's last known health; its reason for admins only.
    private func health(of id: String, seenBy user: BFFUser) -> AppHealth? {
        let known = health.health(of: id)
        return user.isAdmin ? known : known?.withoutReason
    }

    /// 256 random bits, in hex.
    private static func makeSecret() -> String {
        SymmetricKey(size: .bits256).withUnsafeBytes { bytes in Base16.encode(bytes) }
    }
}
