import AppInstalls
import AppPackages
import ServerAPI
@testable import termcanvas
import Testing

/// A registry that lies: what `apps install` and the catalog's install take from a server's page is
/// checked against the archive itself, and a page that cannot be a package's is never shown.
@Suite("A package's page is not taken on the server's word")
struct PackagePageTrustTests {
    static let manifest = """
        id: sysmon
        name: System monitor
        version: 1.0.0
        protocol: "1.0"
        exec: [python3, main.py]
        permissions:
          files:
            read: [/proc, ~/notes]

        """

    static func archive(_ manifest: String = manifest) throws -> [UInt8] {
        try PackageArchive(files: [.init(path: "app.yaml", isExecutable: false, bytes: Array(manifest.utf8))]).encoded()
    }

    static func page(for bytes: [UInt8], id: String = "sysmon", permissions: PackagePermissions,
                     digest: String? = nil, size: Int? = nil) -> PackagePage? {
        let package = PackageVersion(digest: digest ?? SHA256Digest.hex(of: bytes), size: size ?? bytes.count, permissions: permissions)
        let app = MicroAppInfo(id: id, name: "System monitor", version: "1.0.0", description: "", basePath: "", events: [],
                               kind: .package, package: package)
        return PackagePage(app, in: Registry(key: "http://127.0.0.1:9"))
    }

    static let asked = PackagePermissions(state: true, read: ["/proc", "~/notes"])

    @Test("the page's permissions are what its app.yaml asks for, or nothing is installed")
    func fewerPermissionsOnThePage() throws {
        let bytes = try Self.archive()
        let honest = try #require(Self.page(for: bytes, permissions: Self.asked))
        #expect(try PackageInstaller.check(bytes, against: honest).manifest == Array(Self.manifest.utf8))
        let lying = try #require(Self.page(for: bytes, permissions: PackagePermissions(state: true, read: ["/proc"])))
        #expect { try PackageInstaller.check(bytes, against: lying) } throws: { error in
            "\(error)".contains("asks for other permissions than its page shows; nothing was installed")
        }
    }

    @Test("an archive of another app than the page's, or bytes other than its digest's, is refused")
    func anotherApp() throws {
        let bytes = try Self.archive(Self.manifest.replacingOccurrences(of: "id: sysmon", with: "id: notes"))
        let page = try #require(Self.page(for: bytes, permissions: Self.asked))
        #expect { try PackageInstaller.check(bytes, against: page) } throws: { "\($0)".contains("its app.yaml says notes 1.0.0") }
        let other = try #require(Self.page(for: try Self.archive(), permissions: Self.asked))
        #expect { try PackageInstaller.check(bytes, against: other) } throws: { "\($0)".contains("but the archive downloaded has sha256:") }
    }

    @Test("a page that cannot be a package's is not one: a digest that is not SHA-256 hex, a size out of bounds, an id that is not one")
    func malformedPages() throws {
        let bytes = try Self.archive()
        #expect(Self.page(for: bytes, permissions: Self.asked, digest: "\u{1B}[2J" + String(repeating: "a", count: 60)) == nil)
        #expect(Self.page(for: bytes, permissions: Self.asked, digest: String(repeating: "A", count: 64)) == nil)
        #expect(Self.page(for: bytes, permissions: Self.asked, size: Int.max) == nil)
        #expect(Self.page(for: bytes, permissions: Self.asked, size: -1) == nil)
        #expect(Self.page(for: bytes, id: "../etc", permissions: Self.asked) == nil)
        #expect(Self.page(for: bytes, permissions: Self.asked) != nil)
    }
}
