import CanvasCore
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

    /// Draws the prompt and the text with a cursor on `row`, the problem (if any) on the row above.
    func draw(into buffer: inout Buffer, row: Int, theme: Theme) {
        if let problem, row > 0 {
            buffer.write(problem, at: Point(x: 0, y: row - 1), style: theme[.error])
        }
        let x = buffer.write(prompt, at: Point(x: 0, y: row), style: theme[.accent])
        let characters = Array(field.text)
        // Keep the cursor in view: show the end of a text longer than the line.
        let room = max(1, buffer.size.width - x - 1)
        var start = 0
        while DisplayWidth.of(String(characters[start..<field.cursor])) > room { start += 1 }
        let before = String(characters[start..<field.cursor])
        let atCursor = field.cursor < characters.count ? String(characters[field.cursor]) : " "
        let after = field.cursor < characters.count ? String(characters[(field.cursor + 1)...]) : ""
        var cursorX = buffer.write(before, at: Point(x: x, y: row), style: theme[.text])
        cursorX = buffer.write(atCursor, at: Point(x: cursorX, y: row), style: theme[.selection])
        buffer.write(after, at: Point(x: cursorX, y: row), style: theme[.text])
    }
}
