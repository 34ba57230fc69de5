import AsyncHTTPClient
import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import Logging
import ServerAPI
import ServerCalendarSync
import ServerHTTP
import ServerLive
import ServerProxy
import ServerRoutes
import ServerSSO
import ServerStore

/// Builds the BFF application: opens its store, sets up token signing, the routes of the configured
/// micro-apps and the keep-alive service of the live event streams.
///
/// - Parameters:
///   - configuration: Where to listen and keep data, which apps to host, how to sign tokens.
///   - logger: Where the server logs; the executable bootstraps logging, never this library.
/// - Throws: When the data directory or database cannot be opened.
package func buildApplication(
    _ configuration: BFFConfiguration,
    logger: Logger = Logger(label: "termcanvas.bff")
) async throws -> some ApplicationProtocol {
    let opened = try await OpenedStore.open(configuration, logger: logger)
    let store = opened.store
    let issuer = await TokenIssuer(secret: opened.signingSecret, lifetime: configuration.tokenLifetime, clock: configuration.clock)
    let registry = RegistryServices(store: store, configuration: configuration, signingSecret: opened.signingSecret, logger: logger)
    let router = buildRouter(store: store, issuer: issuer, configuration: configuration, registry: registry, logger: logger)
    let onServerRunning = configuration.onServerRunning
    let address: BindAddress = configuration.unixSocketPath.map { .unixDomainSocket(path: $0) }
        ?? .hostname(configuration.host, port: configuration.port)
    let connections = ConnectionLimiter(limits: configuration.limits.connections, proxies: configuration.trustedProxies)
    let idleTimeout = configuration.limits.idleTimeout
    var server = HTTPServerBuilder.http1(configuration: .init(additionalChannelHandlers: [connections.handler()],
                                                              idleTimeout: .nanoseconds(Int64(idleTimeout / .nanoseconds(1)))))
    if let tls = configuration.tls { server = try .tls(server, tlsConfiguration: try tls.serverConfiguration()) }
    var application = Application(
        router: router,
        server: server,
        configuration: .init(address: address, serverName: "termcanvas-bff"),
        // The store's own first: they stop last.
        services: opened.services + [LiveEventsService(hub: store.liveEvents, interval: configuration.heartbeatInterval),
                                     registry.health, registry.hooks]
            + (configuration.apps.contains(.calendar) ? [CalendarRefresher(subscriptions: registry.subscriptions, sync: registry.calDAV,
                                                                           wakeup: registry.wakeup, logger: logger)] : []),
        onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? 0) },
        logger: logger
    )
    // Once the store's services run, and before listening, so a client that finds the socket also
    // finds the token.
    application.beforeServerStarts { [localAccount = configuration.localAccount, apps = configuration.apps] in
        try await localAccount?.prepare(store: store, issuer: issuer)
        try await store.registerBuiltIns(apps)
    }
    return application
}

