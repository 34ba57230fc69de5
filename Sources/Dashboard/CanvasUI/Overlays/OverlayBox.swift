import CanvasCore
import CanvasStyle

/// One line of an overlay and its role.
public struct OverlayLine: Hashable, Sendable {
    public let text: String
    public let role: ThemeRole
    /// A part of `text` drawn as selected, from its display column in `text`.
    public let selected: Selected?
    /// A text field's insertion point, as a display column in `text`: the terminal's cursor is
    /// shown there.
    public let cursor: Int?

    public struct Selected: Hashable, Sendable {
        public let column: Int
        public let text: String
    }

    public init(_ text: String, _ role: ThemeRole = .overlay, cursor: Int? = nil) {
        self.init(text, role, selected: nil, cursor: cursor)
    }

    private init(_ text: String, _ role: ThemeRole, selected: Selected?, cursor: Int?) {
        self.text = text
        self.role = role
        self.selected = selected
        self.cursor = cursor
    }

    /// A text field after its label: the cursor where it is, the text marked while it is all
    /// selected.
    public static func field(_ label: String, _ field: TextField, _ role: ThemeRole = .overlay) -> OverlayLine {
        let cursor = DisplayWidth.of(label + field.beforeCursor)
        let selected = field.isAllSelected ? Selected(column: DisplayWidth.of(label), text: field.text) : nil
        return OverlayLine(label + field.text, role, selected: selected, cursor: cursor)
    }
}

/// The box every overlay is drawn in: centred in the canvas area, sized to its lines, clipped.
public enum OverlayBox {
    /// How many lines fit inside a box in `area`.
    public static func capacity(in area: Rect) -> Int { max(0, area.height - 2) }

    /// Draws `lines`; when they do not fit, the last row says how many are hidden.
    public static func draw(title: String, lines: [OverlayLine], into buffer: inout Buffer, _ context: OverlayContext) {
        let selected = lines.firstIndex { $0.role == .selection } ?? 0
        let widest = lines.map { DisplayWidth.of($0.text) }.max() ?? 0
        draw(title: title, count: lines.count, selected: selected, widest: widest, into: &buffer, context) { lines[$0] }
    }

    /// Draws a list of `count` lines made by `line` only for the rows the box shows, around the
    /// `selected` row; a list that does not fit takes the area's whole width (its lines are not
    /// all made to find the widest).
    public static func draw(title: String, count: Int, selected: Int, into buffer: inout Buffer, _ context: OverlayContext,
                            line: (Int) -> OverlayLine) {
        guard count > capacity(in: context.area) else { return draw(title: title, lines: (0..<count).map(line), into: &buffer, context) }
        draw(title: title, count: count, selected: selected, widest: context.area.width, into: &buffer, context, line: line)
    }

    private static func draw(title: String, count: Int, selected: Int, widest: Int, into buffer: inout Buffer,
                             _ context: OverlayContext, line: (Int) -> OverlayLine) {
        let area = context.area
        let theme = context.theme
        let contentWidth = max(DisplayWidth.of(title) + 4, widest)
        let width = min(area.width, contentWidth + 4)
        let height = min(area.height, count + 2)
        let box = Rect(x: area.minX + (area.width - width) / 2, y: area.minY + (area.height - height) / 2, width: width, height: height)
        buffer.fill(box, with: Cell(" ", style: theme[.overlay]))
        buffer.drawBox(box, lines: .heavy, style: theme[.overlayBorder])
        buffer.write(" \(title) ", at: Point(x: box.minX + 2, y: box.minY), style: theme[.overlayBorder],
                     clip: Rect(x: box.minX + 1, y: box.minY, width: max(0, box.width - 2), height: 1))
        let inside = box.inset(by: 1)
        for (row, line) in window(count: count, selected: selected, rows: inside.height, line: line).enumerated() {
            let y = inside.minY + row
            let rowRect = Rect(x: inside.minX, y: y, width: inside.width, height: 1)
            if line.role == .selection { buffer.fill(rowRect, with: Cell(" ", style: theme[.selection])) }
            // A row wider than the box (a catalog's long summary) ends with a mark, never cut bare.
            buffer.write(DisplayWidth.clipped(" \(line.text)", to: inside.width), at: Point(x: inside.minX, y: y), style: theme[line.role],
                         clip: rowRect)
            if let selected = line.selected {
                buffer.write(selected.text, at: Point(x: inside.minX + 1 + selected.column, y: y), style: theme[.selection], clip: rowRect)
            }
            if let column = line.cursor, inside.minX + 1 + column < inside.maxX {
                buffer.cursor = Point(x: inside.minX + 1 + column, y: y)
            }
        }
    }

    /// The lines that fit in `rows`: all of them, or a window around the selected line (a catalog
    /// of 500 packages), with what is above and below it counted.
    static func window(of lines: [OverlayLine], rows: Int) -> [OverlayLine] {
        window(count: lines.count, selected: lines.firstIndex { $0.role == .selection } ?? 0, rows: rows) { lines[$0] }
    }

    /// `window(of:rows:)` of `count` lines made by `line`, only those shown made.
    static func window(count: Int, selected: Int, rows: Int, line: (Int) -> OverlayLine) -> [OverlayLine] {
        guard rows > 0 else { return [] }
        guard count > rows else { return (0..<count).map(line) }
        guard rows >= 3 else { return (0..<rows).map(line) }
        let start = max(0, min(selected - rows / 2, count - rows))
        var shown = (start..<start + rows).map(line)
        if start > 0 { shown[0] = OverlayLine("… \(start + 1) more above", .muted) }
        if start + rows < count { shown[rows - 1] = OverlayLine("… \(count - start - rows + 1) more below", .muted) }
        return shown
    }

    /// The hints of overlays that are lists.
    public static let listHints = [KeyHint(keys: "↑↓", action: "choose"), KeyHint(keys: "Enter", action: "select"), KeyHint(keys: "Esc", action: "close")]
}

/// The keys that scroll an overlay's text: ↑↓ a line, PgUp PgDn a page, Home End to either end.
enum OverlayScroll {
    /// The first line shown after `key`, within `0...last`; nil when `key` does not scroll.
    static func top(after key: Key, from top: Int, page: Int, last: Int) -> Int? {
        let moved: Int
        switch (key.code, key.modifiers) {
        case (.up, []): moved = top - 1
        case (.down, []): moved = top + 1
        case (.pageUp, []): moved = top - page
        case (.pageDown, []): moved = top + page
        case (.home, []): moved = 0
        case (.end, []): moved = last
        default: return nil
        }
        return min(max(0, moved), max(0, last))
    }
}
