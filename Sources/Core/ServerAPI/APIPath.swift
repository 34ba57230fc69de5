/// The paths of the BFF's API as its clients and the server's tests ask for them. The server's
/// routes are Hummingbird patterns beside their handlers (`users/{name}`); the API document
/// names every one, and `OpenAPIConformanceTests` holds the server to it.
public enum APIPath {
    public static let health = "/health"
    public static let ready = "/ready"
    public static let metrics = "/metrics"
    public static let openAPI = "/openapi.yaml"
    public static let authToken = "/api/auth/token"
    /// Single sign-on: `GET` says whether and through which provider; `POST` signs in.
    public static let authSSO = "/api/auth/sso"
    /// Starts a device login at the provider.
    public static let authSSODevice = "/api/auth/sso/device"
    /// Ends a single sign-on's renewable session.
    public static let authSSOLogout = "/api/auth/sso/logout"
    /// The caller's sessions: `GET` lists them, `DELETE` ends all but the caller's.
    public static let authSessions = "/api/auth/sessions"
    /// One of the caller's sessions: `DELETE` ends it.
    public static func authSession(_ id: String) -> String { "\(authSessions)/\(id)" }
    public static let todoItems = "/api/todo/items"
    public static let calendarEvents = "/api/calendar/events"
    /// `POST` an iCalendar file's events (`text/calendar`, 64 KiB at most a request).
    public static let calendarImport = "/api/calendar/import"
    /// `GET` the events of a range as iCalendar, a page at a time.
    public static let calendarExport = "/api/calendar/export"
    /// `GET` the reminders going off in a range (`CalendarReminder`), by moment.
    public static let calendarReminders = "/api/calendar/reminders"
    /// The user's calendars besides their own (`CalendarCollection`).
    public static let calendars = "/api/calendars"
    /// `POST` a new subscription (`NewCalendarSubscription`).
    public static let calendarSubscriptions = "/api/calendars/subscriptions"
    /// `POST` the user's CalDAV server, whose calendars are synced from then on (`NewCalDAVConnection`).
    public static let calendarCalDAV = "/api/calendars/caldav"
    /// `GET` the todo list as iCalendar tasks, a page at a time.
    public static let todoExport = "/api/todo/export"
    public static let chatChannels = "/api/chat/channels"
    /// The audit log (admins only).
    public static let audit = "/api/audit"
    /// Shared canvases: the caller's list, and a new one.
    public static let canvases = "/api/canvas"
    public static let registryApps = "/api/registry/apps"
    public static let events = "/api/events"
    /// Packages suggested to the caller, from what their team uses.
    public static let registrySuggestions = "/api/registry/suggestions"

    /// One app of the registry.
    public static func registryApp(_ id: String) -> String { "\(registryApps)/\(id)" }
    /// The caller's grant of a remote app.
    public static func registryGrant(_ id: String) -> String { "\(registryApps)/\(id)/grant" }
    /// A package's versions: `POST` publishes one (the archive as the body).
    public static func registryVersions(_ id: String) -> String { "\(registryApps)/\(id)/versions" }
    /// One version of a package: `DELETE` withdraws it.
    public static func registryVersion(_ id: String, _ version: String) -> String { "\(registryVersions(id))/\(version)" }
    /// The archive of a package's version.
    public static func registryArchive(_ id: String, _ version: String) -> String { "\(registryVersion(id, version))/archive" }
    /// Who may publish a package besides admins.
    public static func registryPublishers(_ id: String) -> String { "\(registryApps)/\(id)/publishers" }
    public static func registryPublisher(_ id: String, user: String) -> String { "\(registryPublishers(id))/\(user)" }
    /// Where a dashboard records that its user installed a package (counted, never shown by whom).
    public static func registryInstalls(_ id: String) -> String { "\(registryApps)/\(id)/installs" }
    /// The server's proxy of a remote app's entry.
    public static func appProxy(_ id: String) -> String { "/api/apps/\(id)" }
    /// Opens a session of a remote app (`POST`, the `initialize` request as the body).
    public static func appSessions(_ id: String) -> String { "\(appProxy(id))/sessions" }
    /// One session of a remote app (`DELETE` ends it).
    public static func appSession(_ id: String, _ session: String) -> String { "\(appSessions(id))/\(session)" }
    /// What the app sends, as server-sent events, one protocol line each.
    public static func appSessionEvents(_ id: String, _ session: String) -> String { "\(appSession(id, session))/events" }
    /// Where the host's messages go (`POST`, one protocol line).
    public static func appSessionMessages(_ id: String, _ session: String) -> String { "\(appSession(id, session))/messages" }
    /// Where outside systems send a remote app's webhook events.
    public static func hook(_ app: String) -> String { "/api/hooks/\(app)" }

    /// The path of one todo item.
    public static func todoItem(_ id: Int64) -> String { "\(todoItems)/\(id)" }
    /// The path of one calendar event.
    public static func calendarEvent(_ id: Int64) -> String { "\(calendarEvents)/\(id)" }
    /// One calendar of the user's: `PATCH` renames it or changes its colour, `DELETE` removes it with its events.
    public static func calendar(_ id: Int64) -> String { "\(calendars)/\(id)" }
    /// `POST`: a subscription read again now.
    public static func calendarRefresh(_ id: Int64) -> String { "\(calendars)/\(id)/refresh" }
    /// One shared canvas.
    public static func canvas(_ id: Int64) -> String { "\(canvases)/\(id)" }
    /// A shared canvas's ordered changes: new edits go here, and members catch up from here.
    public static func canvasChanges(_ id: Int64) -> String { "\(canvases)/\(id)/changes" }
    /// A shared canvas's members.
    public static func canvasMembers(_ id: Int64) -> String { "\(canvases)/\(id)/members" }
    /// One member of a shared canvas, by user name.
    public static func canvasMember(_ id: Int64, user: String) -> String { "\(canvases)/\(id)/members/\(user)" }
    /// A canvas's layout as it was at `version`.
    public static func canvasVersion(_ id: Int64, version: Int) -> String { "\(canvases)/\(id)/versions/\(version)" }
    /// Who has a canvas open; `…/presence/{session}` says a dashboard's session opened or closed it.
    public static func canvasPresence(_ id: Int64) -> String { "\(canvases)/\(id)/presence" }
    public static func canvasPresence(_ id: Int64, session: String) -> String { "\(canvases)/\(id)/presence/\(session)" }
    /// The messages of one chat channel, by its id (`general`, …).
    public static func chatMessages(channel: String) -> String { "\(chatChannels)/\(channel)/messages" }
}
