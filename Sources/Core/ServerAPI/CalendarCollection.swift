/// A calendar of the user's besides their own: a subscription, an iCalendar file at a URL
/// (`https://…/holidays.ics`, or `webcal://`, read as https) that the server reads again from
/// time to time and shows read-only; or a calendar on a CalDAV server, synced both ways. The
/// user's own events belong to no collection: their `calendar` is absent.
public struct CalendarCollection: Codable, Sendable, Equatable {
    public var id: Int64
    public var name: String
    /// `#RRGGBB`: how its events are drawn; nil leaves it to the dashboard's theme.
    public var colour: String?
    /// `subscription` or `caldav`.
    public var kind: String
    /// Where a subscription is read from (after `webcal://` became `https://`), or the CalDAV
    /// collection's address.
    public var url: String?
    /// Whether its events can be changed here: a subscription's cannot.
    public var readOnly: Bool
    /// Its events now (of a task list, its tasks).
    public var events: Int
    /// When it was last read, and when it will be next (UTC ISO 8601).
    public var refreshedAt: String?
    public var nextRefreshAt: String?
    /// Why its last reading failed, in our words; nil when it did not. Its events stay as the last
    /// good reading left them.
    public var problem: String?
    /// True for a task list synced with a CalDAV server: its tasks are todo items (their `list`),
    /// and it has no events. Absent for a calendar of events.
    public var taskList: Bool?

    public init(id: Int64, name: String, colour: String?, kind: String, url: String?, readOnly: Bool, events: Int,
                refreshedAt: String?, nextRefreshAt: String?, problem: String?) {
        self.id = id
        self.name = name
        self.colour = colour
        self.kind = kind
        self.url = url
        self.readOnly = readOnly
        self.events = events
        self.refreshedAt = refreshedAt
        self.nextRefreshAt = nextRefreshAt
        self.problem = problem
    }

    /// The kind of a subscription.
    public static let subscription = "subscription"
    /// The kind of a calendar synced with a CalDAV server.
    public static let calDAV = "caldav"
}

/// The body of `POST /api/calendars/subscriptions`: the server reads the URL once before it
/// answers, so a wrong address or a file that is not iCalendar is said at once.
public struct NewCalendarSubscription: Codable, Sendable, Equatable {
    public var url: String
    /// Its name in the dashboard; by default the calendar's own (`X-WR-CALNAME`) or the URL's host.
    public var name: String?
    public var colour: String?

    public init(url: String, name: String? = nil, colour: String? = nil) {
        self.url = url
        self.name = name
        self.colour = colour
    }
}

/// The body of `PATCH /api/calendars/{id}`: a new name or colour (empty takes the colour away).
public struct CalendarCollectionPatch: Codable, Sendable, Equatable {
    public var name: String?
    public var colour: String?

    public init(name: String? = nil, colour: String? = nil) {
        self.name = name
        self.colour = colour
    }
}

/// The limits of calendars besides the user's own.
public enum CalendarCollectionLimits {
    /// Calendars one user may subscribe to (403 past it).
    public static let perUser = 20
    /// Characters of a name.
    public static let nameLength = 1...100
    /// Bytes of a subscription's URL.
    public static let urlBytes = 2_000
    /// Bytes of a subscription's file: past it the reading fails and the last one stays.
    public static let feedBytes = 8 << 20
    /// Events one subscription may hold; they count in the user's `CalendarLimits.eventsPerUser` too.
    public static let eventsPerFeed = 20_000
    /// How often a subscription is read again, in seconds: the file's own wish
    /// (`REFRESH-INTERVAL`, `X-PUBLISHED-TTL`) within these bounds, an hour when it has none.
    public static let refreshSeconds: ClosedRange<Int64> = 900...86_400
    public static let defaultRefreshSeconds: Int64 = 3_600
    /// Seconds a reading may take, answer and body.
    public static let fetchSeconds: Int64 = 20

    /// Whether `text` is a colour as `CalendarCollection.colour` holds one (`#RRGGBB`).
    public static func isColour(_ text: String) -> Bool {
        let utf8 = Array(text.utf8)
        return utf8.count == 7 && utf8[0] == UInt8(ascii: "#") && utf8.dropFirst().allSatisfy { byte in
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte | 0x20)
        }
    }
}

/// The body of `POST /api/calendars/caldav`: the user's CalDAV server (its address, or any
/// address on it: the calendars are found from `/.well-known/caldav`), their user name and
/// password (an app password where the server has them), which the server keeps sealed and
/// shows nowhere.
public struct NewCalDAVConnection: Codable, Sendable, Equatable {
    public var url: String
    public var user: String
    public var password: String
    /// The calendars to sync, by name; all of them holding events by default.
    public var calendars: [String]?
    /// Whether new events go to the first of them (default true).
    public var makeDefault: Bool?

    public init(url: String, user: String, password: String, calendars: [String]? = nil, makeDefault: Bool? = nil) {
        self.url = url
        self.user = user
        self.password = password
        self.calendars = calendars
        self.makeDefault = makeDefault
    }
}
