import Foundation
import Hummingbird

/// Lets a request through only with `Authorization: Bearer TOKEN` naming an existing user, whom it
/// puts in the context; anything else gets 401. The token itself is never logged.
struct BearerAuthMiddleware: RouterMiddleware {
    typealias Context = BFFRequestContext
    let issuer: TokenIssuer
    let store: BFFStore

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let header = request.headers[.authorization],
              header.count > 7, header.prefix(7).lowercased() == "bearer ",
              let claims = await issuer.verify(String(header.dropFirst(7)).trimmingCharacters(in: .whitespaces)),
              let id = claims.userID,
              let user = try store.user(id: id)
        else {
            throw APIFailure.unauthorized
        }
        var context = context
        context.user = user
        context.logger[metadataKey: "user"] = "\(user.name)"
        return try await next(request, context)
    }
}
