import CalendarItems
import CalendarTime
import ICalendar
import ServerAPI
import SystemZones

/// Calendars synced with CalDAV servers: the account (its password sealed by the caller), its
/// calendars and task lists as `calendars` rows of kind `caldav`, each event's or task's place
/// (`remote_href`) and ETag there, `pending` when it changed here and is still to be sent, and
/// `caldav_deletions` for those deleted here. A sync reads what is to be sent, sends it, then
/// keeps what the server changed (`keepPulled`), one transaction and one
/// `calendar.collection.updated` for it all. A task list's tasks are todo items
/// (`BFFStore+CalDAVTasks.swift`); each function here answers for either, as the target is.
extension BFFStore {
    /// A calendar or task list chosen at `calendar connect`.
    package struct NewSyncedCalendar: Sendable {
        package let url: String
        package let name: String
        package let colour: String?
        package let taskList: Bool

        package init(url: String, name: String, colour: String?, taskList: Bool) {
            self.url = url
            self.name = name
            self.colour = colour
            self.taskList = taskList
        }
    }

    /// A CalDAV calendar or task list to sync, with its account.
    package struct SyncTarget: Sendable {
        package let id: Int64
        package let owner: Int64
        package let url: String
        package let syncToken: String?
        package let user: String
        package let secret: String
        package let taskList: Bool
    }

    /// An event or a task changed here, to be sent.
    package struct SyncedResource: Sendable {
        package let id: Int64
        package let uid: String
        /// Where it is on the server and its ETag there; nil when it is new.
        package let href: String?
        package let etag: String?
        /// Its iCalendar text, as it is to be sent.
        package let text: String
        /// Of a task: the item as it was when its text was made, so a change made meanwhile
        /// keeps it pending.
        let item: TodoItem?
    }

    /// What the server changed since the last sync: each changed member's text, as it came.
    package struct Pulled: Sendable {
        package var changed: [(href: String, etag: String?, text: String)] = []
        package var removed: [String] = []
        package var token: String?

        package init() {}
    }

