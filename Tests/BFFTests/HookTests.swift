@testable import BFF
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import ServerAPI
@testable import ServerProxy
@testable import ServerRoutes
import Testing
import TestSupport

@Suite("BFF webhooks (/api/hooks/{app})")
struct HookTests {
    /// Publishes `deploys` as root, grants it to ann (not bob); returns the hook secret.
    static func prepare(_ client: some TestClientProtocol) async throws -> String {
        let root = try await client.token(for: "root")
        let published = try await RegistryTests.publish(client, token: root, RegistryTests.manifest(version: "1.0.0"))
        let secret = try #require(try published.decode(MicroAppDetail.self).secrets?.hook)
        let ann = try await client.token(for: "ann")
        #expect(try await client.send(.put, APIPath.registryGrant("deploys"), token: ann).status == .noContent)
        return secret
    }

    static func send(_ client: some TestClientProtocol, _ body: String, secret: String?, timestamp: Date = Date(),
                     signature: String? = nil) async throws -> TestResponse {
        var headers: HTTPFields = [.contentType: "application/json"]
        let stamp = String(Int(timestamp.timeIntervalSince1970))
        headers[HookSignature.timestampHeader] = stamp
        if let secret { headers[HookSignature.header] = signature ?? HookSignature.sign(Data(body.utf8), timestamp: stamp, secret: secret) }
        return try await client.execute(uri: APIPath.hook("deploys"), method: .post, headers: headers, body: ByteBuffer(string: body))
    }

    static let event = #"{"event": "deploys.build.finished", "data": {"build": 412, "status": "passed"}}"#

    /// The registry's own events (`registry.app.health` after the publish's check), which may
    /// reach a stream at any time; the webhook's are what these tests look for.
    /// What reaches a stream beside the events looked for: the registry's news, and a sign-in of
    /// its user (a test's second token).
    static let registryNews: @Sendable (LiveEvent) -> Bool = { $0.name.hasPrefix("registry.") || $0.name == EventName.authSessionStarted.rawValue }

