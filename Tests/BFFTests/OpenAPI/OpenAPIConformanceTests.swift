@testable import BFF
import Foundation
import Logging
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import ServerAPI
@testable import ServerHTTP
@testable import ServerRoutes
import ServerSSO
import TestSupport
import Testing

/// The OpenAPI document served at `/openapi.yaml` and the server agree: the same routes, and every
/// operation answers with the status and body shape the document gives, for success and for the
/// documented failures (401 without a token, 404 for an unknown id, 400 for a missing field).
struct OpenAPIConformanceTests {
    /// One documented operation.
    struct Operation: CustomStringConvertible {
        let path: String
        let method: String
        let spec: JSONValue

        var description: String { "\(method.uppercased()) \(path)" }
        var isSecured: Bool { spec["security"]?.array?.isEmpty != true }
        /// Signed with an app's hook secret rather than a bearer token.
        var isSignedHook: Bool { spec["security"]?.array?.contains { $0["hookSignature"] != nil } == true }
        var documentedStatuses: [String] { (spec["responses"]?.object ?? [:]).keys.sorted() }
        var successStatus: Int? { documentedStatuses.compactMap(Int.init).filter { (200..<300).contains($0) }.min() }

        func response(_ status: Int) -> JSONValue? { spec["responses"]?["\(status)"] }
    }

    /// Operations in an order where each collection's POST comes before the paths below it use its
    /// new id, and every DELETE comes last, the deepest paths' first.
    static func operations(in document: JSONValue) -> [Operation] {
        let methods = ["post", "put", "get", "patch", "delete"]
        let all = (document["paths"]?.object ?? [:]).sorted { $0.key < $1.key }.flatMap { path, item in
            methods.compactMap { method -> Operation? in
                guard var spec = item[method] else { return nil }
                // Path-level parameters apply to every operation of the path.
                if case .object(var members) = spec, let shared = item["parameters"]?.array {
                    members["parameters"] = .array(shared + (spec["parameters"]?.array ?? []))
                    spec = .object(members)
                }
                return Operation(path: path, method: method, spec: spec)
            }
        }
        let deletes = all.filter { $0.method == "delete" }.sorted { left, right in
            let (l, r) = (left.path.split(separator: "/").count, right.path.split(separator: "/").count)
            return l != r ? l > r : left.path < right.path
        }
        return all.filter { $0.method != "delete" } + deletes
    }

    /// Single sign-on through a provider that does not answer (nothing listens on port 9): its
    /// routes are served, and what needs the provider says it could not be asked.
    static let singleSignOn = SingleSignOnSettings(issuer: "http://127.0.0.1:9/o", clientID: "tc-device")

    @Test func everyServerRouteIsDocumentedAndEveryDocumentedRouteExists() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        var configuration = harness.configuration()
        configuration.singleSignOn = Self.singleSignOn
        let served = try await harness.withStore { store in
            let router = buildRouter(store: store, issuer: await TokenIssuer(secret: BFFHarness.secret, lifetime: 60),
                                     configuration: configuration,
                                     registry: RegistryServices(store: store, configuration: configuration, signingSecret: BFFHarness.secret,
                                                                logger: Logger(label: "test")))
            return Set(router.routes.map { "\($0.method.rawValue) \($0.path)".replacingOccurrences(of: "//", with: "/") })
        }
        let document = try JSONValue.yaml(String(decoding: PackageResources.openapi_yaml, as: UTF8.self))
        let documented = Set(Self.operations(in: document).map { "\($0.method.uppercased()) \($0.path)" })
        #expect(served.subtracting(documented).isEmpty, "served but not documented: \(served.subtracting(documented).sorted())")
        #expect(documented.subtracting(served).isEmpty, "documented but not served: \(documented.subtracting(served).sorted())")
        #expect(documented.count >= 28)
    }

    @Test func everyOperationAnswersWithItsDocumentedShapes() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        // The document's own token example logs in as this user, an admin who may publish.
        try await TestEntry.application().test(.live) { entry in
            // The remote app the registry's `{id}` routes, the proxy and the webhook route are tried
            // on: an older version than the document's example, which publishes the next one.
            let manifest = RegistryManifest(id: "deploys", name: "Deploys", version: "0.9.0",
                                            events: .init(publishes: ["deploys.build.finished"]))
            let url = URL(string: "http://127.0.0.1:\(try #require(entry.port))/")!
            let secret = try await harness.withStore { store in
                let alice = try await store.addUser(name: "alice", password: "correct horse", isAdmin: true)
                // Who alice shares her canvas with (`{user}`).
                try await store.addUser(name: "bob", password: "battery staple", isAdmin: false)
                _ = try await store.publish(manifest, version: SemanticVersion("0.9.0")!, entry: url, by: alice, rotateSecrets: false,
                                            makeSecret: { "secret-\(UUID().uuidString)" })
                #expect(try await store.grant("deploys", to: alice.id))
                // The package the `versions`, `publishers` and `installs` paths are tried on.
                let archive = try PackageTests.archive(Conformance.package, version: "1.0.0")
                let package = try PackageController.upload(archive, id: Conformance.package,
                                                           signature: try PackageTests.signature(archive, id: Conformance.package))
                _ = try await store.publishPackage(package, by: alice)
                return try #require(try await store.registryApp("deploys")?.secrets?.hook)
            }
            var configuration = harness.configuration()
            configuration.singleSignOn = Self.singleSignOn
            let web = try await StaticWebServer()
            try web.serve(SubscriptionsTests.first, as: "holidays.ics")
            let radicale = try await Radicale(users: [CalDAVTests.ann])
            try await radicale.peer(CalDAVTests.ann, "make-calendar", "work", "Work")
            let connection = NewCalDAVConnection(url: radicale.url, user: CalDAVTests.ann.name, password: CalDAVTests.ann.password)
            try await harness.withServer(configuration: configuration) { client in
                let served = try await client.execute(uri: "/openapi.yaml", method: .get)
                #expect(served.status == .ok)
                #expect(served.headers[.contentType]?.hasPrefix("application/yaml") == true)
                let document = try JSONValue.yaml(String(buffer: served.body))
                #expect(document["openapi"]?.string?.hasPrefix("3.") == true)
                let token = try await client.send(.post, APIPath.authToken, json: TokenRequest(username: "alice", password: "correct horse"))
                    .decode(TokenResponse.self).token
                var conformance = Conformance(client: client, checker: SchemaChecker(document: document), token: token,
                                              knownIDs: [APIPath.registryApps: "deploys", "/api/apps": "deploys"],
                                              hook: ("deploys", secret),
                                              bodies: ["post \(APIPath.calendarSubscriptions)": #"{"url": "\#(web.url("holidays.ics"))"}"#,
                                                       "post \(APIPath.calendarCalDAV)": String(decoding: try JSONEncoder().encode(connection), as: UTF8.self)])
                for operation in Self.operations(in: document) {
                    try await conformance.check(operation)
                }
                #expect(conformance.checkedOperations == Self.operations(in: document).count)
            }
        }
    }
}
