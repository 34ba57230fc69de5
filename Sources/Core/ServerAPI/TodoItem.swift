import CalendarTime
/// A todo item as the API shows it: `{id, title, notes, done, due}`, with `due` an ISO 8601 date (`2026-11-22`).
public struct TodoItem: Codable, Sendable, Equatable {
    public var id: Int64
    public var title: String
    public var notes: String
    public var done: Bool
    /// `YYYY-MM-DD` on the wire; nil for no due date.
    public var due: CalendarDate?

    public init(id: Int64, title: String, notes: String = "", done: Bool = false, due: CalendarDate? = nil) {
        self.id = id
        self.title = title
        self.notes = notes
        self.done = done
        self.due = due
    }

    private enum CodingKeys: String, CodingKey { case id, title, notes, done, due }

    /// Writes `due` as `null` when absent, so every field is always present.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(title, forKey: .title)
        try container.encode(notes, forKey: .notes)
        try container.encode(done, forKey: .done)
        try container.encode(due, forKey: .due)
    }
}
