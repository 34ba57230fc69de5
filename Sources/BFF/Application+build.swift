import Foundation
import Hummingbird
import Logging
import MicroAppAPI

/// Builds the BFF application: opens its store, sets up token signing and the routes.
///
/// - Parameters:
///   - configuration: Where to listen and keep data, and how to sign tokens.
///   - logger: Where the server logs; the executable bootstraps logging, never this library.
/// - Throws: When the data directory or database cannot be opened.
public func buildApplication(
    _ configuration: BFFConfiguration,
    logger: Logger = Logger(label: "termcanvas.bff")
) async throws -> some ApplicationProtocol {
    let store = try BFFStore.open(at: configuration.databaseURL, bcryptCost: configuration.bcryptCost)
    let secret = try configuration.jwtSecret ?? SigningSecret.loadOrCreate(in: configuration.dataDirectory)
    let issuer = await TokenIssuer(secret: secret, lifetime: configuration.tokenLifetime)
    let router = buildRouter(store: store, issuer: issuer)
    let onServerRunning = configuration.onServerRunning
    return Application(
        router: router,
        configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "termcanvas-bff"),
        onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? 0) },
        logger: logger
    )
}

/// The routes: `/health` and the token route open, everything else under `/api` behind bearer auth.
func buildRouter(store: BFFStore, issuer: TokenIssuer) -> Router<BFFRequestContext> {
    let router = Router(context: BFFRequestContext.self)
    router.add(middleware: APIErrorMiddleware<BFFRequestContext>())
    router.add(middleware: LogRequestsMiddleware<BFFRequestContext>(.info))
    router.get(RouterPath(APIPath.health)) { _, _ in
        try Response.json(["status": "ok"])
    }
    AuthController(issuer: issuer, store: store).addRoutes(to: router)
    let api = router.group("api").add(middleware: BearerAuthMiddleware(issuer: issuer, store: store))
    TodoController(store: store).addRoutes(to: api.group("todo"))
    return router
}
