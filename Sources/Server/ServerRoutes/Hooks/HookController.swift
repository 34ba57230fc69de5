import Foundation
import Hummingbird
import ServerAPI
import ServerHTTP
import ServerStore

/// `POST /api/hooks/{app}`: an outside system (a CI, a monitoring system) sends a remote app's
/// event, signed with the app's hook secret (`HookSignature`), instead of a bearer token. The event
/// must be one the app's manifest publishes. It is stored at once and then delivered to the live
/// streams of every user the app is granted to (`HookDeliverer`).
package struct HookController {
    let store: BFFStore
    let deliverer: HookDeliverer

    package init(store: BFFStore, deliverer: HookDeliverer) {
        self.store = store
        self.deliverer = deliverer
    }

    package func addRoutes(to router: Router<BFFRequestContext>) {
        router.post("api/hooks/{app}", use: receive)
    }

    @Sendable func receive(_ request: Request, context: BFFRequestContext) async throws -> Response {
        guard let id = context.parameters.get("app"), ManifestRules.isAppID(id),
              let app = try await store.registryApp(id), let secrets = app.secrets, let manifest = app.manifest else {
            throw APIFailure.notFound
        }
        let body = try await request.body.collect(upTo: context.maxUploadSize)
        let bytes = Data(buffer: body)
        // After a rotation the previous secret signs too, for a while (a CI mid-deploy).
        let now = Date()
        let valid = [secrets.hook] + (app.stillValidPreviousSecrets(at: now).map { [$0.hook] } ?? [])
        let verdicts = valid.map { secret in
            HookSignature.verify(bytes, signature: request.headers[HookSignature.header],
                                 timestamp: request.headers[HookSignature.timestampHeader], secret: secret, now: now)
        }
        let mac: String
        switch verdicts.first(where: { if case .success = $0 { true } else { false } }) ?? verdicts[0] {
        case .success(let verified): mac = verified
        case .failure(let problem): throw APIFailure(status: .unauthorized, body: APIError(error: problem.message, field: nil))
        }
        let (event, data) = try Self.parse(bytes, publishes: manifest.events.publishes)
        // The receipt is keyed on the MAC itself, the one spelling a signature can have.
        guard let queued = try await store.acceptHook(app: app.id, signature: "sha256=" + mac, event: event, data: data) else {
            throw APIFailure(status: .unauthorized, body: APIError(error: "this signature was used before: a replay", field: nil))
        }
        deliverer.wake()
        return try .json(HookAccepted(id: queued), status: .accepted)
    }

    /// `{"event": NAME, "data": ANY}`: the name, and the data as JSON text (`{}` without).
    static func parse(_ body: Data, publishes: [String]) throws -> (String, String) {
        guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any] else {
            throw APIFailure.badRequest("body must be a JSON object", field: nil)
        }
        guard let event = object["event"] as? String else { throw APIFailure.badRequest("is required, a string", field: "event") }
        guard publishes.contains(event) else {
            throw APIFailure.badRequest("must be an event the app's manifest publishes (\(publishes.joined(separator: ", ")))", field: "event")
        }
        let data = object["data"] ?? [String: Any]()
        let json = try JSONSerialization.data(withJSONObject: data, options: [.fragmentsAllowed, .withoutEscapingSlashes])
        return (event, String(decoding: json, as: UTF8.self))
    }
}
