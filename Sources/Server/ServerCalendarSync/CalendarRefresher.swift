import CalendarTime
import Foundation
import Logging
import ServerAPI
import ServerStore
import ServiceLifecycle

/// Reads subscriptions again and syncs CalDAV calendars when they are due, one at a time, in
/// every instance of the server: each is claimed in the database first
/// (`BFFStore.claimDueCalendar`), so two instances never take one together. Between rounds it
/// sleeps until the next is due, or `longestSleep` (another instance may have made one due
/// sooner), or until `wakeup` says a synced calendar changed here: no polling faster than that
/// when there is nothing to do.
package struct CalendarRefresher: Service {
    let subscriptions: CalendarSubscriptions
    let sync: CalDAVSync
    let wakeup: CalendarWakeup
    let logger: Logger
    /// How long a claimed reading keeps others off it: past the reading's own time limit.
    static let claimSeconds: Int64 = 300
    static let longestSleep: Int64 = 900

    package init(subscriptions: CalendarSubscriptions, sync: CalDAVSync, wakeup: CalendarWakeup, logger: Logger) {
        self.subscriptions = subscriptions
        self.sync = sync
        self.wakeup = wakeup
        self.logger = logger
    }

    package func run() async {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                await wakeup.sleep(seconds: await readDue())
            }
        }
    }

    /// Reads or syncs every calendar due now; the seconds until the next one is.
    private func readDue() async -> Int64 {
        do {
            let store = subscriptions.store
            while let due = try await store.claimDueCalendar(now: subscriptions.now, holdingFor: Self.claimSeconds) {
                guard !Task.isCancelled else { return 0 }
                let done: CalendarCollection?
                switch due.kind {
                case CalendarCollection.subscription:
                    guard let subscription = try await store.subscription(id: due.id, owner: due.owner) else { continue }
                    done = try await subscriptions.refresh(subscription)
                case CalendarCollection.calDAV:
                    done = try await sync.sync(due)
                default:
                    continue
                }
                if let problem = done?.problem {
                    logger.info("calendar not read", metadata: ["calendar": "\(due.id)", "problem": "\(problem)"])
                }
            }
            guard let next = try await store.nextCalendarDue() else { return Self.longestSleep }
            return min(max(next.secondsSinceEpoch - subscriptions.now.secondsSinceEpoch, 1), Self.longestSleep)
        } catch {
            logger.warning("subscriptions not read", metadata: ["error": "\(String(describing: error))"])
            return 60
        }
    }
}
