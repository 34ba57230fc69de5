import AppModel
import BFFAccess
import CommandSupport
import FoundationEssentials
import HTTPClient
import ServerAPI

/// A registry the user follows: a server's, reached as `--bff` reaches it.
struct Registry: Sendable {
    /// `scheme://host[:port]`, or `local` for this user's own server: what an installed package's
    /// origin records.
    let key: String

    static let local = "local"

    /// The name it goes by where several are followed: `team.example:7450`, `local`.
    var name: String { PackageOrigin.registryName(key) }

    /// The `--bff` that reaches it.
    var server: ServerOption {
        var option = ServerOption()
        option.bff = key == Self.local ? nil : key
        return option
    }

    func client() async throws -> HTTPClient { try await server.client() }

    /// The registry `--bff` names (this user's own server without it).
    init(_ option: ServerOption) throws {
        key = try option.bff.map { try ServerURL($0).origin } ?? Self.local
    }

    init(key: String) {
        self.key = key
    }

}

/// The registries a user follows.
enum Registries {
    /// The one `--bff` names, or else this user's own server and every server they are logged in
    /// to (`termcanvas login URL`).
    static func followed(_ option: ServerOption) throws -> [Registry] {
        if option.bff != nil { return [try Registry(option)] }
        let paths = Paths(environment: ProcessInfo.processInfo.environment)
        return [Registry(key: Registry.local)] + paths.credentials.servers().map(Registry.init(key:))
    }

    /// Each app's name as commands and the catalog give it: its id, or `REGISTRY/ID` for an id
    /// two registries have.
    static func names(_ apps: [(registry: Registry, id: String)]) -> [String] {
        let counts = Dictionary(apps.map { ($0.id, 1) }, uniquingKeysWith: +)
        return apps.map { counts[$0.id, default: 0] > 1 ? "\($0.registry.name)/\($0.id)" : $0.id }
    }
}

/// `ID`, `ID@VERSION`, `REGISTRY/ID`, `REGISTRY/ID@VERSION`: a package as a command names it.
struct PackageName: Sendable, Equatable {
    let registry: String?
    let id: String
    let version: String?

    init(_ text: String) throws {
        var rest = Substring(text)
        if let at = rest.lastIndex(of: "@") {
            version = String(rest[rest.index(after: at)...])
            rest = rest[..<at]
            guard version.flatMap(SemanticVersion.init) != nil else {
                throw CommandError("'\(TerminalText.safe(text))': after @ comes a version such as 1.2.0")
            }
        } else {
            version = nil
        }
        if let slash = rest.lastIndex(of: "/") {
            registry = String(rest[..<slash])
            rest = rest[rest.index(after: slash)...]
        } else {
            registry = nil
        }
        id = String(rest)
        guard ManifestRules.isAppID(id) else {
            throw CommandError("'\(TerminalText.safe(text))' is not a package's name: ID, ID@VERSION or REGISTRY/ID, the id \(ManifestRules.appIDRule)")
        }
    }
}
