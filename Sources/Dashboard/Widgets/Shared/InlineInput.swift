import CanvasCore
import CanvasStyle
import CanvasUI

/// A one-line input a widget opens inside its pane (a new todo, a new event): a prompt, the
/// field, and the reason the last Enter was refused.
struct InlineInput: Equatable {
    var prompt: String
    var field: TextField
    var problem: String?

    init(prompt: String, text: String = "", limit: Int = 300) {
        self.prompt = prompt
        field = TextField(text, limit: limit)
    }

    /// Draws the prompt and the text on `row`, the buffer's cursor at the insertion point, and
    /// the problem (if any) on the row above.
    func draw(into buffer: inout Buffer, row: Int, theme: Theme) {
        if let problem, row > 0 {
            buffer.write(problem, at: Point(x: 0, y: row - 1), style: theme[.error])
        }
        let x = buffer.write(prompt, at: Point(x: 0, y: row), style: theme[.accent])
        let room = max(0, buffer.size.width - x - 1)
        // Keep the cursor in view: as many characters before it as fit, counted back from it once.
        let text = field.beforeCursor
        var start = text.endIndex
        var width = 0
        while start > text.startIndex {
            let previous = text.index(before: start)
            width += DisplayWidth.of(text[previous])
            guard width <= room else { break }
            start = previous
        }
        let cursorX = buffer.write(String(text[start...]), at: Point(x: x, y: row), style: theme[.text])
        if buffer.bounds.contains(Point(x: cursorX, y: row)) { buffer.cursor = Point(x: cursorX, y: row) }
        buffer.write(String(field.fromCursor), at: Point(x: cursorX, y: row), style: theme[.text])
    }
}
