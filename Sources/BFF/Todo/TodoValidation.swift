import MicroAppAPI

/// The field rules for todo items; each failure names its field.
enum TodoValidation {
    static func title(_ title: String) throws {
        try TextValidation.check(title, field: "title", lines: .single, length: TodoLimits.titleLength)
    }

    static func notes(_ notes: String) throws {
        try TextValidation.check(notes, field: "notes", lines: .multiple, length: 0...TodoLimits.notesMaxLength)
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
