import MicroAppAPI

/// The field rules for todo items; each failure names its field.
enum TodoValidation {
    /// A title: not blank, within `limit` characters (todo items and calendar events share this).
    static func title(_ title: String, limit: ClosedRange<Int> = TodoLimits.titleLength) throws {
        guard !title.allSatisfy(\.isWhitespace) else { throw APIFailure.badRequest("must not be empty", field: "title") }
        guard limit.contains(title.count) else {
            throw APIFailure.badRequest("must be 1 to \(limit.upperBound) characters", field: "title")
        }
    }

    static func notes(_ notes: String) throws {
        guard notes.count <= TodoLimits.notesMaxLength else {
            throw APIFailure.badRequest("must be at most \(TodoLimits.notesMaxLength) characters", field: "notes")
        }
    }

    static func date(_ date: String, field: String) throws {
        guard ISODate.isValid(date) else {
            throw APIFailure.badRequest("must be an ISO 8601 date, YYYY-MM-DD", field: field)
        }
    }

    static func validate(_ new: NewTodo) throws {
        try title(new.title)
        if let notes = new.notes { try self.notes(notes) }
        if let due = new.due { try date(due, field: "due") }
    }

    static func validate(_ patch: TodoPatch) throws {
        if let title = patch.title { try self.title(title) }
        if let notes = patch.notes { try self.notes(notes) }
        if case .some(.some(let due)) = patch.due { try date(due, field: "due") }
    }
}
