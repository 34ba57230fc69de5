import CanvasCore
import CanvasStyle

/// The line set of a box border.
public enum BoxLines: Sendable {
    case light, heavy

    var glyphs: BoxGlyphs {
        switch self {
        case .light: BoxGlyphs.light
        case .heavy: BoxGlyphs.heavy
        }
    }
}

/// The six glyphs of a border.
struct BoxGlyphs {
    let topLeft, topRight, bottomLeft, bottomRight, horizontal, vertical: Glyph

    init(_ corners: String, _ horizontal: Character, _ vertical: Character) {
        let scalars = corners.unicodeScalars.map(Glyph.init)
        (topLeft, topRight, bottomLeft, bottomRight) = (scalars[0], scalars[1], scalars[2], scalars[3])
        self.horizontal = Glyph(String(horizontal))
        self.vertical = Glyph(String(vertical))
    }

    static let light = BoxGlyphs("┌┐└┘", "─", "│")
    static let heavy = BoxGlyphs("┏┓┗┛", "━", "┃")
}

extension Buffer {
    /// Draws a border along the inside edge of `rect`.
    public mutating func drawBox(_ rect: Rect, lines: BoxLines, style: Style) {
        guard rect.width >= 2, rect.height >= 2 else { return }
        let g = lines.glyphs
        func edge(_ y: Int, _ left: Glyph, _ right: Glyph) {
            repeatSymbol(left, row: y, from: rect.minX, to: rect.minX + 1, style: style)
            repeatSymbol(g.horizontal, row: y, from: rect.minX + 1, to: rect.maxX - 1, style: style)
            repeatSymbol(right, row: y, from: rect.maxX - 1, to: rect.maxX, style: style)
        }
        edge(rect.minY, g.topLeft, g.topRight)
        edge(rect.maxY - 1, g.bottomLeft, g.bottomRight)
        for y in (rect.minY + 1)..<(rect.maxY - 1) {
            repeatSymbol(g.vertical, row: y, from: rect.minX, to: rect.minX + 1, style: style)
            repeatSymbol(g.vertical, row: y, from: rect.maxX - 1, to: rect.maxX, style: style)
        }
    }

    /// Draws a light border's vertical line down column `x` over `rows`, clipped to the buffer: a rule
    /// between two parts of a pane, drawn as the box's edges are, without grapheme breaking.
    public mutating func drawVerticalLine(at x: Int, rows: Range<Int>, style: Style) {
        for y in rows { repeatSymbol(BoxGlyphs.light.vertical, row: y, from: x, to: x + 1, style: style) }
    }

    /// Writes `text` centred in one row of `rect`, clipped to it.
    public mutating func writeCentered(_ text: String, row y: Int, in rect: Rect, style: Style) {
        let x = rect.minX + max(0, (rect.width - DisplayWidth.of(text)) / 2)
        write(text, at: Point(x: x, y: y), style: style, clip: rect)
    }
}
