import CalendarItems
import CalendarTime
import ServerAPI

/// Calendars synced with CalDAV servers: the account (its password sealed by the caller), its
/// calendars as `calendars` rows of kind `caldav`, each event's place (`remote_href`) and ETag
/// there, `pending` when it changed here and is still to be sent, and `caldav_deletions` for
/// events deleted here. A sync reads what is to be sent, sends it, then keeps what the server
/// changed (`keepPulled`), one transaction and one `calendar.collection.updated` for it all.
extension BFFStore {
    /// A calendar chosen at `calendar connect`.
    package struct NewSyncedCalendar: Sendable {
        package let url: String
        package let name: String
        package let colour: String?

        package init(url: String, name: String, colour: String?) {
            self.url = url
            self.name = name
            self.colour = colour
        }
    }

    /// A CalDAV calendar to sync, with its account.
    package struct SyncTarget: Sendable {
        package let id: Int64
        package let owner: Int64
        package let url: String
        package let syncToken: String?
        package let user: String
        package let secret: String
    }

    /// An event of a synced calendar changed here, to be sent.
    package struct SyncedEvent: Sendable {
        package let id: Int64
        package let uid: String
        /// Where it is on the server and its ETag there; nil when it is new.
        package let href: String?
        package let etag: String?
        /// Its iCalendar text, as it is to be sent.
        package let text: String
    }

    /// What the server changed since the last sync.
    package struct Pulled: Sendable {
        package var changed: [(href: String, etag: String?, event: EventResource)] = []
        package var removed: [String] = []
        package var token: String?

        package init() {}
    }

    /// A new CalDAV account of `owner`'s and the calendars chosen, due for a first sync now; the
    /// first of them holding events becomes their calendar for new events when `makeDefault`.
    /// - Throws: `BFFStoreError.quotaReached` past `CalendarCollectionLimits.perUser` calendars.
    package func connectCalDAV(owner: Int64, url: String, user: String, secret: String, home: String, calendars: [NewSyncedCalendar],
                               makeDefault: Bool, now: UTCInstant) async throws -> [CalendarCollection] {
        try await runWrite(.lock("calendar.owner.\(owner)", next: Plan.run("SELECT COUNT(*) FROM calendars WHERE owner_id = \(owner)") { rows in
            guard (try rows.first?.integer(0) ?? 0) + Int64(calendars.count) <= Int64(CalendarCollectionLimits.perUser) else {
                throw BFFStoreError.quotaReached(what: "calendars", limit: CalendarCollectionLimits.perUser)
            }
            return .run("""
                INSERT INTO caldav_accounts (owner_id, url, user_name, secret, home_url, created_at)
                VALUES (\(owner), \(url), \(user), \(secret), \(home), \(now)) RETURNING id
                """) { rows in
                guard let account = try rows.first?.integer(0) else { throw BFFStoreError.unreadableRow("caldav_accounts, just written") }
                var plan: Plan<[Int64]> = .done([])
                for calendar in calendars {
                    plan = plan.then { ids in
                        .run("""
                            INSERT INTO calendars (owner_id, name, colour, kind, url, account_id, refresh_due, created_at)
                            VALUES (\(owner), \(calendar.name), \(calendar.colour), \(CalendarCollection.calDAV), \(calendar.url), \(account), \(now),
                                \(now)) RETURNING id
                            """) { rows in .done(ids + [try rows.first?.integer(0) ?? 0]) }
                    }
                }
                return plan.then { ids in
                    let setDefault: Plan<Void> = makeDefault && !ids.isEmpty
                        ? .run("UPDATE users SET default_calendar_id = \(ids[0]) WHERE id = \(owner)") { _ in .done(()) } : .done(())
                    return setDefault.then { _ in
                        Self.collections(owner: owner, id: nil).then { all in
                            let made = all.filter { ids.contains($0.id) }
                            var recorded: Plan<[CalendarCollection]> = .done(made)
                            for collection in made {
                                recorded = .record(.calendarCollectionCreated, owner: owner, data: collection, then: recorded)
                            }
                            return recorded
                        }
                    }
                }
            }
        }))
    }

    /// The calendar with this id if it is a CalDAV one, with its account.
    package func syncTarget(id: Int64) async throws -> SyncTarget? {
        try await runRead(Plan.run("""
            SELECT c.id, c.owner_id, c.url, c.sync_token, a.user_name, a.secret FROM calendars c
                JOIN caldav_accounts a ON a.id = c.account_id WHERE c.id = \(id) AND c.kind = \(CalendarCollection.calDAV)
            """) { rows in
            .done(try rows.map { row in
                SyncTarget(id: try row.integer(0), owner: try row.integer(1), url: try row.text(2), syncToken: try row.optionalText(3),
                           user: try row.text(4), secret: try row.text(5))
            }.first)
        }, snapshot: false)
    }

    /// What the calendar has to send: its events changed here, and the places of those deleted here.
    package func toSend(from calendar: Int64) async throws -> (events: [SyncedEvent], deleted: [(href: String, etag: String?)]) {
        try await runRead(Plan.run("""
            SELECT id, uid, remote_href, remote_etag, ical FROM calendar_events
                WHERE calendar_id = \(calendar) AND pending = \(true) AND ical IS NOT NULL
            """) { rows in
            let events = try rows.map { row in
                SyncedEvent(id: try row.integer(0), uid: try row.optionalText(1) ?? "", href: try row.optionalText(2), etag: try row.optionalText(3),
                            text: try row.text(4))
            }
            return .run("SELECT href, etag FROM caldav_deletions WHERE calendar_id = \(calendar)") { rows in
                .done((events, try rows.map { (href: try $0.text(0), etag: try $0.optionalText(1)) }))
            }
        }, snapshot: true)
    }

