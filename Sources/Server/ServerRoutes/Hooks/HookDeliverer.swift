import Foundation
import Logging
import ServerStore
import ServiceLifecycle

/// Delivers accepted webhook events from their stored queue: at once when one arrives, at start
/// for any a stopped server left, and again after a back-off (1 s doubling to a minute) when a
/// delivery fails, so none is lost.
package final class HookDeliverer: Service, Sendable {
    private let store: BFFStore
    private let logger: Logger
    private let wakes: AsyncStream<Void>
    private let waker: AsyncStream<Void>.Continuation
    static let batch = 100
    static let maximumBackoff: Duration = .seconds(60)

    package init(store: BFFStore, logger: Logger) {
        self.store = store
        self.logger = logger
        (wakes, waker) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// Something was queued.
    func wake() { waker.yield() }

    package func run() async throws {
        try? await cancelWhenGracefulShutdown {
            var backoff: Duration = .seconds(1)
            self.wake()
            for await _ in self.wakes {
                if await self.deliverPending() {
                    backoff = .seconds(1)
                } else {
                    try await Task.sleep(for: backoff)
                    backoff = min(backoff * 2, Self.maximumBackoff)
                    self.wake()
                }
            }
        }
        waker.finish()
    }

    /// Delivers every queued event; false when one failed (it stays queued).
    func deliverPending() async -> Bool {
        while true {
            let pending: [HookDelivery]
            do {
                pending = try await store.pendingHookDeliveries(limit: Self.batch)
            } catch {
                logger.error("could not read the webhook queue", metadata: ["error": "\(error)"])
                return false
            }
            guard !pending.isEmpty else { return true }
            for delivery in pending {
                do {
                    try await store.deliver(delivery)
                } catch {
                    logger.error("webhook delivery failed; retrying",
                                 metadata: ["app": "\(delivery.app)", "event": "\(delivery.event)", "attempts": "\(delivery.attempts + 1)",
                                            "error": "\(error)"])
                    try? await store.recordFailedDelivery(delivery)
                    return false
                }
            }
        }
    }
}
