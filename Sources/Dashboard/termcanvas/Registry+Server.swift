import AppInstalls
import CommandSupport
import FoundationEssentials
import HTTPClient

extension Registry {
    /// The `--bff` that reaches it.
    var server: ServerOption {
        var option = ServerOption()
        option.bff = key == Self.local ? nil : key
        return option
    }

    /// A client of it, by the user's credential for it.
    func client() async throws -> HTTPClient { try await server.client() }

    /// The registry `--bff` names (this user's own server without it).
    init(_ option: ServerOption) throws {
        try self.init(bff: option.bff)
    }
}

extension Registries {
    /// The one `--bff` names, or else this user's own server and every server they are logged in to.
    static func followed(_ option: ServerOption) throws -> [Registry] {
        try followed(bff: option.bff, paths: Paths(environment: ProcessInfo.processInfo.environment))
    }
}
