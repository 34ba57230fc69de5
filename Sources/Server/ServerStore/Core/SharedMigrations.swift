/// The schema's migrations from version 19 on, written once for both engines: each statement in
/// `SQLStatement`'s words, which each engine spells its own way (`SQLiteStore.migrator` and
/// `PostgresStore.migrations` append them, numbered after their own). Append new ones, never edit
/// a shipped one.
enum SharedMigrations {
    static let all: [(name: String, statements: [SQLStatement])] = [
        ("v19: events and tasks as iCalendar", [
            // The event's iCalendar text (a VCALENDAR of its UID's components, as CalDAV keeps a
            // resource); NULL for an event from before, which its columns describe whole.
            "ALTER TABLE calendar_events ADD COLUMN uid TEXT\(.bytewise)",
            "ALTER TABLE calendar_events ADD COLUMN ical TEXT",
            // When its last instance ends (UTC ISO text, as start_at); NULL when it repeats without end.
            "ALTER TABLE calendar_events ADD COLUMN series_end TEXT\(.bytewise)",
            "ALTER TABLE calendar_events ADD COLUMN repeats BOOLEAN NOT NULL DEFAULT false",
            "UPDATE calendar_events SET series_end = end_at",
            "CREATE UNIQUE INDEX calendar_events_owner_uid ON calendar_events (owner_id, uid)",
            // Repeating events are read apart, by where they can reach.
            "CREATE INDEX calendar_events_owner_repeats ON calendar_events (owner_id, repeats, start_at)",
            "ALTER TABLE todo_items ADD COLUMN uid TEXT\(.bytewise)",
            "ALTER TABLE todo_items ADD COLUMN ical TEXT",
            "ALTER TABLE todo_items ADD COLUMN priority INTEGER NOT NULL DEFAULT 0",
            "CREATE UNIQUE INDEX todo_items_owner_uid ON todo_items (owner_id, uid)",
        ]),
        ("v20: calendars besides the user's own: subscriptions", [
            // Times as UTC ISO text, as the events' (`refresh_due` orders the refresher's queue).
            """
            CREATE TABLE calendars (id \(.autoIncrementKey), owner_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                name TEXT NOT NULL, colour TEXT, kind TEXT NOT NULL, url TEXT, etag TEXT, last_modified TEXT,
                refreshed_at TEXT, refresh_due TEXT NOT NULL, problem TEXT, created_at TEXT NOT NULL)
            """,
            "CREATE INDEX calendars_owner ON calendars (owner_id, id)",
            "CREATE INDEX calendars_refresh_due ON calendars (refresh_due)",
            // 0: the user's own calendar, which has no row.
            "ALTER TABLE calendar_events ADD COLUMN calendar_id BIGINT NOT NULL DEFAULT 0",
            "DROP INDEX calendar_events_owner_uid",
            "CREATE UNIQUE INDEX calendar_events_owner_uid ON calendar_events (owner_id, calendar_id, uid)",
        ]),
        ("v21: calendars synced with CalDAV servers", [
            // The password is sealed with a key derived from the server's secret (`secret`).
            """
            CREATE TABLE caldav_accounts (id \(.autoIncrementKey), owner_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                url TEXT NOT NULL, user_name TEXT NOT NULL, secret TEXT NOT NULL, home_url TEXT NOT NULL, created_at TEXT NOT NULL)
            """,
            "CREATE INDEX caldav_accounts_owner ON caldav_accounts (owner_id, id)",
            "ALTER TABLE calendars ADD COLUMN account_id BIGINT REFERENCES caldav_accounts (id) ON DELETE CASCADE",
            // The collection's RFC 6578 token of the last sync; NULL: list it whole.
            "ALTER TABLE calendars ADD COLUMN sync_token TEXT",
            // Where the event is on the CalDAV server and its ETag there; `pending`: changed here,
            // to be sent.
            "ALTER TABLE calendar_events ADD COLUMN remote_href TEXT",
            "ALTER TABLE calendar_events ADD COLUMN remote_etag TEXT",
            "ALTER TABLE calendar_events ADD COLUMN pending BOOLEAN NOT NULL DEFAULT false",
            // A sync reads a calendar's events by place, and those to send.
            "CREATE INDEX calendar_events_calendar ON calendar_events (calendar_id, remote_href)",
            // Events deleted here, to be deleted there.
            """
            CREATE TABLE caldav_deletions (calendar_id BIGINT NOT NULL REFERENCES calendars (id) ON DELETE CASCADE, href TEXT NOT NULL,
                etag TEXT, PRIMARY KEY (calendar_id, href))
            """,
            // The user's calendar for new events (0: their own, which no server has).
            "ALTER TABLE users ADD COLUMN default_calendar_id BIGINT NOT NULL DEFAULT 0",
        ]),
        ("v22: task lists synced with CalDAV servers", [
            // A CalDAV collection of tasks: its tasks are todo items (their `list_id`), it has no events.
            "ALTER TABLE calendars ADD COLUMN task_list BOOLEAN NOT NULL DEFAULT false",
            // 0: the user's own list, which no server has. Place, ETag and `pending` as an event's.
            "ALTER TABLE todo_items ADD COLUMN list_id BIGINT NOT NULL DEFAULT 0",
            "ALTER TABLE todo_items ADD COLUMN remote_href TEXT",
            "ALTER TABLE todo_items ADD COLUMN remote_etag TEXT",
            "ALTER TABLE todo_items ADD COLUMN pending BOOLEAN NOT NULL DEFAULT false",
            "DROP INDEX todo_items_owner_uid",
            "CREATE UNIQUE INDEX todo_items_owner_uid ON todo_items (owner_id, list_id, uid)",
            "CREATE INDEX todo_items_list ON todo_items (list_id, remote_href)",
            // The user's list for new items (0: their own).
            "ALTER TABLE users ADD COLUMN default_list_id BIGINT NOT NULL DEFAULT 0",
        ]),
    ]

    /// A statement's text in an engine's words; a migration binds no values.
    static func text(_ statement: SQLStatement, spell: (SQLWord) -> String) -> String {
        let (text, values) = statement.rendered(placeholder: { _ in "?" }, spell: spell)
        precondition(values.isEmpty, "a migration binds no values")
        return text
    }
}
