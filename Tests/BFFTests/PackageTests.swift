import AppPackages
import BFF
import CanvasCore
import Crypto
import Foundation
import HTTPTypes
import HummingbirdTesting
import MicroAppProtocol
import NIOCore
import ServerAPI
import ServerHTTP
import ServerRoutes
import Testing

@Suite("BFF packages (/api/registry/apps/{id}/versions, …/archive, …/publishers, …/installs)")
struct PackageTests {
    /// A package of app `id` at `version`, asking to read `read` and publish `publishes`, its script
    /// padded with `padding` bytes.
    static func archive(_ id: String = "sysmon", version: String, read: [String] = ["/proc"], publishes: [String] = [],
                        padding: Int = 0) throws -> [UInt8] {
        let manifest = """
            id: \(id)
            name: System monitor
            version: \(version)
            description: Load, memory and disks
            protocol: "1.0"
            exec: [python3, main.py]
            permissions:
              files:
                read: [\(read.joined(separator: ", "))]
            events:
              publishes: [\(publishes.joined(separator: ", "))]

            """
        return try PackageArchive(files: [
            .init(path: "app.yaml", isExecutable: false, bytes: Array(manifest.utf8)),
            .init(path: "main.py", isExecutable: true, bytes: Array("print('hello')\n".utf8) + [UInt8](repeating: 0x23, count: padding)),
        ]).encoded()
    }

    /// The publisher's key these tests sign with.
    static let publisherKey = Curve25519.Signing.PrivateKey()

    /// `key`'s signature of the package `bytes` (its version read from its app.yaml; 0.0.0 for bytes
    /// that are no package, which the server refuses before it reads a signature) as `id`.
    static func signature(_ bytes: [UInt8], id: String = "sysmon", key: Curve25519.Signing.PrivateKey = publisherKey) throws -> PackageSignature {
        let manifest = (try? PackageArchive(decoding: bytes)).map { String(decoding: $0.manifest, as: UTF8.self) } ?? ""
        let version = manifest.split(separator: "\n").first { $0.hasPrefix("version: ") }?.dropFirst(9) ?? "0.0.0"
        let statement = SignedStatement.package(id: id, version: String(version), digest: hex(bytes))
        return PackageSignature(key: Base64.encode(Array(key.publicKey.rawRepresentation)),
                                signature: Base64.encode(Array(try key.signature(for: statement))))
    }

    /// The header `apps publish` sends: the signature as JSON.
    static func signatureHeader(_ signature: PackageSignature) throws -> String {
        String(decoding: try JSONEncoder().encode(signature), as: UTF8.self)
    }

    static func publish(_ client: some TestClientProtocol, token: String, _ bytes: [UInt8], id: String = "sysmon",
                        contentType: String = "application/x-tar", signature: PackageSignature? = nil) async throws -> TestResponse {
        var headers: HTTPFields = [.authorization: "Bearer \(token)", .contentType: contentType]
        headers[HTTPField.Name(PackageSignature.header)!] = try signatureHeader(try signature ?? Self.signature(bytes, id: id))
        return try await client.execute(uri: APIPath.registryVersions(id), method: .post, headers: headers, body: ByteBuffer(bytes: bytes))
    }

    static func hex(_ bytes: [UInt8]) -> String { SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined() }