    /// A new CalDAV account of `owner`'s and the calendars chosen, due for a first sync now; the
    /// first calendar and the first task list become theirs for new events and items when `makeDefault`.
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
                var plan: Plan<[(id: Int64, taskList: Bool)]> = .done([])
                for calendar in calendars {
                    plan = plan.then { made in
                        .run("""
                            INSERT INTO calendars (owner_id, name, colour, kind, url, account_id, task_list, refresh_due, created_at)
                            VALUES (\(owner), \(calendar.name), \(calendar.colour), \(CalendarCollection.calDAV), \(calendar.url), \(account),
                                \(calendar.taskList), \(now), \(now)) RETURNING id
                            """) { rows in .done(made + [(try rows.first?.integer(0) ?? 0, calendar.taskList)]) }
                    }
                }
                return plan.then { made in
                    let ids = made.map(\.id)
                    let calendar = made.first { !$0.taskList }?.id
                    let list = made.first { $0.taskList }?.id
                    let setDefault: Plan<Void> = makeDefault && !made.isEmpty ? .run("""
                        UPDATE users SET default_calendar_id = \(calendar ?? 0), default_list_id = \(list ?? 0) WHERE id = \(owner)
                        """) { _ in .done(()) } : .done(())
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

    /// The calendar or task list with this id if it is a CalDAV one, with its account.
    package func syncTarget(id: Int64) async throws -> SyncTarget? {
        try await runRead(Plan.run("""
            SELECT c.id, c.owner_id, c.url, c.sync_token, a.user_name, a.secret, c.task_list FROM calendars c
                JOIN caldav_accounts a ON a.id = c.account_id WHERE c.id = \(id) AND c.kind = \(CalendarCollection.calDAV)
            """) { rows in
            .done(try rows.map { row in
                SyncTarget(id: try row.integer(0), owner: try row.integer(1), url: try row.text(2), syncToken: try row.optionalText(3),
                           user: try row.text(4), secret: try row.text(5), taskList: try row.bool(6))
            }.first)
        }, snapshot: false)
    }

    /// What the target has to send: its events or tasks changed here, and the places of those
    /// deleted here.
    package func toSend(from target: SyncTarget, now: UTCInstant) async throws
        -> (resources: [SyncedResource], deleted: [(href: String, etag: String?)]) {
        if target.taskList { return try await tasksToSend(from: target.id, now: now) }
        return try await runRead(Plan.run("""
            SELECT id, uid, remote_href, remote_etag, ical FROM calendar_events
                WHERE calendar_id = \(target.id) AND pending = \(true) AND ical IS NOT NULL
            """) { rows in
            let events = try rows.map { row in
                SyncedResource(id: try row.integer(0), uid: try row.optionalText(1) ?? "", href: try row.optionalText(2),
                               etag: try row.optionalText(3), text: try row.text(4), item: nil)
            }
            return Self.deletions(of: target.id).then { deleted in .done((events, deleted)) }
        }, snapshot: true)
    }

    /// The places of what was deleted here, to delete there.
    static func deletions(of calendar: Int64) -> Plan<[(href: String, etag: String?)]> {
        .run("SELECT href, etag FROM caldav_deletions WHERE calendar_id = \(calendar)") { rows in
            .done(try rows.map { (href: try $0.text(0), etag: try $0.optionalText(1)) })
        }
    }

    /// Where the target's events or tasks are on the CalDAV server, with their ETags there.
    package func remoteETags(of target: SyncTarget) async throws -> [String: String?] {
        let table: SQLStatement = target.taskList ? "todo_items WHERE list_id" : "calendar_events WHERE calendar_id"
        return try await runRead(Plan.run("""
            SELECT remote_href, remote_etag FROM \(table) = \(target.id) AND remote_href IS NOT NULL
            """) { rows in
            .done(Dictionary(try rows.map { (try $0.text(0), try $0.optionalText(1)) }, uniquingKeysWith: { first, _ in first }))
        }, snapshot: false)
    }

    /// The event or task was sent: it is at `href` with `etag`, and no longer pending unless it
    /// changed here meanwhile (its text, or a task's fields, are no longer what was sent).
    package func markSent(_ resource: SyncedResource, href: String, etag: String?) async throws {
        if let item = resource.item { return try await markTaskSent(resource.id, item: item, text: resource.text, href: href, etag: etag) }
        try await runWrite(Plan.run("""
            UPDATE calendar_events SET remote_href = \(href), remote_etag = \(etag),
                pending = CASE WHEN ical = \(resource.text) THEN \(false) ELSE pending END WHERE id = \(resource.id)
            """) { _ in .done(()) })
    }

    /// The deletion was sent (or found moot).
    package func forgetDeletion(calendar: Int64, href: String) async throws {
        try await runWrite(Plan.run("DELETE FROM caldav_deletions WHERE calendar_id = \(calendar) AND href = \(href)") { _ in .done(()) })
    }

    /// Both sides changed the event or task: the server's version (`theirs`, at `href`, `etag`)
    /// replaces it, and what was changed here becomes a copy named `copyUID`, its title saying
    /// so, new in the target and still to be sent. False when either text is no event or task.
    package func keepBoth(_ resource: SyncedResource, target: SyncTarget, theirs: String, href: String, etag: String?, copyUID: String)
        async throws -> Bool {
        if target.taskList { return try await keepBothTasks(resource, target: target, theirs: theirs, href: href, etag: etag, copyUID: copyUID) }
        guard let (server, mine) = try await offThePool({ () -> (WrittenEvent, WrittenEvent)? in
            guard let theirs = Self.event(theirs), let mine = Self.event(resource.text) else { return nil }
            return (WrittenEvent(theirs), WrittenEvent(mine.copy(uid: copyUID, titleSuffix: Self.copySuffix)))
        }) else { return false }
        let id = resource.id
        try await runWrite(.lock("calendar.owner.\(target.owner)", next: Self.updateRow(id: id, with: server).then { _ in
            Plan.run("UPDATE calendar_events SET remote_href = \(href), remote_etag = \(etag), pending = \(false) WHERE id = \(id)") { _ in
                Self.insertRow(mine, owner: target.owner, calendar: target.id).then { copied in
                    .run("UPDATE calendar_events SET pending = \(true) WHERE id = \(copied)") { _ in .done(()) }
                }
            }
        }))
        return true
    }

    /// What the title of a copy kept of a change made on both sides ends with.
    static let copySuffix = " (changed here too)"

    /// The one event of a CalDAV resource's text; nil when it holds none (a task list's task).
    static func event(_ text: String) -> EventResource? {
        guard let calendar = (try? ICalendarText.read(text))?.first(where: { $0.name == "VCALENDAR" }) else { return nil }
        return EventResource.resources(in: calendar, zones: SystemZones.zone).lazy.compactMap { try? $0.get() }.first
    }

    /// Keeps what the server changed, the new sync token, and when the target is next due; the
    /// calendar or task list as it now is (one `calendar.collection.updated` when anything
    /// changed), nil when it was removed meanwhile. What changed here and is not yet sent is left
    /// as it is; a member that is no event (or no task, of a task list) is passed over.
    @discardableResult
    package func keepPulled(_ pulled: Pulled, of target: SyncTarget, problem: String?, now: UTCInstant, nextIn seconds: Int64) async throws
        -> CalendarCollection? {
        let token: SQLStatement = pulled.token.map { ", sync_token = \($0)" } ?? ""
        let state: SQLStatement = problem.map { "problem = \($0)" } ?? "problem = NULL, refreshed_at = \(now)"
        let (id, owner) = (target.id, target.owner)
        let steps: Plan<Bool>
        if target.taskList {
            steps = Self.keepPulledTasks(try await offThePool { pulled.changed.compactMap { changed in
                TaskResource(text: changed.text).map { (href: changed.href, etag: changed.etag, task: $0) }
            } }, removed: pulled.removed, of: target)
        } else {
            steps = Self.keepPulledEvents(try await offThePool { pulled.changed.compactMap { changed in
                Self.event(changed.text).map { (href: changed.href, etag: changed.etag, event: WrittenEvent($0)) }
            } }, removed: pulled.removed, of: target)
        }
        return try await runWrite(.lock("calendar.owner.\(owner)", next: Plan.run("""
            UPDATE calendars SET \(state)\(token), refresh_due = \(now.adding(seconds: seconds)) WHERE id = \(id) RETURNING id
            """) { rows in
            guard !rows.isEmpty else { return .done(nil) }
            return steps.then { anything in
                Self.collections(owner: owner, id: id).then { found in
                    guard let collection = found.first else { return .done(nil) }
                    return anything || problem != nil
                        ? .record(.calendarCollectionUpdated, owner: owner, data: collection, then: .done(collection)) : .done(collection)
                }
            }
        }))
    }

    /// The changes of a calendar's events a sync pulled; whether there were any.
    private static func keepPulledEvents(_ changed: [(href: String, etag: String?, event: WrittenEvent)], removed: [String],
                                         of target: SyncTarget) -> Plan<Bool> {
        let (id, owner) = (target.id, target.owner)
        return .run("SELECT id, remote_href, pending, uid FROM calendar_events WHERE calendar_id = \(id)") { rows in
            var byHref: [String: (id: Int64, pending: Bool)] = [:]
            var byUID: [String: Int64] = [:]
            for row in try rows.map({ ($0, try $0.optionalText(1), try $0.bool(2), try $0.optionalText(3)) }) {
                if let href = row.1 { byHref[href] = (try row.0.integer(0), row.2) }
                if let uid = row.3 { byUID[uid] = try row.0.integer(0) }
            }
            // An event changed here and not yet sent is left as it is.
            var steps: [CalendarStep] = removed.compactMap { href in
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
            return CalendarStep.run(steps, owner: owner, calendar: id).then { _ in .done(anything) }
        }
    }

    /// The calendar a new event of `owner`'s goes to when they name none: their own (0) unless
    /// `calendar connect` made a synced one theirs.
    package func defaultCalendar(of owner: Int64) async throws -> Int64 {
        try await runRead(Plan.run("SELECT default_calendar_id FROM users WHERE id = \(owner)") { rows in
            .done(try rows.first?.integer(0) ?? 0)
        }, snapshot: false)
    }
}
