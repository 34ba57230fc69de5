import CanvasUI
import AppModel
import BFFAccess
import CommandSupport
import FoundationEssentials
import HTTPClient
import ServerAPI

/// A registry the user follows: a server's, reached as `--bff` reaches it.
package struct Registry: Sendable {
    /// `scheme://host[:port]`, or `local` for this user's own server: what an installed package's
    /// origin records.
    package let key: String

    package static let local = "local"

    /// The name it goes by where several are followed: `team.example:7450`, `local`.
    package var name: String { PackageOrigin.registryName(key) }

    /// The registry at the server `bff` names (this user's own server for nil).
    package init(bff: String?) throws {
        key = try bff.map { try ServerURL($0).origin } ?? Self.local
    }

    package init(key: String) {
        self.key = key
    }
}

/// The registries a user follows.
package enum Registries {
    /// The one `bff` names, or else this user's own server and every server they are logged in
    /// to (`termcanvas login URL`).
    package static func followed(bff: String?, paths: Paths) throws -> [Registry] {
        if let bff { return [try Registry(bff: bff)] }
        return [Registry(key: Registry.local)] + paths.credentials.servers().map(Registry.init(key:))
    }

    /// Each app's name as commands and the catalog give it: its id, or `REGISTRY/ID` for an id
    /// two registries have.
    package static func names(_ apps: [(registry: Registry, id: String)]) -> [String] {
        let counts = Dictionary(apps.map { ($0.id, 1) }, uniquingKeysWith: +)
        return apps.map { counts[$0.id, default: 0] > 1 ? "\($0.registry.name)/\($0.id)" : $0.id }
    }
}

/// `ID`, `ID@VERSION`, `REGISTRY/ID`, `REGISTRY/ID@VERSION`: a package as a command names it.
package struct PackageName: Sendable, Equatable {
    package let registry: String?
    package let id: String
    package let version: String?

    package init(_ text: String) throws {
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