    @Test("an admin publishes a package: its page has the archive's digest and size and the permissions its app.yaml asks for")
    func publishAndDownload() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addAdmins("root")
        try await harness.addUsers("ann")
        try await harness.withServer { client in
            let root = try await client.token(for: "root")
            let ann = try await client.token(for: "ann")
            let bytes = try Self.archive(version: "1.0.0", read: ["/proc", "~/notes"], publishes: ["sysmon.load.high"])
            let published = try await Self.publish(client, token: root, bytes)
            #expect(published.status == .created)
            let detail = try published.decode(MicroAppDetail.self)
            #expect(detail.app.kind == .package && detail.app.version == "1.0.0" && detail.app.name == "System monitor")
            let package = try #require(detail.app.package)
            #expect(package.digest == Self.hex(bytes) && package.size == bytes.count)
            // The signature is on the page's versions; a list's entry carries none.
            #expect(package.signature == nil)
            #expect(detail.versions.first?.package?.signature == (try Self.signature(bytes)))
            // Its limits too: the app.yaml asks for none, so the defaults.
            #expect(package.permissions == PackagePermissions(publish: ["sysmon.load.high"], state: true, read: ["/proc", "~/notes"],
                                                              limits: PackageResources(AppManifest.Limits())))
            #expect(detail.versions.first?.publishedBy == "root" && detail.versions.first?.package?.digest == package.digest)

            // Anyone signed in reads it and downloads the very bytes.
            let page = try await client.send(.get, APIPath.registryApp("sysmon"), token: ann).decode(MicroAppDetail.self)
            #expect(page.app.package == package && page.app.installs == 0)
            let download = try await client.send(.get, APIPath.registryArchive("sysmon", "1.0.0"), token: ann)
            #expect(download.status == .ok && download.headers[.contentType] == "application/x-tar")
            #expect(Array(download.body.readableBytesView) == bytes)
            #expect(try await client.send(.get, APIPath.registryArchive("sysmon", "1.0.0")).status == .unauthorized)
            #expect(try await client.send(.get, APIPath.registryArchive("sysmon", "9.9.9"), token: ann).status == .notFound)

            // Listed only to a client that asks for packages: an older dashboard could not read the kind.
            let plain = try await client.send(.get, APIPath.registryApps, token: ann).decode(Page<MicroAppInfo>.self)
            #expect(!plain.items.contains { $0.id == "sysmon" })
            let all = try await client.send(.get, APIPath.registryApps + "?packages=true", token: ann).decode(Page<MicroAppInfo>.self)
            #expect(all.items.contains { $0.id == "sysmon" && $0.kind == .package })
            let only = try await client.send(.get, APIPath.registryApps + "?kind=package", token: ann).decode(Page<MicroAppInfo>.self)
            #expect(only.items.map(\.id) == ["sysmon"])
        }
    }

    /// Issue 52: the digest was the registry's word. A version is signed by its publisher, and the
    /// server keeps only a signature of this id, version and archive.
    @Test("a version is published only signed by its publisher, with a signature of this id, version and archive")
    func publishOnlySigned() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addAdmins("root")
        try await harness.withServer { client in
            let root = try await client.token(for: "root")
            let bytes = try Self.archive(version: "1.0.0")
            let unsigned = try await client.execute(uri: APIPath.registryVersions("sysmon"), method: .post,
                                                    headers: [.authorization: "Bearer \(root)", .contentType: "application/x-tar"],
                                                    body: ByteBuffer(bytes: bytes))
            #expect(unsigned.status == .badRequest)
            #expect(try unsigned.decode(APIError.self).field == PackageSignature.header)
            // Another version's signature, another archive's, and a signature the key never made.
            let other = try Self.archive(version: "1.0.1")
            for signature in [try Self.signature(other), try Self.signature(try Self.archive(version: "1.0.0", padding: 1)),
                              PackageSignature(key: try Self.signature(bytes).key, signature: Base64.encode([UInt8](repeating: 1, count: 64)))] {
                let refused = try await Self.publish(client, token: root, bytes, signature: signature)
                #expect(refused.status == .badRequest)
                #expect(try refused.decode(APIError.self).error.contains("is not its key's signature of sysmon 1.0.0 with this archive"))
            }
            for header in ["{", String(repeating: " ", count: PackageSignature.maximumBytes + 1)] {
                var headers: HTTPFields = [.authorization: "Bearer \(root)", .contentType: "application/x-tar"]
                headers[HTTPField.Name(PackageSignature.header)!] = header
                let refused = try await client.execute(uri: APIPath.registryVersions("sysmon"), method: .post, headers: headers,
                                                       body: ByteBuffer(bytes: bytes))
                #expect(refused.status == .badRequest)
            }
            #expect(try await client.send(.get, APIPath.registryApp("sysmon"), token: root).status == .notFound)
            #expect(try await Self.publish(client, token: root, bytes).status == .created)
        }
    }

    /// Issue 52: an answer replayed from before went unnoticed. The registry signs what it says of
    /// an app with a key of its own, the app's revision and an expiry a day on.
    @Test("the registry signs its answer about an app: its body, path, revision and a day's expiry, with one key from the server's secret")
    func registryAnswersAreSigned() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addAdmins("root")
        try await harness.withServer { client in
            let root = try await client.token(for: "root")
            #expect(try await Self.publish(client, token: root, try Self.archive(version: "1.0.0")).status == .created)
            #expect(try await Self.publish(client, token: root, try Self.archive(version: "1.1.0")).status == .ok)
            #expect(try await client.send(.delete, APIPath.registryVersion("sysmon", "1.0.0"), token: root).status == .noContent)
            let answer = try await client.send(.get, APIPath.registryApp("sysmon"), token: root)
            let header = try #require(answer.headers[HTTPField.Name(RegistryAnswerSignature.header)!])
            let signature = try JSONDecoder().decode(RegistryAnswerSignature.self, from: Data(header.utf8))
            #expect(signature.revision == 3, "two versions published, one withdrawn")
            let now = Int(Date().timeIntervalSince1970)
            #expect(abs(signature.expires - now - RegistryAnswerSignature.lifetime) < 60)
            let key = try Curve25519.Signing.PublicKey(rawRepresentation: try #require(Base64.decode(signature.key)))
            let body = Array(answer.body.readableBytesView)
            let statement = SignedStatement.registryAnswer(path: APIPath.registryApp("sysmon"), revision: 3, expires: signature.expires,
                                                           digest: Self.hex(body))
            #expect(key.isValidSignature(try #require(Base64.decode(signature.signature)), for: statement))
            #expect(signature.key == RegistryAnswerSigner(secret: BFFHarness.secret, clock: { Date() }).publicKey)
        }
    }

    @Test("who publishes: admins and the app's publishers; an admin names them, and takes them back")
    func publishers() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addAdmins("root")
        try await harness.addUsers("ann", "bob")
        try await harness.withServer { client in
            let root = try await client.token(for: "root")
            let ann = try await client.token(for: "ann")
            let bob = try await client.token(for: "bob")
            let refused = try await Self.publish(client, token: ann, try Self.archive(version: "1.0.0"))
            #expect(refused.status == .forbidden && refused.apiError?.error.contains("publisher of sysmon") == true)
            // Issue 55, item 9: the way to the first admin is named too, as apps publishers needs one.
            #expect(refused.apiError?.error.contains("the server's first admin is made where it runs: termcanvas user admin NAME") == true)
            #expect(try await client.send(.put, APIPath.registryPublisher("sysmon", user: "ann"), token: bob, rawBody: nil).status == .forbidden)
            #expect(try await client.send(.put, APIPath.registryPublisher("sysmon", user: "ann"), token: root, rawBody: nil).status == .created)
            #expect(try await client.send(.put, APIPath.registryPublisher("sysmon", user: "ann"), token: root, rawBody: nil).status == .noContent)
            #expect(try await client.send(.put, APIPath.registryPublisher("sysmon", user: "nobody"), token: root, rawBody: nil).status == .notFound)
            #expect(try await Self.publish(client, token: ann, try Self.archive(version: "1.0.0")).status == .created)
            #expect(try await Self.publish(client, token: bob, try Self.archive(version: "1.1.0")).status == .forbidden)
            // A publisher of one app is not one of another's.
            #expect(try await Self.publish(client, token: ann, try Self.archive("other", version: "1.0.0"), id: "other").status == .forbidden)
            // What a publisher may withdraw: its app's versions, not the whole app, nor another app's.
            #expect(try await Self.publish(client, token: root, try Self.archive("other", version: "1.0.0"), id: "other").status == .created)
            #expect(try await Self.publish(client, token: ann, try Self.archive(version: "1.1.0")).status == .ok)
            #expect(try await client.send(.delete, APIPath.registryVersion("other", "1.0.0"), token: ann).status == .forbidden)
            #expect(try await client.send(.delete, APIPath.registryApp("sysmon"), token: ann).status == .forbidden)
            #expect(try await client.send(.delete, APIPath.registryVersion("sysmon", "1.1.0"), token: ann).status == .noContent)
            // Nor make others publishers.
            #expect(try await client.send(.put, APIPath.registryPublisher("sysmon", user: "bob"), token: ann, rawBody: nil).status == .forbidden)
            let named = try await client.send(.get, APIPath.registryPublishers("sysmon"), token: bob).decode([PackagePublisher].self)
            #expect(named.map(\.user) == ["ann"] && named.first?.grantedBy == "root")

            #expect(try await client.send(.delete, APIPath.registryPublisher("sysmon", user: "ann"), token: root).status == .noContent)
            #expect(try await Self.publish(client, token: ann, try Self.archive(version: "1.2.0")).status == .forbidden)
            #expect(try await client.send(.delete, APIPath.registryPublisher("sysmon", user: "ann"), token: root).status == .notFound)

            let audit = try await client.send(.get, APIPath.audit, token: root).decode(Page<AuditEntry>.self).items
            #expect(audit.contains { $0.action == .publisherAdded && $0.actor == "root" && $0.target == "app sysmon" && $0.detail == "ann" })
            #expect(audit.contains { $0.action == .publisherRemoved && $0.detail == "ann" })
            #expect(audit.contains { $0.action == .appPublished && $0.actor == "ann" && $0.detail.hasPrefix("1.0.0 sha256:") })
        }
    }

    @Test("what is refused, and why: not canonical, no or a bad app.yaml, another id, a remote app, not newer, too large, not a tar")
    func refusals() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addAdmins("root")
        try await harness.withServer { client in
            let root = try await client.token(for: "root")
            var shifted = try Self.archive(version: "1.0.0")
            shifted[100 + 4] = UInt8(ascii: "7")  // mode 0000744: a mode the canonical form does not have
            for (bytes, words) in [
                (shifted, "not a TermCanvas package"),
                (Array("not a tar at all".utf8), "not a TermCanvas package"),
                (try Self.archive(version: "1.0.0") + [UInt8](repeating: 0, count: 512), "canonical form"),
                (try Self.archive(version: "one"), "version"),
                (try Self.archive("other", version: "1.0.0"), "the id of the path"),
            ] {
                let refused = try await Self.publish(client, token: root, bytes)
                #expect(refused.status == .badRequest, "\(words)")
                #expect(refused.apiError.map { "\($0.error) \($0.field ?? "")".contains(words) } == true, "\(String(describing: refused.apiError))")
            }
            let remote = PackageArchive.File(path: "app.yaml", isExecutable: false,
                                             bytes: Array("id: sysmon\nname: S\nversion: 1.0.0\nprotocol: \"1.0\"\nentry: http://127.0.0.1:9/\n".utf8))
            let asRemote = try await Self.publish(client, token: root, try PackageArchive(files: [remote]).encoded())
            #expect(asRemote.status == .badRequest && asRemote.apiError?.error.contains("remote app") == true, "\(String(describing: asRemote.apiError))")
            #expect(try await Self.publish(client, token: root, try Self.archive(version: "1.0.0"), contentType: "application/json").status
                == .unsupportedMediaType)
            let large = try await Self.publish(client, token: root, try Self.archive(version: "1.0.0") + [UInt8](repeating: 0, count: PackageLimits.archiveBytes))
            #expect(large.status == .contentTooLarge)

            #expect(try await Self.publish(client, token: root, try Self.archive(version: "2.0.0")).status == .created)
            let older = try await Self.publish(client, token: root, try Self.archive(version: "1.5.0"))
            #expect(older.status == .conflict && older.apiError?.field == "manifest.version")
            // No version may be the last: a major version at most 1 000 past the newest, each number within 32 bits.
            for last in ["999999999.999999999.999999999", "1003.0.0"] {
                let usedUp = try await Self.publish(client, token: root, try Self.archive(version: last))
                #expect(usedUp.status == .conflict, "\(last)")
                #expect(usedUp.apiError?.error == "may be at most 1000 major versions past 2.0.0, the newest published (so that no version can be the last)")
            }
            #expect(try await Self.publish(client, token: root, try Self.archive(version: "2147483648.0.0")).status == .badRequest)
            // A remote app's id is not a package's, nor the other way round.
            let taken = try await RegistryTests.publish(client, token: root, RegistryTests.manifest("sysmon", version: "3.0.0"))
            #expect(taken.status == .conflict && taken.apiError?.error.contains("package") == true)
            #expect(try await RegistryTests.publish(client, token: root, RegistryTests.manifest("deploys", version: "1.0.0")).status == .created)
            let deploys = try await Self.publish(client, token: root, try Self.archive("deploys", version: "2.0.0"), id: "deploys")
            #expect(deploys.status == .conflict && deploys.apiError?.error.contains("remote") == true)
        }
    }

    @Test("a withdrawn version is not offered or downloaded, its page says when; the newest left is current; none left, the app goes")
    func withdrawVersions() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addAdmins("root")
        try await harness.addUsers("ann")
        try await harness.withServer { client in
            let root = try await client.token(for: "root")
            let ann = try await client.token(for: "ann")
            for version in ["1.0.0", "1.1.0"] {
                #expect([.created, .ok].contains(try await Self.publish(client, token: root, try Self.archive(version: version)).status))
            }
            #expect(try await client.send(.delete, APIPath.registryVersion("sysmon", "1.1.0"), token: ann).status == .forbidden)
            #expect(try await client.send(.delete, APIPath.registryVersion("sysmon", "1.1.0"), token: root).status == .noContent)
            #expect(try await client.send(.delete, APIPath.registryVersion("sysmon", "1.1.0"), token: root).status == .notFound)
            let page = try await client.send(.get, APIPath.registryApp("sysmon"), token: ann).decode(MicroAppDetail.self)
            #expect(page.app.version == "1.0.0")
            #expect(page.versions.first { $0.version == "1.1.0" }?.withdrawnAt != nil)
            #expect(page.versions.first { $0.version == "1.0.0" }?.withdrawnAt == nil)
            #expect(try await client.send(.get, APIPath.registryArchive("sysmon", "1.1.0"), token: ann).status == .notFound)
            // A withdrawn version's number stays taken.
            #expect(try await Self.publish(client, token: root, try Self.archive(version: "1.1.0")).status == .conflict)

            #expect(try await client.send(.delete, APIPath.registryVersion("sysmon", "1.0.0"), token: root).status == .noContent)
            #expect(try await client.send(.get, APIPath.registryApp("sysmon"), token: ann).status == .notFound)
            // Publishing again offers the new version only.
            #expect(try await Self.publish(client, token: root, try Self.archive(version: "2.0.0")).status == .ok)
            #expect(try await client.send(.get, APIPath.registryArchive("sysmon", "1.0.0"), token: ann).status == .notFound)
            // Withdrawing the whole app withdraws its versions.
            #expect(try await client.send(.delete, APIPath.registryApp("sysmon"), token: root).status == .noContent)
            #expect(try await Self.publish(client, token: root, try Self.archive(version: "2.1.0")).status == .ok)
            #expect(try await client.send(.get, APIPath.registryArchive("sysmon", "2.0.0"), token: ann).status == .notFound)
        }
    }

    @Test("a pre-release is published and offered by name, but does not become current while a release is offered")
    func preReleasesStayAside() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addAdmins("root")
        try await harness.addUsers("ann")
        try await harness.withServer { client in
            let root = try await client.token(for: "root")
            let ann = try await client.token(for: "ann")
            let first = try await Self.publish(client, token: root, try Self.archive(version: "1.0.0-rc.1"))
            #expect(try first.decode(MicroAppDetail.self).app.version == "1.0.0-rc.1", "no release yet: the pre-release is current")
            #expect(try await Self.publish(client, token: root, try Self.archive(version: "1.0.0")).status == .ok)
            #expect(try await Self.publish(client, token: root, try Self.archive(version: "1.1.0-rc.1")).status == .ok)
            var page = try await client.send(.get, APIPath.registryApp("sysmon"), token: ann).decode(MicroAppDetail.self)
            #expect(page.app.version == "1.0.0")
            #expect(page.versions.contains { $0.version == "1.1.0-rc.1" && $0.withdrawnAt == nil })
            #expect(try await client.send(.get, APIPath.registryArchive("sysmon", "1.1.0-rc.1"), token: ann).status == .ok)
            // Its release comes: current. The release withdrawn: the newest release left, not the pre-release.
            #expect(try await Self.publish(client, token: root, try Self.archive(version: "1.1.0")).status == .ok)
            page = try await client.send(.get, APIPath.registryApp("sysmon"), token: ann).decode(MicroAppDetail.self)
            #expect(page.app.version == "1.1.0")
            #expect(try await Self.publish(client, token: root, try Self.archive(version: "1.2.0-beta")).status == .ok)
            #expect(try await client.send(.delete, APIPath.registryVersion("sysmon", "1.1.0"), token: root).status == .noContent)
            page = try await client.send(.get, APIPath.registryApp("sysmon"), token: ann).decode(MicroAppDetail.self)
            #expect(page.app.version == "1.0.0")
        }
    }

    @Test("installs are counted once a user; the audit log counts them and never names who")
    func installCounts() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addAdmins("root")
        try await harness.addUsers("ann", "bob")
        try await harness.withServer { client in
            let root = try await client.token(for: "root")
            #expect(try await Self.publish(client, token: root, try Self.archive(version: "1.0.0")).status == .created)
            for name in ["ann", "ann", "bob"] {
                let token = try await client.token(for: name)
                #expect(try await client.send(.post, APIPath.registryInstalls("sysmon"), token: token, rawBody: nil).status == .noContent)
            }
            let ann = try await client.token(for: "ann")
            #expect(try await client.send(.post, APIPath.registryInstalls("nosuch"), token: ann, rawBody: nil).status == .notFound)
            let page = try await client.send(.get, APIPath.registryApp("sysmon"), token: ann).decode(MicroAppDetail.self)
            #expect(page.app.installs == 2)
            let audit = try await client.send(.get, APIPath.audit, token: root).decode(Page<AuditEntry>.self).items
            let installs = audit.filter { $0.action == .appInstalled }
            #expect(installs.map(\.detail) == ["installed by 2 users", "installed by 1 user"])
            #expect(installs.allSatisfy { $0.actor == AuditActor.someUser })
        }
    }

    @Test("a package near the size limit is taken under the write budget, which it spends no more than a burst of")
    func largeArchiveUnderTheWriteBudget() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addAdmins("root")
        let limits = RateLimits(writeBytesPerUserPerSecond: 64 << 10)
        try await harness.withServer(configuration: harness.configuration(rateLimits: limits)) { client in
            let root = try await client.token(for: "root")
            let bytes = try Self.archive(version: "1.0.0", padding: PackageLimits.archiveBytes - 4096)
            #expect(bytes.count > PackageLimits.archiveBytes - 4096 && bytes.count <= PackageLimits.archiveBytes)
            #expect(try await Self.publish(client, token: root, bytes).status == .created)
            // A JSON route still takes no more than its own limit.
            let large = String(repeating: "x", count: 300 * 1024)
            #expect(try await client.send(.post, APIPath.todoItems, token: root, rawBody: large).status == .contentTooLarge)
        }
    }

    @Test("a publisher keeps at most so many versions on a server")
    func versionsPerPublisher() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addAdmins("root")
        try await harness.withServer { client in
            let root = try await client.token(for: "root")
            for minor in 0..<PackageLimits.versionsPerPublisher {
                let status = try await Self.publish(client, token: root, try Self.archive(version: "1.\(minor).0")).status
                #expect([.created, .ok].contains(status), "1.\(minor).0")
            }
            let over = try await Self.publish(client, token: root, try Self.archive(version: "2.0.0"))
            #expect(over.status == .forbidden, "\(over.status)")
            #expect(over.apiError?.error.contains("\(PackageLimits.versionsPerPublisher) package versions") == true)
        }
    }

    @Test("suggestions from counts: packages on canvases shared with a user, then what teammates installed; never what they have, nor who")
    func suggestions() async throws {
        let harness = try await BFFHarness()
        defer { harness.remove() }
        try await harness.addAdmins("root")
        try await harness.addUsers("ann", "bob", "carol")
        try await harness.withServer { client in
            let root = try await client.token(for: "root")
            let (ann, bob, carol) = (try await client.token(for: "ann"), try await client.token(for: "bob"), try await client.token(for: "carol"))
            for id in ["sysmon", "notes", "weather", "gone"] {
                #expect(try await Self.publish(client, token: root, try Self.archive(id, version: "1.0.0"), id: id).status == .created)
            }
            #expect(try await client.send(.delete, APIPath.registryApp("gone"), token: root).status == .noContent)
            // Two of ann's canvases shared with carol: sysmon on both, notes and a withdrawn app on one.
            for (name, apps) in [("ops", ["sysmon", "notes", "gone"]), ("home", ["sysmon", "todo"])] {
                let panes = apps.enumerated().map { index, app in
                    Pane(id: PaneID(index + 1), app: AppKind(rawValue: app), frame: Rect(x: index * 3, y: 0, width: 3, height: 12))
                }
                let created = try await client.send(.post, APIPath.canvases, token: ann,
                                                    json: NewCanvas(name: name, layout: LayoutData(name: name, panes: panes)))
                let id = try created.decode(CanvasSnapshot.self).id
                #expect(try await client.send(.put, APIPath.canvasMember(id, user: "carol"), token: ann,
                                              json: CanvasMemberRole(role: .viewer)).status == .noContent)
            }
            // Installs: weather by ann and bob, notes by bob; carol installed notes herself.
            for (token, id) in [(ann, "weather"), (bob, "weather"), (bob, "notes"), (carol, "notes")] {
                #expect(try await client.send(.post, APIPath.registryInstalls(id), token: token, rawBody: nil).status == .noContent)
            }
            let forCarol = try await client.send(.get, APIPath.registrySuggestions, token: carol).decode([AppSuggestion].self)
            #expect(forCarol.map(\.app.id) == ["sysmon", "weather"])
            #expect(forCarol.first?.sharedCanvases == 2 && forCarol.first?.teammateInstalls == 0)
            #expect(forCarol.first?.reason == "on 2 canvases shared with you")
            #expect(forCarol.last?.reason == "installed by 2 teammates" && forCarol.last?.app.package != nil)
            // Ann's own canvases suggest nothing to her; her teammates' installs do, not her own.
            let forAnn = try await client.send(.get, APIPath.registrySuggestions, token: ann).decode([AppSuggestion].self)
            #expect(forAnn.map(\.app.id) == ["notes"] && forAnn.first?.teammateInstalls == 2)
            let body = String(buffer: try await client.send(.get, APIPath.registrySuggestions, token: carol).body)
            #expect(!body.contains("ann") && !body.contains("bob"), "no one learns who installed what")
        }
    }
}
