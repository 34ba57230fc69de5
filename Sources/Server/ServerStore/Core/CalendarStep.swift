import ServerAPI

/// One change a reading of a subscription or a sync makes to a calendar's events; their place on a
/// CalDAV server (`href`, `etag`) kept with them when they have one.
enum CalendarStep: Sendable {
    case delete(Int64)
    case update(Int64, href: String?, etag: String?, event: WrittenEvent)
    case insert(href: String?, etag: String?, event: WrittenEvent)

    /// `steps` in turn, within the user's quota of events (counted once, for them all).
    /// - Throws: `BFFStoreError.quotaReached` when the inserts would pass it (nothing is changed).
    static func run(_ steps: [CalendarStep], owner: Int64, calendar: Int64) -> Plan<Void> {
        let change = steps.reduce(0) { total, step in
            switch step {
            case .delete: total - 1
            case .update: total
            case .insert: total + 1
            }
        }
        return .run("SELECT COUNT(*) FROM calendar_events WHERE owner_id = \(owner)") { count in
            guard (try count.first?.integer(0) ?? 0) + Int64(change) <= Int64(CalendarLimits.eventsPerUser) else {
                throw BFFStoreError.quotaReached(what: "calendar events", limit: CalendarLimits.eventsPerUser)
            }
            return .forEach(steps) { step in step.plan(owner: owner, calendar: calendar) }
        }
    }

    private func plan(owner: Int64, calendar: Int64) -> Plan<Void> {
        switch self {
        case .delete(let id):
            return .run("DELETE FROM calendar_events WHERE id = \(id)") { _ in .done(()) }
        case .update(let id, let href, let etag, let event):
            return BFFStore.updateRow(id: id, with: event).then { _ in Self.place(id, href: href, etag: etag) }
        case .insert(let href, let etag, let event):
            return BFFStore.insertRow(event, owner: owner, calendar: calendar).then { id in Self.place(id, href: href, etag: etag) }
        }
    }

    private static func place(_ id: Int64, href: String?, etag: String?) -> Plan<Void> {
        guard let href else { return .done(()) }
        return .run("UPDATE calendar_events SET remote_href = \(href), remote_etag = \(etag) WHERE id = \(id)") { _ in .done(()) }
    }
}