/// The routes. Open: `/health`, `/ready`, `/metrics`, `/openapi.yaml` and the token route; everything
/// else under `/api` needs a bearer token. Per-address limits guard everything, per-user limits the API.
func buildRouter(store: BFFStore, issuer: TokenIssuer, configuration: BFFConfiguration,
                 registry: RegistryServices, logger: Logger = Logger(label: "termcanvas.bff")) -> Router<BFFRequestContext> {
    let router = Router(context: BFFRequestContext.self)
    let metrics = RequestMetrics()
    if !configuration.trustedProxies.isEmpty { router.add(middleware: ForwardedForMiddleware(trusted: configuration.trustedProxies)) }
    router.add(middleware: ActivityMiddleware(activity: configuration.activity))
    router.add(middleware: RequestIDMiddleware())
    router.add(middleware: MetricsMiddleware(metrics: metrics))
    router.add(middleware: APIErrorMiddleware<BFFRequestContext>())
    let served = ServedRoutes()
    router.add(middleware: MethodNotAllowedMiddleware<BFFRequestContext>(routes: served))
    router.add(middleware: LogRequestsMiddleware<BFFRequestContext>(.info))
    let limits = configuration.rateLimits
    if !limits.isOff {
        let perAddress = limits.share(limits.perAddressPerSecond)
        router.add(middleware: RateLimitMiddleware(limiter: .init(rate: perAddress, burst: 2 * perAddress), key: .address))
    }
    OperationsController(store: store, metrics: metrics).addRoutes(to: router)
    AuthController(issuer: issuer, store: store, limits: limits, passwords: configuration.singleSignOn?.passwords ?? true)
        .addRoutes(to: router)
    if let singleSignOn = configuration.singleSignOn {
        SingleSignOnController(provider: IdentityProvider(settings: singleSignOn, logger: logger), issuer: issuer, store: store, limits: limits)
            .addRoutes(to: router)
    }
    // Signed with the app's secret, not a token.
    HookController(store: store, deliverer: registry.hooks).addRoutes(to: router)

    let users = RecentUsers(validity: configuration.userRecheck)
    let api = router.group("api").add(middleware: BearerAuthMiddleware(issuer: issuer, store: store, users: users))
    if !limits.isOff {
        let perUser = limits.share(limits.perUserPerSecond)
        api.add(middleware: RateLimitMiddleware(limiter: .init(rate: perUser, burst: 2 * perUser), key: .user))
        let bytes = limits.share(limits.writeBytesPerUserPerSecond)
        api.add(middleware: WriteBudgetMiddleware(rate: bytes, largestBody: AppProxyController.maximumMessage,
                                                  larger: (PackageController.isPublish, PackageLimits.archiveBytes)))
    }
    api.add(middleware: IdempotencyMiddleware())
    let apps = configuration.apps
    RegistryController(store: store, health: registry.health, entries: registry.entries, answers: registry.answers)
        .addRoutes(to: api.group("registry"))
    PackageController(store: store, marks: registry.installs).addRoutes(to: api.group("registry"))
    AppProxyController(store: store, sessions: registry.sessions, health: registry.health, entries: registry.entries)
        .addRoutes(to: api.group("apps"))
    LiveEventsController(store: store, activity: configuration.activity, users: users).addRoutes(to: api)
    SessionsController(store: store, users: users).addRoutes(to: api.group("auth"))
    if apps.contains(.todo) { TodoController(store: store, wakeup: registry.wakeup).addRoutes(to: api.group("todo")) }
    if apps.contains(.calendar) {
        CalendarController(store: store, wakeup: registry.wakeup).addRoutes(to: api.group("calendar"))
        CalendarsController(store: store, subscriptions: registry.subscriptions, sync: registry.calDAV, wakeup: registry.wakeup)
            .addRoutes(to: api.group("calendars"))
    }
    if apps.contains(.chat) { ChatController(store: store).addRoutes(to: api.group("chat")) }
    CanvasController(store: store).addRoutes(to: api.group("canvas"))
    AuditController(store: store).addRoutes(to: api)
    served.record(router.routes)
    return router
}

/// What the registry runs beside the routes: the health checks of remote apps and the webhook
/// delivery queue; and the calendar subscriptions, which call out through the same network
/// policy.
struct RegistryServices: Sendable {
    let entries: EntryClient
    let subscriptions: CalendarSubscriptions
    let calDAV: CalDAVSync
    let wakeup = CalendarWakeup()
    let health: AppHealthMonitor
    let hooks: HookDeliverer
    let sessions: RemoteSessions
    let answers: RegistryAnswerSigner
    let installs: InstallMarks

    /// - Parameter signingSecret: the server's, from which the registry's key is derived.
    init(store: BFFStore, configuration: BFFConfiguration, signingSecret: String, logger: Logger) {
        answers = RegistryAnswerSigner(secret: signingSecret, clock: configuration.clock)
        installs = InstallMarks(secret: signingSecret)
        sessions = RemoteSessions(unstreamedLifetime: configuration.limits.unstreamedSessionLifetime)
        entries = EntryClient(policy: configuration.entryNetworkPolicy)
        health = AppHealthMonitor(store: store, entries: entries, interval: configuration.healthInterval, logger: logger)
        hooks = HookDeliverer(store: store, logger: logger)
        subscriptions = CalendarSubscriptions(store: store, reader: CalendarFeedReader(entries: entries, logger: logger), clock: configuration.clock)
        calDAV = CalDAVSync(store: store, entries: entries, serverSecret: signingSecret, logger: logger, clock: configuration.clock)
    }
}
