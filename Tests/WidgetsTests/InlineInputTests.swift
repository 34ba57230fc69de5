import CanvasCore
import CanvasStyle
import CanvasUI
import Testing
@testable import Widgets

/// A pane's one-line input puts the buffer's cursor where typing goes (the terminal shows its
/// own cursor there), inside the buffer whatever the prompt and the text.
struct InlineInputTests {
    static func cursor(prompt: String, text: String, back: Int = 0, width: Int) -> (Point?, String) {
        var input = InlineInput(prompt: prompt, text: text)
        for _ in 0..<back { _ = input.field.edit(.left) }
        var buffer = Buffer(size: Size(width: width, height: 2))
        input.draw(into: &buffer, row: 1, theme: .dark)
        return (buffer.cursor, buffer.lines[1])
    }

    @Test func theCursorIsAfterTheTextTypedOrOnTheCharacterItIsBefore() {
        #expect(Self.cursor(prompt: "> ", text: "hello", width: 20).0 == Point(x: 7, y: 1))
        let (cursor, line) = Self.cursor(prompt: "> ", text: "hello", back: 2, width: 20)
        #expect(cursor == Point(x: 5, y: 1) && line.hasPrefix("> hello"))
    }

    @Test func aLongTextScrollsSoTheCursorStaysInTheBuffer() {
        let (cursor, line) = Self.cursor(prompt: "> ", text: "a rather long message", width: 12)
        #expect(cursor == Point(x: 11, y: 1))
        #expect(line == "> g message ")
    }

    @Test func aPromptFillingTheRowLeavesTheLastColumnForTheCursor() {
        #expect(Self.cursor(prompt: "Title: ", text: "x", width: 8).0 == Point(x: 7, y: 1))
        #expect(Self.cursor(prompt: "Title: ", text: "x", width: 7).0 == nil, "no column left: no cursor")
    }
}