    @Test("a signed webhook reaches the live streams of the users who granted the app, and no one else's")
    func delivered() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addAdmins("root")
        try await harness.addUsers("ann", "bob")
        try await harness.withServer { client in
            let secret = try await Self.prepare(client)
            let port = try #require(client.port)
            let ann = try SSEReader(port: port, token: try await client.token(for: "ann"))
            let bob = try SSEReader(port: port, token: try await client.token(for: "bob"))
            // Each head comes with the stream's `bff.stream.opened`.
            _ = try await ann.readHead()
            _ = try await bob.readHead()
            let accepted = try await Self.send(client, Self.event, secret: secret)
            #expect(accepted.status == .accepted)
            #expect(try accepted.decode(HookAccepted.self).id > 0)
            let event = try #require(try await ann.next(timeout: .seconds(2), ignoring: Self.registryNews))
            #expect(event.name == "deploys.build.finished")
            let data = try JSONSerialization.jsonObject(with: Data(event.data.utf8)) as? [String: Any]
            #expect(data?["build"] as? Int == 412 && data?["status"] as? String == "passed")
            // Not granted the app, bob's next event is his own todo, not the webhook's.
            let bobToken = try await client.token(for: "bob")
            #expect(try await bob.nextIs(.todoItemCreated, after: {
                _ = try await client.send(.post, APIPath.todoItems, token: bobToken, json: NewTodo(title: "barrier"))
            }, ignoring: Self.registryNews))
        }
    }

    @Test("unsigned, badly signed, stale and replayed webhooks are 401 and reach nobody")
    func refused() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addAdmins("root")
        try await harness.addUsers("ann")
        try await harness.withServer { client in
            let secret = try await Self.prepare(client)
            let ann = try SSEReader(port: try #require(client.port), token: try await client.token(for: "ann"))
            _ = try await ann.readHead()
            let unsigned = try await Self.send(client, Self.event, secret: nil)
            #expect(unsigned.status == .unauthorized)
            let wrongKey = try await Self.send(client, Self.event, secret: String(repeating: "0", count: 64))
            #expect(wrongKey.status == .unauthorized && wrongKey.apiError?.error.contains("does not match") == true)
            let garbage = try await Self.send(client, Self.event, secret: secret, signature: "sha256=zz")
            #expect(garbage.status == .unauthorized)
            let stale = try await Self.send(client, Self.event, secret: secret, timestamp: Date().addingTimeInterval(-600))
            #expect(stale.status == .unauthorized && stale.apiError?.error.contains("X-Timestamp") == true)

            // A second whose MAC has a byte written 0X, which "+X" also spells (for the replay below).
            let now = Int(Date().timeIntervalSince1970)
            let (stamp, signature, zero) = try #require((0..<120).lazy.compactMap { back -> (String, String, Int)? in
                let stamp = String(now - back)
                let signature = HookSignature.sign(Data(Self.event.utf8), timestamp: stamp, secret: secret)
                let hex = Array(signature.dropFirst(7))
                return stride(from: 0, to: 64, by: 2).first { hex[$0] == "0" }.map { (stamp, signature, $0) }
            }.first)
            let headers: HTTPFields = [.contentType: "application/json", HookSignature.timestampHeader: stamp, HookSignature.header: signature]
            let first = try await client.execute(uri: APIPath.hook("deploys"), method: .post, headers: headers, body: ByteBuffer(string: Self.event))
            #expect(first.status == .accepted)
            #expect(try await ann.next(timeout: .seconds(2), ignoring: Self.registryNews)?.name == "deploys.build.finished")
            let replay = try await client.execute(uri: APIPath.hook("deploys"), method: .post, headers: headers, body: ByteBuffer(string: Self.event))
            #expect(replay.status == .unauthorized && replay.apiError?.error.contains("replay") == true)
            // Spelled again (capitals, a sign before a byte), the same MAC is no new signature.
            var hex = Array(signature.dropFirst(7))
            let capitals = "sha256=" + String(hex).uppercased()
            hex[zero] = "+"
            for respelled in [capitals, "sha256=" + String(hex)] {
                var again = headers
                again[HookSignature.header] = respelled
                let answer = try await client.execute(uri: APIPath.hook("deploys"), method: .post, headers: again, body: ByteBuffer(string: Self.event))
                #expect(answer.status == .unauthorized, "\(respelled)")
            }
            // None of the refused webhooks came before ann's own todo.
            let annToken = try await client.token(for: "ann")
            #expect(try await ann.nextIs(.todoItemCreated, after: {
                _ = try await client.send(.post, APIPath.todoItems, token: annToken, json: NewTodo(title: "barrier"))
            }, ignoring: Self.registryNews))
        }
    }

    @Test("an event the manifest does not publish is 400 naming event; an unknown app is 404")
    func checked() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addAdmins("root")
        try await harness.addUsers("ann")
        try await harness.withServer { client in
            let secret = try await Self.prepare(client)
            let foreign = try await Self.send(client, #"{"event": "todo.item.created", "data": {}}"#, secret: secret)
            #expect(foreign.status == .badRequest && foreign.apiError?.field == "event")
            let notJSON = try await Self.send(client, "[1, 2]", secret: secret)
            #expect(notJSON.status == .badRequest)
            let unknown = try await client.execute(uri: APIPath.hook("nothing"), method: .post, headers: [:], body: ByteBuffer(string: "{}"))
            #expect(unknown.status == .notFound)
        }
    }

    @Test("an accepted webhook survives a restart before delivery: the next server delivers it")
    func survivesRestart() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addAdmins("root")
        try await harness.addUsers("ann")
        try await harness.withServer { client in _ = try await Self.prepare(client) }
        // Accepted while no server delivers (as if it stopped right after answering 202).
        try await harness.withStore { store in
            #expect(try await store.acceptHook(app: "deploys", signature: "sha256=one", event: "deploys.build.finished", data: #"{"n":1}"#) != nil)
            #expect(try await store.pendingHookDeliveries(limit: 10).count == 1)
            let ann = try #require(try await store.user(named: "ann"))
            let before = try await store.newestLiveEventID()
            try await harness.withServer { _ in
                try await eventually("the accepted hook delivered") { try await store.pendingHookDeliveries(limit: 10).isEmpty }
            }
            #expect(try await store.pendingHookDeliveries(limit: 10).isEmpty)
            guard case .events(let events) = try await store.liveEvents(after: before, visibleTo: ann.id) else {
                Issue.record("reset")
                return
            }
            #expect(events.filter { $0.name == "deploys.build.finished" }.map(\.data) == [#"{"n":1}"#])
        }
    }
}

