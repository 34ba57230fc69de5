/// The body of `POST /api/todo/items`: a title, optional notes and an optional ISO 8601 due date.
public struct NewTodo: Codable, Sendable, Equatable {
    public var title: String
    public var notes: String?
    public var due: String?

    public init(title: String, notes: String? = nil, due: String? = nil) {
        self.title = title
        self.notes = notes
        self.due = due
    }
}
