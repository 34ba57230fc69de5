import AppModel
import CanvasCore
import FoundationEssentials
import HTTPClient
import ServerAPI

/// Reads from the server: what widgets look at, reloaded whole at the first connect, after a
/// stream reset, and for an app whose write was refused.
extension SyncMachine {
    /// Replaces the cache with the server's data for everything the widgets look at. Once every
    /// part came back whole, the cache is marked complete: from then on the live stream, resumed
    /// from its last event, keeps it current (see `catchUp`).
    mutating func refreshAll(now: Date, _ effects: inout [Effect]) {
        effects.append(.setComplete(since: nil))
        fetchRegistryAfresh(&effects)
        var parts: [Effect] = []
        for app in [ServerApp.todo, .chat, .calendar] { reload(app, &parts) }
        refresh = Refresh(started: now, waitingFor: Set(parts.compactMap { if case .fetch(let fetch) = $0 { fetch } else { nil } }))
        effects += parts
        finishRefreshIfDone(&effects)
    }

    /// What a complete cache whose live stream resumed may still lack: the registry, and the
    /// calendar's months that were never fetched. Its todos and chat are current: the server
    /// replays every change since the last event the cache applied, so a dashboard with 10 000
    /// todos does not fetch them all again at each start.
    mutating func catchUp(now: Date, _ effects: inout [Effect]) {
        fetchRegistryAfresh(&effects)
        reload(.calendar, &effects)
        synced(.todo, now: now, &effects)
        synced(.chat, now: now, &effects)
    }

    /// Reloads one app's data from the server.
    mutating func reload(_ app: ServerApp, _ effects: inout [Effect]) {
        guard link.hasClient else { return }
        switch app {
        case .todo:
            startFetch(.todos, &effects)
        case .calendar:
            for days in calendarRanges.sorted(by: { ($0.first, $0.last) < ($1.first, $1.last) }) { startFetch(.events(days), &effects) }
        case .chat:
            startFetch(.channels, &effects)
            for channel in openChannels.sorted() { startFetch(.newestMessages(channel: channel), &effects) }
        }
    }

    /// At a connection, or a stream reset: a registry fetch of an earlier one may never answer
    /// (its client gone), so this one does not wait for it.
    private mutating func fetchRegistryAfresh(_ effects: inout [Effect]) {
        registryFetch = .idle
        startFetch(.registry, &effects)
    }

    mutating func startFetch(_ fetch: Fetch, _ effects: inout [Effect]) {
        if case .registry = fetch {
            guard registryFetch == .idle else { return registryFetch = .runningAgain }
            registryFetch = .running
        }
        if fetch.replacesList, let app = fetch.app {
            listFetches[app, default: 0] += 1
            if touchedDuringFetch[app] == nil { touchedDuringFetch[app] = [] }
        }
        effects.append(.fetch(fetch))
    }

    /// Notes an id a live event or a completed write changed, for list fetches under way.
    mutating func touch(_ app: ServerApp, _ id: Int64) {
        touchedDuringFetch[app]?.insert(id)
    }

    mutating func fetched(_ fetch: Fetch, _ result: Result<Fetched, HTTPClientError>, _ effects: inout [Effect]) {
        let keeping = fetch.app.flatMap { touchedDuringFetch[$0] } ?? []
        endListFetch(fetch)
        if case .registry = fetch {
            // A change came since it started, which its answer may not have: once more.
            let again = registryFetch == .runningAgain
            registryFetch = .idle
            if again { startFetch(.registry, &effects) }
        }
        switch result {
        case .success(let fetched):
            effects.append(.store(fetched, keeping: fetch.replacesList ? keeping : []))
        case .failure(let error):
            if case .olderMessages(let channel, let before) = fetch {
                effects.append(.answerFromCache(.olderMessages(channel: channel, before: before)))
            }
            if let app = fetch.app {
                if case .unreachable = error {
                    link = .lost(.offline)
                } else if error != .cancelled {
                    statuses.problems[app] = Self.describe(error)
                }
                publishStatuses(&effects)
                effects.append(.log(.debug, "\(app) fetch failed: \(error)"))
            } else {
                effects.append(.log(.warning, "registry unavailable: \(error)"))
            }
            if refresh?.waitingFor.contains(fetch) == true { refresh?.whole = false }
            partDone(fetch, &effects)
        }
    }

    mutating func stored(_ fetch: Fetch, now: Date, _ effects: inout [Effect]) {
        if case .events(let days) = fetch { link.keep(days) }
        if let app = fetch.app, fetch.isSync { synced(app, now: now, &effects) }
        partDone(fetch, &effects)
    }

    /// A fetch whose answer the cache could not store: a round waiting for it goes on without it,
    /// not whole (see `markDoubtful`).
    mutating func storeFailed(_ fetch: Fetch, _ effects: inout [Effect]) {
        partDone(fetch, &effects)
    }

    private mutating func endListFetch(_ fetch: Fetch) {
        guard fetch.replacesList, let app = fetch.app, let count = listFetches[app] else { return }
        if count > 1 {
            listFetches[app] = count - 1
        } else {
            listFetches[app] = nil
            touchedDuringFetch[app] = nil
        }
    }

    private mutating func partDone(_ fetch: Fetch, _ effects: inout [Effect]) {
        guard refresh?.waitingFor.remove(fetch) != nil else { return }
        finishRefreshIfDone(&effects)
    }

    private mutating func finishRefreshIfDone(_ effects: inout [Effect]) {
        guard let round = refresh, round.waitingFor.isEmpty else { return }
        refresh = nil
        if round.whole { effects.append(.setComplete(since: round.started)) }
    }

    /// A good answer for `app`: its trouble is over and it is synced now.
    mutating func synced(_ app: ServerApp, now: Date, _ effects: inout [Effect]) {
        statuses.problems[app] = nil
        statuses.lastSynced[app] = now
        effects.append(.setLastSynced(app, now))
        publishStatuses(&effects)
    }
}

extension Fetch {
    /// Whether storing it means the app is in step with the server (older pages say nothing of that).
    var isSync: Bool {
        if case .olderMessages = self { return false }
        return app != nil
    }
}
