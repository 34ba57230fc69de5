import ServerStore
import ServiceLifecycle

/// Runs beside the server: sends keep-alive ticks to the live event streams, so idle connections
/// stay open through proxies and dead ones are noticed when the write fails.
package struct LiveEventsService: Service {
    let hub: LiveEventHub
    let interval: Duration

    package init(hub: LiveEventHub, interval: Duration) {
        self.hub = hub
        self.interval = interval
    }

    package func run() async throws {
        try? await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                try await Task.sleep(for: interval)
                hub.heartbeat()
            }
        }
        hub.shutDown()
    }
}