    /// Where the calendar's events are on the CalDAV server, with their ETags there.
    package func remoteETags(of calendar: Int64) async throws -> [String: String?] {
        try await runRead(Plan.run("""
            SELECT remote_href, remote_etag FROM calendar_events WHERE calendar_id = \(calendar) AND remote_href IS NOT NULL
            """) { rows in
            .done(Dictionary(try rows.map { (try $0.text(0), try $0.optionalText(1)) }, uniquingKeysWith: { first, _ in first }))
        }, snapshot: false)
    }

    /// The event was sent: it is at `href` with `etag`, and no longer pending unless it changed
    /// here meanwhile (its text is no longer what was sent).
    package func markSent(event id: Int64, text: String, href: String, etag: String?) async throws {
        try await runWrite(Plan.run("""
            UPDATE calendar_events SET remote_href = \(href), remote_etag = \(etag),
                pending = CASE WHEN ical = \(text) THEN \(false) ELSE pending END WHERE id = \(id)
            """) { _ in .done(()) })
    }

    /// The deletion was sent (or found moot).
    package func forgetDeletion(calendar: Int64, href: String) async throws {
        try await runWrite(Plan.run("DELETE FROM caldav_deletions WHERE calendar_id = \(calendar) AND href = \(href)") { _ in .done(()) })
    }

    /// Both sides changed the event: the server's version replaces it (at `href`, `etag`), and
    /// what was changed here becomes `copy`, a new event of the calendar still to be sent.
    package func keepBoth(event id: Int64, target: SyncTarget, theirs: EventResource, href: String, etag: String?, copy: EventResource) async throws {
        let (server, mine) = try await offThePool { (WrittenEvent(theirs), WrittenEvent(copy)) }
        try await runWrite(.lock("calendar.owner.\(target.owner)", next: Self.updateRow(id: id, with: server).then { _ in
            Plan.run("UPDATE calendar_events SET remote_href = \(href), remote_etag = \(etag), pending = \(false) WHERE id = \(id)") { _ in
                Self.insertRow(mine, owner: target.owner, calendar: target.id).then { copied in
                    .run("UPDATE calendar_events SET pending = \(true) WHERE id = \(copied)") { _ in .done(()) }
                }
            }
        }))
    }

    /// Keeps what the server changed, the new sync token, and when the calendar is next due; the
    /// calendar as it now is (one `calendar.collection.updated` when anything changed), nil when
    /// it was removed meanwhile. An event changed here and not yet sent is left as it is.
    @discardableResult
    package func keepPulled(_ pulled: Pulled, of target: SyncTarget, problem: String?, now: UTCInstant, nextIn seconds: Int64) async throws
        -> CalendarCollection? {
        let changed = try await offThePool { pulled.changed.map { (href: $0.href, etag: $0.etag, event: WrittenEvent($0.event)) } }
        let (id, owner) = (target.id, target.owner)
        let token: SQLStatement = pulled.token.map { ", sync_token = \($0)" } ?? ""
        let state: SQLStatement = problem.map { "problem = \($0)" } ?? "problem = NULL, refreshed_at = \(now)"
        return try await runWrite(.lock("calendar.owner.\(owner)", next: Plan.run("""
            UPDATE calendars SET \(state)\(token), refresh_due = \(now.adding(seconds: seconds)) WHERE id = \(id) RETURNING id
            """) { rows in
            guard !rows.isEmpty else { return .done(nil) }
            return .run("SELECT id, remote_href, pending, uid FROM calendar_events WHERE calendar_id = \(id)") { rows in
                var byHref: [String: (id: Int64, pending: Bool)] = [:]
                var byUID: [String: Int64] = [:]
                for row in try rows.map({ ($0, try $0.optionalText(1), try $0.bool(2), try $0.optionalText(3)) }) {
                    if let href = row.1 { byHref[href] = (try row.0.integer(0), row.2) }
                    if let uid = row.3 { byUID[uid] = try row.0.integer(0) }
                }
                // An event changed here and not yet sent is left as it is.
                var steps: [CalendarStep] = pulled.removed.compactMap { href in
                    byHref[href].flatMap { $0.pending ? nil : .delete($0.id) }
                }
                for change in changed {
                    if let known = byHref[change.href] ?? byUID[change.event.resource.uid].map({ (id: $0, pending: false) }) {
                        if !known.pending { steps.append(.update(known.id, href: change.href, etag: change.etag, event: change.event)) }
                    } else {
                        steps.append(.insert(href: change.href, etag: change.etag, event: change.event))
                    }
                }
                let anything = !steps.isEmpty
                return CalendarStep.run(steps, owner: owner, calendar: id).then { _ in
                    Self.collections(owner: owner, id: id).then { found in
                        guard let collection = found.first else { return .done(nil) }
                        return anything || problem != nil
                            ? .record(.calendarCollectionUpdated, owner: owner, data: collection, then: .done(collection)) : .done(collection)
                    }
                }
            }
        }))
    }

    /// The calendar a new event of `owner`'s goes to when they name none: their own (0) unless
    /// `calendar connect` made a synced one theirs.
    package func defaultCalendar(of owner: Int64) async throws -> Int64 {
        try await runRead(Plan.run("SELECT default_calendar_id FROM users WHERE id = \(owner)") { rows in
            .done(try rows.first?.integer(0) ?? 0)
        }, snapshot: false)
    }
}
