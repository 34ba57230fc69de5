import BFF
import Foundation
import HummingbirdTesting
import ServerAPI
import Testing

@Suite("BFF registry (/api/registry/apps)")
struct RegistryTests {
    static func manifest(_ id: String = "deploys", version: String, name: String = "Deploys",
                         description: String = "Builds and deploys") -> RegistryManifest {
        RegistryManifest(id: id, name: name, version: version, description: description,
                         events: .init(publishes: ["\(id).build.finished"], subscribes: ["calendar.date.selected"]),
                         minSize: .init(width: 30, height: 6))
    }

    static func publish(_ client: some TestClientProtocol, token: String, _ manifest: RegistryManifest,
                        entry: String = "http://127.0.0.1:9/") async throws -> TestResponse {
        try await client.send(.put, APIPath.registryApp(manifest.id), token: token, json: PublishRequest(manifest: manifest, entry: entry))
    }

    @Test("an admin publishes: the first version makes the app and its secrets, newer ones follow, newest first")
    func publishAndVersions() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addAdmins("root")
        try await harness.addUsers("ann")
        try await harness.withServer { client in
            let root = try await client.token(for: "root")
            let ann = try await client.token(for: "ann")
            let first = try await Self.publish(client, token: root, Self.manifest(version: "1.0.0"))
            #expect(first.status == .created)
            let created = try first.decode(MicroAppDetail.self)
            let secrets = try #require(created.secrets)
            #expect(secrets.hook.count == 64 && secrets.entry.count == 64 && secrets.hook != secrets.entry)
            #expect(created.app.kind == .remote && created.app.version == "1.0.0" && created.app.basePath == "/api/apps/deploys")

            let second = try await Self.publish(client, token: root, Self.manifest(version: "1.1.0-rc.1"))
            #expect(second.status == .ok)
            #expect(try second.decode(MicroAppDetail.self).secrets == nil)
            let third = try await Self.publish(client, token: root, Self.manifest(version: "1.1.0", name: "Deploys 2"))
            #expect(third.status == .ok)

            let detail = try await client.send(.get, APIPath.registryApp("deploys"), token: ann).decode(MicroAppDetail.self)
            #expect(detail.versions.map(\.version) == ["1.1.0", "1.1.0-rc.1", "1.0.0"])
            #expect(detail.versions.allSatisfy { $0.publishedBy == "root" })
            #expect(detail.app.version == "1.1.0" && detail.app.name == "Deploys 2")
            #expect(detail.app.manifest?.events.publishes == ["deploys.build.finished"])
            #expect(detail.entry == nil, "only admins see the entry")
            #expect(detail.secrets == nil)
            let asAdmin = try await client.send(.get, APIPath.registryApp("deploys"), token: root).decode(MicroAppDetail.self)
            #expect(asAdmin.entry == "http://127.0.0.1:9/")
        }
    }

    @Test("an older or equal version is refused (409 naming manifest.version), also after a withdrawal")
    func noDowngrade() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addAdmins("root")
        try await harness.withServer { client in
            let root = try await client.token(for: "root")
            #expect(try await Self.publish(client, token: root, Self.manifest(version: "2.0.0")).status == .created)
            for version in ["2.0.0", "1.9.9", "2.0.0-rc.1", "2.0.0+build.7"] {
                let refused = try await Self.publish(client, token: root, Self.manifest(version: version))
                #expect(refused.status == .conflict, "\(version)")
                #expect(refused.apiError?.field == "manifest.version")
                #expect(refused.apiError?.error.contains("2.0.0") == true)
            }
            #expect(try await client.send(.delete, APIPath.registryApp("deploys"), token: root).status == .noContent)
            #expect(try await Self.publish(client, token: root, Self.manifest(version: "2.0.0")).status == .conflict)
            // A newer one brings it back.
            #expect(try await Self.publish(client, token: root, Self.manifest(version: "2.0.1")).status == .ok)
            #expect(try await client.send(.get, APIPath.registryApp("deploys"), token: root).status == .ok)
        }
    }

    @Test("only admins write: a user's publish and withdrawal are 403, and change nothing")
    func adminOnly() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addAdmins("root")
        try await harness.addUsers("ann")
        try await harness.withServer { client in
            let root = try await client.token(for: "root")
            let ann = try await client.token(for: "ann")
            let refused = try await Self.publish(client, token: ann, Self.manifest(version: "1.0.0"))
            #expect(refused.status == .forbidden)
            #expect(try await client.send(.get, APIPath.registryApp("deploys"), token: ann).status == .notFound)
            #expect(try await Self.publish(client, token: root, Self.manifest(version: "1.0.0")).status == .created)
            #expect(try await client.send(.delete, APIPath.registryApp("deploys"), token: ann).status == .forbidden)
            #expect(try await client.send(.get, APIPath.registryApp("deploys"), token: ann).status == .ok)
        }
    }

    @Test("an app's health reason (an internal host's words) reaches admins only; only admins trigger a check")
    func healthReasonsAreForAdmins() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addAdmins("root")
        try await harness.addUsers("ann")
        try await harness.withServer { client in
            let port = try #require(client.port)
            let root = try await client.token(for: "root")
            let ann = try await client.token(for: "ann")
            let stream = try SSEReader(port: port, token: ann)
            _ = try await stream.readHead()
            // Nothing listens on port 9: the publish's own check finds it down, "unreachable".
            #expect(try await Self.publish(client, token: root, Self.manifest(version: "1.0.0")).status == .created)
            let events = try await stream.events(2)
            #expect(events.map(\.name) == ["registry.app.published", "registry.app.health"])
            let event = try #require(events.last)
            let heard = try JSONDecoder().decode(AppHealthChange.self, from: Data(event.data.utf8))
            #expect(heard.health.state == .down && heard.health.reason == nil)

            let seenByAnn = try await client.send(.get, APIPath.registryApp("deploys"), token: ann).decode(MicroAppDetail.self)
            #expect(seenByAnn.app.health?.state == .down && seenByAnn.app.health?.reason == nil)
            let listed = try await client.send(.get, APIPath.registryApps, token: ann).decode(Page<MicroAppInfo>.self)
            #expect(listed.items.allSatisfy { $0.health?.reason == nil })
            let seenByRoot = try await client.send(.get, APIPath.registryApp("deploys"), token: root).decode(MicroAppDetail.self)
            #expect(seenByRoot.app.health?.reason == "unreachable")

            let refused = try await client.send(.post, APIPath.registryHealth("deploys"), token: ann, rawBody: nil)
            #expect(refused.status == .forbidden)
            let checked = try await client.send(.post, APIPath.registryHealth("deploys"), token: root, rawBody: nil)
            #expect(try checked.status == .ok && checked.decode(AppHealth.self).reason == "unreachable")
        }
    }

    @Test("withdrawal: no longer listed or found; built-in apps cannot be published over or withdrawn")
    func withdrawal() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addAdmins("root")
        try await harness.withServer { client in
            let root = try await client.token(for: "root")
            _ = try await Self.publish(client, token: root, Self.manifest(version: "1.0.0"))
            #expect(try await client.send(.delete, APIPath.registryApp("deploys"), token: root).status == .noContent)
            #expect(try await client.send(.delete, APIPath.registryApp("deploys"), token: root).status == .notFound)
            #expect(try await client.send(.get, APIPath.registryApp("deploys"), token: root).status == .notFound)
            let page = try await client.send(.get, APIPath.registryApps, token: root).decode(Page<MicroAppInfo>.self)
            #expect(page.items.map(\.id) == ["calendar", "chat", "todo"])

            #expect(try await client.send(.delete, APIPath.registryApp("todo"), token: root).status == .conflict)
            let overTodo = try await Self.publish(client, token: root, Self.manifest("todo", version: "9.0.0"))
            #expect(overTodo.status == .conflict && overTodo.apiError?.field == "manifest.id")
            let overEventLog = try await Self.publish(client, token: root, Self.manifest("eventlog", version: "1.0.0"))
            #expect(overEventLog.status == .conflict && overEventLog.apiError?.field == "manifest.id")

            // Who published and withdrew what is in the audit log; refusals are not.
            let audit = try await client.send(.get, APIPath.audit, token: root).decode(Page<AuditEntry>.self).items
                .filter { $0.action != .userLoggedIn }
            #expect(audit.map { "\($0.actor) \($0.action.rawValue) \($0.target) \($0.detail)" }
                == ["root registry.app.withdrawn app deploys ", "root registry.app.published app deploys 1.0.0"])
        }
    }

    @Test("search by text in id, name or description (any case), by kind, in pages; built-in apps are entries too")
    func search() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addAdmins("root")
        try await harness.withServer { client in
            let root = try await client.token(for: "root")
            _ = try await Self.publish(client, token: root, Self.manifest(version: "1.0.0"))
            _ = try await Self.publish(client, token: root, Self.manifest("uptime", version: "0.1.0", name: "Uptime", description: "Pings 100% of hosts"))
            func ids(_ query: String) async throws -> [String] {
                try await client.send(.get, APIPath.registryApps + query, token: root).decode(Page<MicroAppInfo>.self).items.map(\.id)
            }
            #expect(try await ids("") == ["calendar", "chat", "deploys", "todo", "uptime"])
            #expect(try await ids("?q=DEPLOY") == ["deploys"])
            #expect(try await ids("?q=tasks") == ["todo"])
            #expect(try await ids("?q=100%25") == ["uptime"], "% is a character, not a wildcard")
            #expect(try await ids("?q=_") == [])
            #expect(try await ids("?kind=remote") == ["deploys", "uptime"])
            #expect(try await ids("?kind=builtin&q=cal") == ["calendar"])
            let first = try await client.send(.get, APIPath.registryApps + "?limit=2", token: root).decode(Page<MicroAppInfo>.self)
            #expect(first.items.map(\.id) == ["calendar", "chat"] && first.next == "chat")
            #expect(try await ids("?limit=2&cursor=chat") == ["deploys", "todo"])
            let builtIn = try #require(first.items.first)
            #expect(builtIn.kind == .builtin && builtIn.health == .up && builtIn.manifest == nil)
            #expect(try await client.send(.get, APIPath.registryApps + "?kind=plugin", token: root).apiError?.field == "kind")
        }
    }

    @Test("a publish is checked field by field", arguments: [
        (#"{"manifest": {"id": "deploys", "name": "D", "version": "1.0", "description": "", "protocol": 1, "events": {"publishes": [], "subscribes": []}, "backend": [], "state": false, "minSize": {"width": 10, "height": 3}}, "entry": "http://h/"}"#, "manifest.version"),
        (#"{"manifest": {"id": "other", "name": "D", "version": "1.0.0", "description": "", "protocol": 1, "events": {"publishes": [], "subscribes": []}, "backend": [], "state": false, "minSize": {"width": 10, "height": 3}}, "entry": "http://h/"}"#, "manifest.id"),
        (#"{"manifest": {"id": "deploys", "name": "D", "version": "1.0.0", "description": "", "protocol": 1, "events": {"publishes": ["todo.item.created"], "subscribes": []}, "backend": [], "state": false, "minSize": {"width": 10, "height": 3}}, "entry": "http://h/"}"#, "manifest.events.publishes[0]"),
        (#"{"manifest": {"id": "deploys", "name": "D\u001b[2J", "version": "1.0.0", "description": "", "protocol": 1, "events": {"publishes": [], "subscribes": []}, "backend": [], "state": false, "minSize": {"width": 10, "height": 3}}, "entry": "http://h/"}"#, "manifest.name"),
        (#"{"manifest": {"id": "deploys", "name": "D", "version": "1.0.0", "description": "", "protocol": 1, "events": {"publishes": [], "subscribes": []}, "backend": [], "state": false, "minSize": {"width": 10, "height": 3}}, "entry": "file:///etc/passwd"}"#, "entry"),
        (#"{"manifest": {"id": "deploys", "name": "D", "version": "1.0.0", "description": "", "protocol": 1, "events": {"publishes": [], "subscribes": []}, "backend": [], "state": false, "minSize": {"width": 10, "height": 3}}, "entry": "http://user:pw@h/"}"#, "entry"),
        (#"{"manifest": {"id": "deploys", "name": "D", "version": "1.0.0", "description": "", "protocol": 1, "events": {"publishes": [], "subscribes": []}, "backend": ["/etc"], "state": false, "minSize": {"width": 10, "height": 3}}, "entry": "http://h/"}"#, "manifest.backend[0]"),
        (#"{"manifest": {"id": "deploys", "name": "D", "version": "1.0.0", "description": "", "protocol": 1, "events": {"publishes": [], "subscribes": []}, "backend": [], "state": false}, "entry": "http://h/"}"#, "manifest.minSize"),
    ])
    func validation(body: String, field: String) async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addAdmins("root")
        try await harness.withServer { client in
            let root = try await client.token(for: "root")
            let refused = try await client.send(.put, APIPath.registryApp("deploys"), token: root, rawBody: body)
            #expect(refused.status == .badRequest)
            #expect(refused.apiError?.field == field)
            #expect(try await client.send(.get, APIPath.registryApp("deploys"), token: root).status == .notFound)
        }
    }

    @Test("a publish to an id no app can have names the path's id")
    func publishToAMalformedID() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addAdmins("root")
        try await harness.withServer { client in
            let root = try await client.token(for: "root")
            let body = #"{"manifest": {"id": "Deploys", "name": "D", "version": "1.0.0", "description": "", "protocol": 1, "events": {"publishes": [], "subscribes": []}, "backend": [], "state": false, "minSize": {"width": 10, "height": 3}}, "entry": "http://h/"}"#
            let refused = try await client.send(.put, APIPath.registryApp("Deploys"), token: root, rawBody: body)
            #expect(refused.status == .badRequest && refused.apiError?.field == "id")
        }
    }
}

extension APIPath {
    /// An admin's health check of a remote app now (`POST`); no client asks for one.
    static func registryHealth(_ id: String) -> String { "\(registryApps)/\(id)/health" }
}
