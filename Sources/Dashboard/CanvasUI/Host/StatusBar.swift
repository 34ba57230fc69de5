import CanvasCore
import CanvasStyle

/// What the status bar says: the mode's badge, then a notice or the keys' hints, and the
/// layout's name. Two equal ones draw the same row, so a key that changes none of it (typing,
/// moving a selection) does not draw the row again.
struct StatusBar: Equatable {
    let badge: String
    let notice: Notice?
    /// The key that shows every message, named at the end of a notice too long for the bar.
    let messagesKey: String?
    let hints: [KeyHint]
    let name: String

    /// Draws the bar on the buffer's last row.
    func draw(into buffer: inout Buffer, theme: Theme) {
        let width = buffer.size.width
        let y = buffer.size.height - 1
        let row = Rect(x: 0, y: y, width: width, height: 1)
        buffer.fill(row, with: Cell(" ", style: theme[.statusBar]))
        var x = buffer.write(badge, at: Point(x: 0, y: y), style: theme[.statusMode], clip: row)
        if let notice {
            // A notice takes the whole bar, so even a long error can be read; one longer still
            // ends by naming the key that shows it whole (the messages box).
            let style = notice.kind == .error ? theme[.statusMessage] : theme[.statusBar]
            buffer.fill(Rect(x: x, y: y, width: max(0, width - x), height: 1), with: Cell(" ", style: style))
            let text = " \(notice.text)"
            if DisplayWidth.of(text) > width - x, let messagesKey {
                let more = " … \(messagesKey) all "
                let end = max(x, width - DisplayWidth.of(more))
                buffer.write(text, at: Point(x: x, y: y), style: style, clip: Rect(x: x, y: y, width: end - x, height: 1))
                buffer.write(more, at: Point(x: end, y: y), style: theme[.statusKey], clip: row)
            } else {
                buffer.write(text, at: Point(x: x, y: y), style: style, clip: row)
            }
            return
        }
        let nameWidth = DisplayWidth.of(name) + 2
        // Whole hints only: one that does not fit before the layout's name is left out, with
        // every hint after it, so no word is ever cut.
        for hint in hints {
            let hintWidth = (hint.keys.isEmpty ? 0 : 1 + DisplayWidth.of(hint.keys)) + 1 + DisplayWidth.of(hint.action)
            guard x + hintWidth <= width - nameWidth else { break }
            if !hint.keys.isEmpty { x = buffer.write(" \(hint.keys)", at: Point(x: x, y: y), style: theme[.statusKey], clip: row) }
            x = buffer.write(" \(hint.action)", at: Point(x: x, y: y), style: theme[.statusBar], clip: row)
        }
        buffer.write(" \(name) ", at: Point(x: max(x, width - nameWidth), y: y), style: theme[.statusBar], clip: row)
    }
}

extension HostState {
    /// What the status bar says now.
    mutating func statusBar() -> StatusBar {
        StatusBar(badge: overlay?.badge ?? (mode == .normal ? " NORMAL " : " ARRANGE "), notice: notice,
                  messagesKey: notice == nil ? nil : commands.keys(for: .messages).first.map(KeyLabel.short),
                  hints: notice != nil ? [] : overlay?.hints(overlayContext) ?? hints(in: mode),
                  name: manager.layout.name + (shared.map { " · \($0.statusBadge)" } ?? "") + (account.map { " · \($0)" } ?? ""))
    }
}
