import ServerAPI

/// Why the BFF store could not do what was asked.
package enum BFFStoreError: Error, Equatable, CustomStringConvertible {
    case newerVersion
    /// The database's schema is older than this build's (`termcanvas-bff migrate` brings it up to date).
    case schemaBehind(version: Int, wanted: Int)
    case userExists(name: String)
    /// A name that looks like an existing user's (UTS #39's skeleton): `dаve` with a Cyrillic `а` beside `dave`.
    case userLooksLike(name: String, existing: String)
    case invalidUserName(String)
    /// A row the store wrote or expects cannot be read back (the database was changed under it).
    case unreadableRow(String)
    /// The database is away or did not answer in time. The API answers 503 with `Retry-After`:
    /// a write may have committed or not, so a client resends it with its `Idempotency-Key`.
    case unavailable(String)
    /// The user made `AuditLimits.changesPerUserPerDay` audited changes in the last 24 hours.
    case auditedChangesSpent(retryAfter: Duration)
    /// The user keeps as many of these (`what`, plural) as one user may (`TodoLimits`, `CalendarLimits`).
    case quotaReached(what: String, limit: Int)
    /// A calendar range's repeating events need more work than one request may do
    /// (`CalendarLimits.workPerRequest`).
    case tooMuchWork
    /// The event is in a calendar the user cannot change here (a subscription).
    case readOnlyCalendar
    /// The user has no calendar with the id a new event names.
    case noSuchCalendar
    /// The user has no task list with the id a new item names.
    case noSuchList

    package var description: String {
        switch self {
        case .newerVersion: "the BFF database was written by a newer TermCanvas; update TermCanvas to use it"
        case .schemaBehind(let version, let wanted):
            "the BFF database's schema is at version \(version), this TermCanvas needs \(wanted): run `termcanvas-bff migrate`"
        case .userExists(let name): "a user named '\(name)' already exists"
        case .userLooksLike(let name, let existing):
            "'\(name)' looks like the name of the user '\(existing)' (its letters are of another script, or look alike): choose another"
        case .invalidUserName(let reason): "invalid user name: \(reason)"
        case .unreadableRow(let row): "the BFF database has an unreadable row: \(row)"
        case .unavailable(let reason): "the BFF database is unavailable: \(reason)"
        case .auditedChangesSpent: "\(AuditLimits.changesPerUserPerDay) audited changes in a day, the most one user may make"
        case .quotaReached(let what, let limit): "a user keeps at most \(limit) \(what)"
        case .tooMuchWork: "the range's repeating events need more work than one request may do"
        case .readOnlyCalendar: "the event is in a subscribed calendar, which is read-only"
        case .noSuchCalendar: "no such calendar"
        case .noSuchList: "no such task list"
        }
    }
}
