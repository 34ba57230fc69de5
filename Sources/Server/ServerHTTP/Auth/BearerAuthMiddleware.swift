import Foundation
import Hummingbird
import ServerStore

/// Lets a request through only with `Authorization: Bearer TOKEN` naming an existing user and one
/// of their live sessions, which it puts in the context; anything else gets 401. The token itself
/// is never logged.
package struct BearerAuthMiddleware: RouterMiddleware {
    package typealias Context = BFFRequestContext
    let issuer: TokenIssuer
    let store: BFFStore
    /// Shared with the live streams, which check their user before each event.
    let users: RecentUsers

    package init(issuer: TokenIssuer, store: BFFStore, users: RecentUsers) {
        self.issuer = issuer
        self.store = store
        self.users = users
    }

    package func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let header = request.headers[.authorization],
              header.count > 7, header.prefix(7).lowercased() == "bearer ",
              let claims = await issuer.verify(Self.trimmingSpaces(header.dropFirst(7))),
              let id = claims.userID, let session = claims.sid,
              let signedIn = try await signedIn(id, session: session, issuedAt: claims.iat?.value)
        else {
            throw APIFailure.unauthorized
        }
        var context = context
        context.user = signedIn.user
        context.session = session
        context.tokenExpiry = claims.exp.value
        context.logger[metadataKey: "user"] = "\(signedIn.user.name)"
        return try await next(request, context)
    }

    /// The user of `id` when `session` is one of theirs, read again when the token is newer than
    /// what is remembered (a session started since).
    private func signedIn(_ id: Int64, session: String, issuedAt: Date?) async throws -> SignedInUser? {
        let lookUp: @Sendable (Int64) async throws -> SignedInUser? = { [store] in try await store.signedInUser(id: $0) }
        guard let remembered = try await users.user(id: id, lookUp: lookUp) else { return nil }
        switch remembered.admits(session, issuedAt: issuedAt) {
        case .yes: return remembered
        case .no: return nil
        case .readAgain:
            let read = try await users.user(id: id, again: true, lookUp: lookUp)
            return read?.admits(session, issuedAt: nil) == .yes ? read : nil
        }
    }

    /// The token without surrounding spaces (Foundation's trimming bridged every token through
    /// NSString: 7 % of a list request).
    static func trimmingSpaces(_ text: Substring) -> String {
        var slice = text
        while let first = slice.first, first == " " || first == "\t" { slice.removeFirst() }
        while let last = slice.last, last == " " || last == "\t" { slice.removeLast() }
        return String(slice)
    }
}
