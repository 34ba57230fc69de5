import CalendarTime
/// A todo item as the API shows it: `{id, title, notes, done, due}`, with `due` an ISO 8601 date (`2026-11-22`).
public struct TodoItem: Codable, Sendable, Equatable {
    public var id: Int64
    public var title: String
    public var notes: String
    public var done: Bool
    /// `YYYY-MM-DD` on the wire; nil for no due date.
    public var due: CalendarDate?
    /// Its iCalendar `UID`, for a task imported from a calendar program (left out otherwise, and
    /// by servers from before).
    public var uid: String?
    /// iCalendar's `PRIORITY`: 1 the highest to 9 the lowest; nil for none.
    public var priority: Int?
    /// The task list it is in (a `CalendarCollection` synced with a CalDAV server); absent for
    /// the user's own list.
    public var list: Int64?

    public init(id: Int64, title: String, notes: String = "", done: Bool = false, due: CalendarDate? = nil) {
        self.id = id
        self.title = title
        self.notes = notes
        self.done = done
        self.due = due
    }

    private enum CodingKeys: String, CodingKey { case id, title, notes, done, due, uid, priority, list }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(id: try container.decode(Int64.self, forKey: .id), title: try container.decode(String.self, forKey: .title),
                  notes: try container.decode(String.self, forKey: .notes), done: try container.decode(Bool.self, forKey: .done),
                  due: try container.decodeIfPresent(CalendarDate.self, forKey: .due))
        uid = try container.decodeIfPresent(String.self, forKey: .uid)
        priority = try container.decodeIfPresent(Int.self, forKey: .priority)
        list = try container.decodeIfPresent(Int64.self, forKey: .list)
    }

    /// Writes `due` as `null` when absent, so every field of before is always present; the fields
    /// added since only when they say something.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(title, forKey: .title)
        try container.encode(notes, forKey: .notes)
        try container.encode(done, forKey: .done)
        try container.encode(due, forKey: .due)
        try container.encodeIfPresent(uid, forKey: .uid)
        try container.encodeIfPresent(priority, forKey: .priority)
        try container.encodeIfPresent(list, forKey: .list)
    }
}
