import AsyncHTTPClient
import CalendarTime
import Foundation
import Logging
import NIOCore
import ServerAPI
import ServerStore
import ServiceLifecycle
import Synchronization

/// Knows each remote micro-app's health: checks `GET ENTRY/health` of every one on a period, and
/// one at once when asked (a publish, an admin's `POST …/health`, a proxied call that found it
/// unreachable). A change is recorded as the live event `registry.app.health`, which every
/// dashboard hears, without the reason: only admins see that.
///
/// An entry answers `200` with `{"status": "up"}` or `{"status": "degraded", "reason": "…"}` (any
/// other 2xx is up); anything else, or nothing within `timeout`, is down.
package final class AppHealthMonitor: Service, Sendable {
    private let store: BFFStore
    private let entries: EntryClient
    private let interval: Duration
    private let logger: Logger
    private let board = Mutex<[String: AppHealth]>([:])
    static let timeout = TimeAmount.seconds(3)
    /// Reasons longer than this are cut: they end up in pane titles.
    static let maximumReason = 120

    package init(store: BFFStore, entries: EntryClient, interval: Duration, logger: Logger) {
        self.store = store
        self.entries = entries
        self.interval = interval
        self.logger = logger
    }

    /// The app's last known health; nil when never checked.
    package func health(of id: String) -> AppHealth? { board.withLock { $0[id] } }

    /// Forgets a withdrawn app.
    package func forget(_ id: String) { _ = board.withLock { $0.removeValue(forKey: id) } }

    package func run() async throws {
        try? await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                await self.checkAll()
                try await Task.sleep(for: self.interval)
            }
        }
    }

    func checkAll() async {
        guard let entries = try? await store.remoteEntries() else { return }
        await withTaskGroup(of: Void.self) { group in
            for (id, entry) in entries { group.addTask { _ = await self.check(id, entry: entry) } }
        }
    }

    /// Checks one app now and records what changed.
    @discardableResult
    package func check(_ id: String, entry: URL) async -> AppHealth {
        let observed = await observe(entry)
        let now = UTCInstant.now.iso
        let (health, changed) = board.withLock { board -> (AppHealth, Bool) in
            let previous = board[id]
            var health = observed
            health.since = previous?.state == observed.state ? previous?.since : now
            board[id] = health
            return (health, previous?.state != health.state || previous?.reason != health.reason)
        }
        if changed {
            logger.info("micro-app health", metadata: ["app": "\(id)", "state": "\(health.state.rawValue)",
                                                       "reason": "\(health.reason ?? "")"])
            do {
                // Every user hears the event: the state only (admins read the reason from the app).
                try await store.recordHealth(AppHealthChange(id: id, health: health.withoutReason))
            } catch {
                logger.error("could not record a health change", metadata: ["app": "\(id)", "error": "\(error)"])
            }
        }
        return health
    }

    private func observe(_ entry: URL) async -> AppHealth {
        var request = HTTPClientRequest(url: entry.appendingPathComponent("health").absoluteString)
        request.method = .GET
        do {
            let (response, body) = try await entries.call(request, to: entry, timeout: Self.timeout, maximumBody: 4096, logger: logger)
            guard (200..<300).contains(response.status.code) else {
                return AppHealth(state: .down, reason: "health answered \(response.status.code)")
            }
            let answer = try? JSONDecoder().decode(EntryHealth.self, from: Data(buffer: body))
            guard answer?.status == "degraded" else { return AppHealth(state: .up) }
            return AppHealth(state: .degraded, reason: Self.clean(answer?.reason ?? "no reason given"))
        } catch let refused as EntryRefused {
            return AppHealth(state: .down, reason: Self.clean(refused.description))
        } catch let error as HTTPClientError where error == .deadlineExceeded || error == .readTimeout {
            return AppHealth(state: .down, reason: "no answer within \(Self.timeout.nanoseconds / 1_000_000_000) s")
        } catch {
            return AppHealth(state: .down, reason: "unreachable")
        }
    }

    /// One line of at most `maximumReason` characters without control characters.
    static func clean(_ reason: String) -> String {
        String(String(reason.unicodeScalars.filter { $0.properties.generalCategory != .control }).prefix(maximumReason))
    }

    private struct EntryHealth: Decodable {
        let status: String?
        let reason: String?
    }
}

