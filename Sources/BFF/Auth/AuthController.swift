import Hummingbird
import MicroAppAPI

/// `POST /api/auth/token`: a username and password in, a signed bearer token out.
struct AuthController {
    let issuer: TokenIssuer
    let store: BFFStore

    func addRoutes(to router: Router<BFFRequestContext>) {
        router.post(RouterPath(APIPath.authToken)) { request, context in
            try await self.token(request, context: context)
        }
    }

    private func token(_ request: Request, context: BFFRequestContext) async throws -> Response {
        let body = try await request.decodeJSON(TokenRequest.self, context: context)
        guard let user = try store.authenticate(name: body.username, password: body.password) else {
            context.logger.info("token refused", metadata: ["username": "\(body.username)"])
            throw APIFailure(status: .unauthorized, body: APIError(error: "wrong username or password"))
        }
        context.logger.info("token issued", metadata: ["user": "\(user.name)"])
        return try .json(TokenResponse(token: try await issuer.issue(for: user)))
    }
}
