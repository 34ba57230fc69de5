import CanvasCore
import CanvasStyle

extension Buffer {
    /// Each row as plain text, wide characters once, trailing spaces kept so columns line up.
    public var lines: [String] { lines(markingCursor: false) }

    /// The whole buffer as text, one line per row, trailing spaces trimmed.
    public var text: String { text(markingCursor: false) }

    /// `lines`, with `markingCursor` a `▏` put before the cell the cursor is on: where typing
    /// goes, which is not in the cells (the terminal shows its own cursor there). For tests.
    public func lines(markingCursor: Bool) -> [String] {
        (0..<size.height).map { y in
            var line = ""
            line.reserveCapacity(size.width)
            for x in 0..<size.width where !self[x, y].isContinuation {
                if markingCursor, cursor == Point(x: x, y: y) { line += "▏" }
                line += self[x, y].symbol
            }
            return line
        }
    }

    /// `text`, the cursor marked as `lines(markingCursor:)` marks it.
    public func text(markingCursor: Bool) -> String {
        lines(markingCursor: markingCursor).map { String($0.reversed().drop { $0 == " " }.reversed()) }.joined(separator: "\n")
    }

    /// Builds a buffer from lines of text in one style; for tests and fixtures.
    public init(lines: [String], style: Style = .plain) {
        let width = lines.map { DisplayWidth.of($0) }.max() ?? 0
        self.init(size: Size(width: width, height: lines.count))
        for (y, line) in lines.enumerated() { write(line, at: Point(x: 0, y: y), style: style) }
    }
}
