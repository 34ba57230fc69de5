import CalendarTime

/// The body of `PATCH /api/todo/items/{id}`: only the fields present change.
///
/// `due` tells an absent key (keep the date) from an explicit `null` (clear it): `.none` is absent,
/// `.some(nil)` is `null`. `priority` 0 takes the priority away.
public struct TodoPatch: Codable, Sendable, Equatable {
    public var title: String?
    public var notes: String?
    public var done: Bool?
    public var due: String??
    public var priority: Int?

    public init(title: String? = nil, notes: String? = nil, done: Bool? = nil, due: String?? = .none, priority: Int? = nil) {
        self.title = title
        self.notes = notes
        self.done = done
        self.due = due
        self.priority = priority
    }

    private enum CodingKeys: String, CodingKey { case title, notes, done, due, priority }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        title = try container.decodeIfPresent(String.self, forKey: .title)
        notes = try container.decodeIfPresent(String.self, forKey: .notes)
        done = try container.decodeIfPresent(Bool.self, forKey: .done)
        priority = try container.decodeIfPresent(Int.self, forKey: .priority)
        if container.contains(.due) {
            due = .some(try container.decodeNil(forKey: .due) ? nil : try container.decode(String.self, forKey: .due))
        } else {
            due = .none
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(title, forKey: .title)
        try container.encodeIfPresent(notes, forKey: .notes)
        try container.encodeIfPresent(done, forKey: .done)
        if let due { try container.encode(due, forKey: .due) }
        try container.encodeIfPresent(priority, forKey: .priority)
    }
}

extension TodoItem {
    /// The item with `patch` applied: the one rule the server stores by and a dashboard's cache
    /// shows a change by before the server answers. A due day that is not `YYYY-MM-DD` (which the
    /// server refuses first) clears it.
    public func patched(_ patch: TodoPatch) -> TodoItem {
        var item = self
        if let title = patch.title { item.title = title }
        if let notes = patch.notes { item.notes = notes }
        if let done = patch.done { item.done = done }
        if let due = patch.due { item.due = due.flatMap(CalendarDate.init(iso:)) }
        if let priority = patch.priority { item.priority = TodoLimits.priorities.contains(priority) ? priority : nil }
        return item
    }
}
