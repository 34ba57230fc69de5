/// The body of `POST /api/todo/items`: a title, optional notes, an optional ISO 8601 due date and
/// an optional priority (`TodoItem.priority`; 0 is none).
public struct NewTodo: Codable, Sendable, Equatable {
    public var title: String
    public var notes: String?
    public var due: String?
    public var priority: Int?

    public init(title: String, notes: String? = nil, due: String? = nil, priority: Int? = nil) {
        self.title = title
        self.notes = notes
        self.due = due
        self.priority = priority
    }
}
