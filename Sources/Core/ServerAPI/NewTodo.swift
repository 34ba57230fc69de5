/// The body of `POST /api/todo/items`: a title, optional notes, an optional ISO 8601 due date and
/// an optional priority (`TodoItem.priority`; 0 is none).
public struct NewTodo: Codable, Sendable, Equatable {
    public var title: String
    public var notes: String?
    public var due: String?
    public var priority: Int?
    /// The task list it goes to (a `CalendarCollection` of `taskList`); absent: the user's
    /// default, their own list unless `calendar connect` made a synced one theirs.
    public var list: Int64?

    public init(title: String, notes: String? = nil, due: String? = nil, priority: Int? = nil, list: Int64? = nil) {
        self.title = title
        self.notes = notes
        self.due = due
        self.priority = priority
        self.list = list
    }
}