@Suite("BFF app secrets: new after a withdrawal, rotated with an overlap")
struct AppSecretsTests {
    static func publish(_ client: some TestClientProtocol, token: String, version: String, rotate: Bool? = nil) async throws -> TestResponse {
        let request = PublishRequest(manifest: RegistryTests.manifest(version: version), entry: "http://127.0.0.1:9/", rotateSecrets: rotate)
        return try await client.send(.put, APIPath.registryApp("deploys"), token: token, json: request)
    }

    @Test("published again after a withdrawal, the app gets new secrets; the old hook secret signs nothing")
    func newSecretsAfterWithdrawal() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addAdmins("root")
        try await harness.withServer { client in
            let root = try await client.token(for: "root")
            let first = try #require(try await Self.publish(client, token: root, version: "1.0.0").decode(MicroAppDetail.self).secrets)
            #expect(try await client.send(.delete, APIPath.registryApp("deploys"), token: root).status == .noContent)
            let again = try await Self.publish(client, token: root, version: "1.1.0")
            #expect(again.status == .ok)
            let renewed = try #require(try again.decode(MicroAppDetail.self).secrets)
            #expect(renewed.hook != first.hook && renewed.entry != first.entry)
            #expect(try await HookTests.send(client, HookTests.event, secret: first.hook).status == .unauthorized)
            #expect(try await HookTests.send(client, HookTests.event, secret: renewed.hook).status == .accepted)
        }
    }

    @Test("--rotate-secrets: new secrets for a live app, same version; both sign for the overlap, then only the new")
    func rotation() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addAdmins("root")
        try await harness.addUsers("ann")
        try await harness.withServer { client in
            let root = try await client.token(for: "root")
            let ann = try await client.token(for: "ann")
            let first = try #require(try await Self.publish(client, token: root, version: "1.0.0").decode(MicroAppDetail.self).secrets)
            #expect(try await Self.publish(client, token: ann, version: "1.0.0", rotate: true).status == .forbidden)
            let rotated = try await Self.publish(client, token: root, version: "1.0.0", rotate: true)
            #expect(rotated.status == .ok)
            let detail = try rotated.decode(MicroAppDetail.self)
            let new = try #require(detail.secrets)
            #expect(new.hook != first.hook && new.entry != first.entry)
            #expect(detail.versions.map(\.version) == ["1.0.0"], "a rotation adds no version")
            #expect(try await HookTests.send(client, HookTests.event, secret: new.hook).status == .accepted)
            let old = try await HookTests.send(client, HookTests.event, secret: first.hook, timestamp: Date() - 1)
            #expect(old.status == .accepted, "the old secret signs during the overlap")
            // A newer version without --rotate-secrets keeps the secrets and shows none.
            let newer = try await Self.publish(client, token: root, version: "1.1.0")
            #expect(try newer.status == .ok && newer.decode(MicroAppDetail.self).secrets == nil)
        }
        try await harness.withStore { store in
            let app = try #require(try await store.registryApp("deploys"))
            let now = Date()
            #expect(app.stillValidPreviousSecrets(at: now)?.hook != nil)
            #expect(app.stillValidPreviousSecrets(at: now + AppSecrets.rotationOverlap + 1) == nil)
        }
    }

    @Test("a withdrawn app is not rotated at its old version: a publish after a withdrawal must be newer")
    func noRotationOfAWithdrawnApp() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addAdmins("root")
        try await harness.withServer { client in
            let root = try await client.token(for: "root")
            _ = try await Self.publish(client, token: root, version: "1.0.0")
            _ = try await client.send(.delete, APIPath.registryApp("deploys"), token: root)
            #expect(try await Self.publish(client, token: root, version: "1.0.0", rotate: true).status == .conflict)
        }
    }

    @Test func theEntryHearsBothSignaturesDuringTheOverlap() throws {
        let headers = EntryIdentity.headers(user: "ann", app: "deploys", method: "DELETE", path: "/sessions/s1", body: [UInt8](),
                                            secret: "new", previousSecret: "old")
        let names = headers.map(\.0)
        #expect(names.contains("X-TermCanvas-Signature") && names.contains("X-TermCanvas-Signature-Previous"))
        let alone = EntryIdentity.headers(user: "ann", app: "deploys", method: "DELETE", path: "/sessions/s1", body: [UInt8](), secret: "new")
        #expect(!alone.map(\.0).contains("X-TermCanvas-Signature-Previous"))
    }
}
