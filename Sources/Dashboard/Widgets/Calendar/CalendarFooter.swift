import CanvasCore
import CanvasStyle
import CanvasUI

/// The rows under a calendar pane's days: the entry being typed, the question of which
/// instances a change is of or whether to delete, or why the last key did nothing.
struct CalendarFooter {
    let mode: CalendarWidget.Mode
    let notice: String?

    /// The rows it takes from the bottom of the pane.
    var rows: Int {
        switch mode {
        case .browse: notice == nil ? 0 : 1
        case .input, .askInstances: 2
        case .confirmDelete: 1
        }
    }

    func draw(into buffer: inout Buffer, theme: Theme) {
        let last = buffer.size.height - 1
        guard last >= 0 else { return }
        func line(_ text: String, row: Int, _ role: ThemeRole) {
            guard row >= 0 else { return }
            buffer.write(DisplayWidth.clipped(text, to: buffer.size.width), at: Point(x: 0, y: row), style: theme[role])
        }
        switch mode {
        case .browse:
            if let notice { line(notice, row: last, .warning) }
        case .input(let entry, _):
            entry.draw(into: &buffer, row: last, theme: theme)
        case .askInstances(let change):
            let verb = change.kind == .delete ? "Delete" : "Change"
            line("\(verb) \u{201C}\(change.event.title)\u{201D}, which repeats:", row: last - 1, .accent)
            line("o this one · f this and the following · a all · Esc none", row: last, .warning)
        case .confirmDelete(let event):
            line("Delete \u{201C}\(event.title)\u{201D}? y/n", row: last, .warning)
        }
    }
}
