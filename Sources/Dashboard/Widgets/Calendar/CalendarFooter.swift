import CanvasCore
import CanvasStyle
import CanvasUI

/// The rows under a calendar pane's days: the entry being typed, the question of which
/// instances a change is of or whether to delete, or why the last key did nothing. The answers
/// a question takes wrap between them, so none is cut in a narrow pane.
struct CalendarFooter {
    let mode: CalendarWidget.Mode
    let notice: String?

    static let answers = ["o this one", "f this and the following", "a all", "Esc none"]

    /// The rows it takes from the bottom of a pane `width` wide.
    func rows(width: Int) -> Int {
        switch mode {
        case .browse: notice == nil ? 0 : 1
        case .input: 2
        case .askInstances: 1 + Self.answerLines(width: width).count
        case .confirmDelete: 1
        }
    }

    /// The answers, as many to a line as fit, ` · ` between them.
    static func answerLines(width: Int) -> [String] {
        var lines: [String] = []
        for answer in answers {
            if let last = lines.last, DisplayWidth.of(last + " · " + answer) <= width {
                lines[lines.count - 1] = last + " · " + answer
            } else {
                lines.append(answer)
            }
        }
        return lines
    }

    func draw(into buffer: inout Buffer, theme: Theme) {
        let height = buffer.size.height
        let width = buffer.size.width
        func line(_ text: String, row: Int, _ role: ThemeRole) {
            guard (0..<height).contains(row) else { return }
            buffer.write(DisplayWidth.clipped(text, to: width), at: Point(x: 0, y: row), style: theme[role])
        }
        let first = height - rows(width: width)
        switch mode {
        case .browse:
            if let notice { line(notice, row: first, .warning) }
        case .input(let entry, _):
            if height > 0 { entry.draw(into: &buffer, row: height - 1, theme: theme) }
        case .askInstances(let change):
            let verb = change.kind == .delete ? "Delete" : "Change"
            line("\(verb) \u{201C}\(change.event.title)\u{201D}, which repeats:", row: first, .accent)
            for (index, answers) in Self.answerLines(width: width).enumerated() { line(answers, row: first + 1 + index, .warning) }
        case .confirmDelete(let event):
            line("Delete \u{201C}\(event.title)\u{201D}? y/n", row: first, .warning)
        }
    }
}
