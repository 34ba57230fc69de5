import CalendarTime
import ServerAPI
import ServerHTTP
import ServerStore

/// The field rules for todo items; each failure names its field.
enum TodoValidation {
    static func title(_ title: String) throws {
        try TextValidation.check(title, field: "title", lines: .single, length: TodoLimits.titleLength)
    }

    static func notes(_ notes: String) throws {
        try TextValidation.check(notes, field: "notes", lines: .multiple, length: 0...TodoLimits.notesMaxLength)
    }

    /// A real day of the years 1 to 9999.
    static func date(_ text: String, field: String) throws -> CalendarDate {
        guard let date = CalendarDate(iso: text), date.year >= 1 else {
            throw APIFailure.badRequest("must be an ISO 8601 date, YYYY-MM-DD", field: field)
        }
        return date
    }

    /// 0 (none) or a priority of `TodoLimits.priorities`.
    static func priority(_ priority: Int) throws {
        guard priority == 0 || TodoLimits.priorities.contains(priority) else {
            throw APIFailure.badRequest("must be from 1 (the highest) to 9 (the lowest), or 0 for none", field: "priority")
        }
    }

    /// A new item's fields, checked, with its due day.
    static func validated(_ new: NewTodo) throws -> (title: String, notes: String, due: CalendarDate?, priority: Int?) {
        try title(new.title)
        if let notes = new.notes { try self.notes(notes) }
        if let priority = new.priority { try self.priority(priority) }
        return (new.title, new.notes ?? "", try new.due.map { try date($0, field: "due") }, new.priority.flatMap { $0 == 0 ? nil : $0 })
    }

    /// A patch whose fields are checked: its due day, when it gives one, is a day.
    static func validated(_ patch: TodoPatch) throws -> TodoPatch {
        if let title = patch.title { try self.title(title) }
        if let notes = patch.notes { try self.notes(notes) }
        if case .some(.some(let due)) = patch.due { _ = try date(due, field: "due") }
        if let priority = patch.priority { try self.priority(priority) }
        return patch
    }
}
