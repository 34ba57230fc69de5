import CanvasCore

/// The line set of a box border.
public enum BoxLines: Sendable {
    case light, heavy

    var glyphs: (topLeft: String, topRight: String, bottomLeft: String, bottomRight: String, horizontal: String, vertical: String) {
        switch self {
        case .light: ("┌", "┐", "└", "┘", "─", "│")
        case .heavy: ("┏", "┓", "┗", "┛", "━", "┃")
        }
    }
}

extension Buffer {
    /// Draws a border along the inside edge of `rect`.
    public mutating func drawBox(_ rect: Rect, lines: BoxLines, style: Style) {
        guard rect.width >= 2, rect.height >= 2 else { return }
        let g = lines.glyphs
        let horizontal = String(repeating: g.horizontal, count: rect.width - 2)
        write(g.topLeft + horizontal + g.topRight, at: rect.origin, style: style)
        write(g.bottomLeft + horizontal + g.bottomRight, at: Point(x: rect.minX, y: rect.maxY - 1), style: style)
        for y in (rect.minY + 1)..<(rect.maxY - 1) {
            write(g.vertical, at: Point(x: rect.minX, y: y), style: style)
            write(g.vertical, at: Point(x: rect.maxX - 1, y: y), style: style)
        }
    }

    /// Writes `text` centred in one row of `rect`, clipped to it.
    public mutating func writeCentered(_ text: String, row y: Int, in rect: Rect, style: Style) {
        let x = rect.minX + max(0, (rect.width - DisplayWidth.of(text)) / 2)
        write(text, at: Point(x: x, y: y), style: style, clip: rect)
    }
}
