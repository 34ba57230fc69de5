import Hummingbird
import NIOCore
import Foundation
import ServerStore

/// The per-request context: Hummingbird's core storage, the peer, the authenticated user and the body limit.
package struct BFFRequestContext: RequestContext, RemoteAddressRequestContext {
    package var coreContext: CoreRequestContextStorage
    /// The peer's address; nil on a unix socket.
    package let remoteAddress: SocketAddress?
    /// The client's address, for per-address limits: the peer's (everyone on a unix socket shares
    /// "local"), or behind a trusted proxy the one it forwarded (`ForwardedForMiddleware`).
    package var clientAddress: String
    /// The user the bearer token names; set by `BearerAuthMiddleware`, nil on routes without auth.
    package var user: BFFUser?
    /// When the bearer token expires; set with `user`. Live streams end then.
    package var tokenExpiry: Date?
    /// The session the bearer token is of; set with `user`. Live streams end when it does.
    package var session: String?
    /// Request bodies larger than this get 413 (`NIOTooManyBytesError` from `collect(upTo:)`).
    package var maxUploadSize: Int { 64 * 1024 }

    package init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.remoteAddress = source.channel.remoteAddress
        self.clientAddress = remoteAddress?.ipAddress ?? "local"
    }
}

extension BFFRequestContext {
    /// The authenticated user; 401 on a route that did not authenticate.
    package func authenticatedUser() throws -> BFFUser {
        guard let user else { throw APIFailure.unauthorized }
        return user
    }

    /// The authenticated user's id; 401 on a route that did not authenticate.
    package func userID() throws -> Int64 {
        try authenticatedUser().id
    }

    /// The `{id}` of the path as a number; one that is not a number names nothing, so 404.
    package func numericID() throws -> Int64 {
        guard let id = parameters.get("id", as: Int64.self) else { throw APIFailure.notFound }
        return id
    }
}
