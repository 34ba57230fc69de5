import CalendarTime
import CanvasCore
import FoundationEssentials
import ServerAPI
import PlainText

/// What the user types for an item: a title and, optionally at its end, a due date as
/// `@2026-11-23`, `@today`, `@tomorrow` or `@none`.
struct TodoEntry: Equatable {
    var title: String
    /// nil: no date given; `.some(nil)`: `@none`, no due date.
    var due: CalendarDate??

    /// Reads `text`; `today` resolves `@today` and `@tomorrow`.
    /// - Throws: `TodoEntryProblem` saying what is wrong, for the user.
    static func parse(_ text: String, today: CalendarDate) throws(TodoEntryProblem) -> TodoEntry {
        var title = text.trimmingWhitespace()
        var due: CalendarDate??
        if let at = title.lastIndex(of: "@"), !title[title.index(after: at)...].contains(" ") {
            let word = String(title[title.index(after: at)...]).lowercased()
            switch word {
            case "today": due = .some(today)
            case "tomorrow": due = .some(today.adding(days: 1))
            case "none": due = .some(nil)
            default:
                guard let date = CalendarDate(iso: word) else { throw .badDate(word) }
                due = .some(date)
            }
            title = String(title[..<at]).trimmingWhitespace()
        }
        guard !title.isEmpty else { throw .emptyTitle }
        guard TodoLimits.titleLength.contains(title.count) else { throw .tooLong(TodoLimits.titleLength.upperBound) }
        return TodoEntry(title: title, due: due)
    }

    /// The text that gives `item` back, for editing.
    static func text(of item: TodoItem) -> String {
        item.title + (item.due.map { " @\($0)" } ?? "")
    }
}

enum TodoEntryProblem: Error, Equatable, CustomStringConvertible {
    case emptyTitle, tooLong(Int), badDate(String)

    var description: String {
        switch self {
        case .emptyTitle: "A todo needs a title."
        case .tooLong(let limit): "Titles have at most \(limit) characters."
        case .badDate(let text): "'@\(text)' is not a date: use @YYYY-MM-DD, @today, @tomorrow or @none."
        }
    }
}
