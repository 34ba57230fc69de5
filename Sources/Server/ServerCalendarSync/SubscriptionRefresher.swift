import CalendarTime
import Foundation
import Logging
import ServerStore
import ServiceLifecycle

/// Reads subscriptions again when they are due, one at a time, in every instance of the server:
/// each reading is claimed in the database first (`BFFStore.claimDueSubscription`), so two
/// instances never read one together. Between readings it sleeps until the next is due, or
/// `longestSleep` (another instance may have made one due sooner): no polling faster than that
/// when there is nothing to read.
package struct SubscriptionRefresher: Service {
    let subscriptions: CalendarSubscriptions
    let logger: Logger
    /// How long a claimed reading keeps others off it: past the reading's own time limit.
    static let claimSeconds: Int64 = 300
    static let longestSleep: Int64 = 900

    package init(subscriptions: CalendarSubscriptions, logger: Logger) {
        self.subscriptions = subscriptions
        self.logger = logger
    }

    package func run() async throws {
        try? await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                let wait = await readDue()
                try await Task.sleep(for: .seconds(wait))
            }
        }
    }

    /// Reads every subscription due now; the seconds until the next one is.
    private func readDue() async -> Int64 {
        do {
            let store = subscriptions.store
            while let due = try await store.claimDueSubscription(now: subscriptions.now, holdingFor: Self.claimSeconds) {
                guard !Task.isCancelled else { return 0 }
                let read = try await subscriptions.refresh(due)
                if let problem = read?.problem {
                    logger.info("subscription not read", metadata: ["calendar": "\(due.id)", "problem": "\(problem)"])
                }
            }
            guard let next = try await store.nextSubscriptionDue() else { return Self.longestSleep }
            return min(max(next.secondsSinceEpoch - subscriptions.now.secondsSinceEpoch, 1), Self.longestSleep)
        } catch {
            logger.warning("subscriptions not read", metadata: ["error": "\(String(describing: error))"])
            return 60
        }
    }
}
