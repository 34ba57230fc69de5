import CalendarTime
import Crypto
import Foundation
import WebDAVXML
import Logging
import ServerAPI
import ServerProxy
import ServerStore

/// Two-way sync of the user's calendars with their CalDAV server (RFC 4791), in the server, so
/// every dashboard of theirs sees it and a change made offline goes through the dashboard's
/// outbox and then here. Each round of a calendar first sends what changed here (`PUT` with
/// `If-Match` its ETag, or `If-None-Match: *` for a new event; `DELETE` with `If-Match`), then
/// keeps what changed there: the members changed since the last sync token (RFC 6578's
/// sync-collection), or, from a server without it or a token it no longer knows, every member's
/// ETag compared; their text read with `calendar-multiget`. An event changed on both sides keeps
/// the server's version and the one changed here as a copy (its title says so), and the
/// calendar's `problem` tells the user. A calendar is synced every five minutes, and at once
/// when it changes here. A task list is synced the same way, its tasks (`VTODO`) todo items; a
/// collection that takes both events and tasks is synced as a calendar and as a task list.
package struct CalDAVSync: Sendable {
    let store: BFFStore
    let entries: EntryClient
    let seal: PasswordSeal
    let logger: Logger
    let clock: @Sendable () -> Date

    static let interval: Int64 = 300
    /// Events read with one `calendar-multiget`.
    static let batch = 50

    package init(store: BFFStore, entries: EntryClient, serverSecret: String, logger: Logger, clock: @escaping @Sendable () -> Date) {
        self.store = store
        self.entries = entries
        seal = PasswordSeal(serverSecret: serverSecret)
        self.logger = logger
        self.clock = clock
    }

    /// Finds the user's calendars at `address` and keeps those of events and of tasks (or the
    /// ones `names` names) synced from now on; the first calendar and the first task list become
    /// theirs for new events and items when `makeDefault`.
    /// - Throws: `CalDAVProblem` in our words; the store's errors.
    package func connect(owner: Int64, address: String, user: String, password: String, names: [String], makeDefault: Bool) async throws
        -> [CalendarCollection] {
        let url: URL
        switch SubscriptionAddress.url(address) {
        case .success(let found): url = found
        case .failure(let problem): throw CalDAVProblem("the address \(problem.description)")
        }
        let client = CalDAVClient(entries: entries, user: user, password: password, logger: logger)
        let (home, found) = try await client.discover(url)
        let usable = found.filter { $0.holdsEvents || $0.holdsTasks }
        var chosen = usable
        if !names.isEmpty {
            let wanted = Set(names.map { $0.lowercased() })
            chosen = chosen.filter { wanted.contains($0.name.lowercased()) || wanted.contains($0.url.lastPathComponent.lowercased()) }
            guard !chosen.isEmpty else {
                throw CalDAVProblem("none of your calendars there is named \(names.joined(separator: ", ")); they are: "
                                    + usable.map(\.name).joined(separator: ", "))
            }
        }
        guard !chosen.isEmpty else { throw CalDAVProblem("\(url.host ?? "the server") has no calendar of events or tasks for you") }
        let calendars = chosen.filter(\.holdsEvents).map {
            BFFStore.NewSyncedCalendar(url: $0.url.absoluteString, name: $0.name, colour: $0.colour, taskList: false)
        } + chosen.filter(\.holdsTasks).map {
            BFFStore.NewSyncedCalendar(url: $0.url.absoluteString, name: $0.name, colour: $0.colour, taskList: true)
        }
        return try await store.connectCalDAV(owner: owner, url: url.absoluteString, user: user, secret: try seal.seal(password),
                                             home: home.absoluteString, calendars: calendars, makeDefault: makeDefault, now: now)
    }

    /// One round of a calendar's sync (two when events changed on both sides: their copies are
    /// sent at once); the calendar as it now is, its `problem` saying what failed or was kept twice.
    @discardableResult
    package func sync(_ due: BFFStore.DueCalendar, notice: String? = nil) async throws -> CalendarCollection? {
        guard let target = try await store.syncTarget(id: due.id) else { return nil }
        let round: (pulled: BFFStore.Pulled, problem: String?, conflicts: Int)
        do throws(CalDAVProblem) {
            guard let collection = URL(string: target.url) else { throw CalDAVProblem("the calendar's address is not a URL") }
            let client = CalDAVClient(entries: entries, user: target.user, password: try seal.open(target.secret), logger: logger)
            let conflicts = try await send(target, collection: collection, client: client)
            let what = target.taskList ? "task" : "event"
            round = (try await changes(of: target, collection: collection, client: client), conflicts > 0
                ? "\(conflicts) \(what)\(conflicts == 1 ? " was" : "s were") changed here and on the server: the server's kept, yours as a copy"
                : notice, conflicts)
        } catch {
            round = (BFFStore.Pulled(), error.description, 0)
        }
        let synced = try await store.keepPulled(round.pulled, of: target, problem: round.problem, now: now, nextIn: Self.interval)
        return round.conflicts > 0 && notice == nil ? try await sync(due, notice: round.problem) : synced
    }

    // MARK: - What changed here

    /// Sends the deletions and the changes made here; how many were changed on both sides.
    private func send(_ target: BFFStore.SyncTarget, collection: URL, client: CalDAVClient) async throws(CalDAVProblem) -> Int {
        let state: (resources: [BFFStore.SyncedResource], deleted: [(href: String, etag: String?)])
        do { state = try await store.toSend(from: target, now: now) } catch { throw CalDAVProblem("the calendar's events could not be read here") }
        for deleted in state.deleted {
            guard let url = CalDAVClient.url(deleted.href, in: collection, sameOrigin: true) else { continue }
            let answer = try await client.send("DELETE", url, headers: deleted.etag.map { [("If-Match", $0)] } ?? [])
            // 412: changed there meanwhile; the next listing brings it back.
            guard (200..<300).contains(answer.status) || [404, 410, 412].contains(answer.status) else {
                throw CalDAVProblem("\(url.host ?? "the server") answered \(answer.status) to deleting \(target.taskList ? "a task" : "an event")",
                                    status: answer.status)
            }
            try await forget(deleted.href, of: target)
        }
        var conflicts = 0
        for resource in state.resources {
            let href = resource.href ?? collection.appendingPathComponent(Self.resourceName(resource.uid)).path(percentEncoded: true)
            guard let url = CalDAVClient.url(href, in: collection, sameOrigin: true) else { continue }
            let condition = resource.href == nil ? [("If-None-Match", "*")] : resource.etag.map { [("If-Match", $0)] } ?? []
            let answer = try await client.send("PUT", url, body: resource.text, contentType: "text/calendar; charset=utf-8", headers: condition)
            switch answer.status {
            case 200..<300:
                do { try await store.markSent(resource, href: href, etag: answer.etag) } catch {
                    throw CalDAVProblem("what was sent could not be noted here")
                }
            case 412:
                try await keepBoth(resource, target: target, url: url, href: href, client: client)
                conflicts += 1
            default:
                throw CalDAVProblem("\(url.host ?? "the server") answered \(answer.status) to saving \(resource.uid.prefix(60))", status: answer.status)
            }
        }
        return conflicts
    }

    /// The server's version of a conflicting event or task replaces it; what was changed here
    /// becomes a copy.
    private func keepBoth(_ resource: BFFStore.SyncedResource, target: BFFStore.SyncTarget, url: URL, href: String, client: CalDAVClient)
        async throws(CalDAVProblem) {
        let answer = try await client.send("GET", url)
        var kept = false
        do {
            if answer.status == 200 {
                kept = try await store.keepBoth(resource, target: target, theirs: answer.text, href: href, etag: answer.etag,
                                                copyUID: UUID().uuidString.lowercased())
            }
        } catch {
            throw CalDAVProblem("something changed on both sides could not be kept here")
        }
        guard kept else {
            throw CalDAVProblem("\(url.host ?? "the server") answered \(answer.status) to reading what was changed on both sides")
        }
    }

    private func forget(_ href: String, of target: BFFStore.SyncTarget) async throws(CalDAVProblem) {
        do { try await store.forgetDeletion(calendar: target.id, href: href) } catch { throw CalDAVProblem("a deletion sent could not be noted here") }
    }

    // MARK: - What changed there

    private func changes(of target: BFFStore.SyncTarget, collection: URL, client: CalDAVClient) async throws(CalDAVProblem) -> BFFStore.Pulled {
        let known: [String: String?]
        do {
            known = try await store.remoteETags(of: target)
        } catch {
            throw CalDAVProblem("the calendar's events could not be read here")
        }
        var pulled = BFFStore.Pulled()
        var members: [(href: String, etag: String?)]
        do {
            let (report, _) = try await client.multistatus("REPORT", collection, depth: "0", body: DAVBody.syncCollection(token: target.syncToken))
            pulled.token = report.syncToken
            members = []
            for response in report.responses {
                if response.status == 404 { pulled.removed.append(response.href) } else { members.append((response.href, response.etag)) }
            }
        } catch where error.status != nil && error.status != 401 {
            // No sync-collection, or a token the server no longer knows: every member, compared.
            let (listing, _) = try await client.multistatus("PROPFIND", collection, depth: "1", body: DAVBody.etags)
            let collectionPath = collection.path(percentEncoded: true)
            members = listing.responses.filter { $0.href != collectionPath && $0.href != collection.absoluteString }.map { ($0.href, $0.etag) }
            let present = Set(members.map(\.href))
            pulled.removed = known.keys.filter { !present.contains($0) }
        }
        let changed = members.filter { member in known[member.href].map { $0 != member.etag || member.etag == nil } ?? true }.map(\.href)
        for start in stride(from: 0, to: changed.count, by: Self.batch) {
            let hrefs = Array(changed[start..<min(start + Self.batch, changed.count)])
            let (got, _) = try await client.multistatus("REPORT", collection, depth: "1", body: DAVBody.multiget(hrefs))
            for response in got.responses {
                guard let text = response.property(DAVElement.calDAV, "calendar-data")?.text else { continue }
                pulled.changed.append((href: response.href, etag: response.etag, text: text))
            }
        }
        return pulled
    }

    // MARK: -

    /// The name a new event is saved under in its collection: its UID when that is a safe file
    /// name, else a digest of it.
    static func resourceName(_ uid: String) -> String {
        let safe = !uid.isEmpty && uid.count <= 100 && uid.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "-_.@".unicodeScalars.contains($0)) }
        let name = safe ? uid : SHA256.hash(data: Data(uid.utf8)).map { String(format: "%02x", $0) }.joined()
        return name + ".ics"
    }

    var now: UTCInstant { UTCInstant(secondsSinceEpoch: Int64(clock().timeIntervalSince1970.rounded(.down))) }
}
